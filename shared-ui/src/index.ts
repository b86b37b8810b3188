// Theme and toasts: the `core` entry, re-exported by its package path (see core/index.ts)
export {
  theme,
  AppThemeProvider,
  showToast,
  hideToast,
  connectApiErrors,
  toastStore,
  TOAST_DURATION_MS,
  ToastHost,
  type AppThemeProviderProps,
  type Toast,
  type ToastState,
  type ToastType,
} from '@sertifikasi/shared-ui/core';
// Strings and formats
export { UI_TEXT, UI_FORMAT } from './i18n/id';
export {
  formatDate,
  formatNumber,
  formatRupiah,
  orDash,
  imageUrl,
  DATE_FORMAT,
  PICKER_DATE_FORMAT,
  API_DATE_FORMAT,
} from './format';
// List cells
export { ActiveBadge, NameWithImage, type ActiveBadgeProps, type NameWithImageProps } from './display';
// Form pieces
export * from './form';
// Modals
export { FormModal, DEFAULT_MODAL_WIDTH, type FormModalProps } from './modal/FormModal';
export { ConfirmDialog, type ConfirmDialogProps } from './modal/ConfirmDialog';
// The generic resource screen
export { ResourceScreen, type ResourceScreenProps } from './resource/ResourceScreen';
export { useResourceList, type ResourceList } from './resource/useResourceList';
export { ListPagination, pageWindow, type ListPaginationProps } from './resource/pagination';
export { toFormData } from './resource/body';
export {
  WideTableContainer,
  STICKY_END_CELL,
  type WideTableContainerProps,
} from './resource/WideTableContainer';
export type {
  FormMode,
  ResourceColumn,
  ResourceConfig,
  ResourceFieldsProps,
  ResourceFormConfig,
} from './resource/types';
