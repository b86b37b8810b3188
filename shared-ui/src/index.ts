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
  formatDateTime,
  daysUntil,
  formatNumber,
  formatRupiah,
  orDash,
  imageUrl,
  DATE_FORMAT,
  PICKER_DATE_FORMAT,
  API_DATE_FORMAT,
} from './format';
// List cells
export {
  ActiveBadge,
  NameWithImage,
  StatusChip,
  STATUS_CHIP_COLORS,
  type ActiveBadgeProps,
  type NameWithImageProps,
} from './display';
// Form pieces
export * from './form';
// Modals
export { FormModal, DEFAULT_MODAL_WIDTH, type FormModalProps } from './modal/FormModal';
export { ConfirmDialog, type ConfirmDialogProps } from './modal/ConfirmDialog';
// The generic resource screen, and the parts it is made of
export { ResourceScreen, type ResourceScreenProps } from './resource/ResourceScreen';
export {
  useResourceList,
  useListData,
  type ResourceList,
  type ResourceListOptions,
  type ListData,
  type ListDataOptions,
  type ListFilters,
} from './resource/useResourceList';
export {
  useListState,
  LIST_URL_KEYS,
  type ListParams,
  type ListState,
  type ListStateOptions,
  type SortOrder,
  type SortState,
} from './resource/useListState';
export { ListToolbar, type ListToolbarProps } from './resource/ListToolbar';
export { ExportButton, type ExportButtonProps } from './resource/ExportButton';
export { lazyScreen } from './screen/lazyScreen';
export { ResourceTable, type ResourceTableProps } from './resource/ResourceTable';
export {
  RowActions,
  useRowActions,
  DEFAULT_ACTIONS,
  type BuiltInHandlers,
  type RowActionsProps,
} from './resource/RowActions';
export {
  RecordFormModal,
  useFormModal,
  type FormModalControl,
  type FormModalState,
  type RecordFormModalProps,
} from './resource/RecordFormModal';
export { DeleteDialog, type DeleteDialogProps } from './resource/DeleteDialog';
export {
  nestFieldErrors,
  saveRecord,
  deleteRecord,
  useSaveRecord,
  useDeleteRecord,
  type SaveRecordRequest,
  type SaveResult,
  type FieldErrorSink,
} from './resource/mutations';
export { ListPagination, pageWindow, type ListPaginationProps } from './resource/pagination';
export { toFormData } from './resource/body';
export {
  WideTableContainer,
  STICKY_END_CELL,
  type WideTableContainerProps,
} from './resource/WideTableContainer';
export type {
  ActionColor,
  BuiltInAction,
  ResourceActionEntry,
  RowAction,
  FormMode,
  ResourceColumn,
  ResourceConfig,
  ResourceFieldsProps,
  ResourceFormConfig,
} from './resource/types';
// The one way a screen reads from the API
export {
  useFetch,
  logLoadFailure,
  type FetchFailure,
  type FetchOptions,
  type FetchParams,
  type FetchState,
} from './fetch/useFetch';
// The detail-page kit
export { useRecord, type RecordState } from './detail/useRecord';
export { RecordView, NotFoundBox, type RecordViewProps } from './detail/RecordView';
export { DetailGrid, DetailField, type DetailGridProps, type DetailFieldProps } from './detail/DetailField';
export { ChildSection, type ChildSectionProps } from './detail/ChildSection';
