export {
  api,
  authStore,
  canSelectAll,
  LoginFailure,
  refreshUserInfo,
  useAuth,
  type AuthState,
} from './store';
export { httpStatus, notifyApiError, readApiError, setApiErrorNotifier } from './api';
export {
  downloadFile,
  filenameFromDisposition,
  saveBase64Png,
  saveBlob,
  type DownloadOptions,
  type DownloadResult,
} from './download';
export { can, canAny, useCan, useCanAny } from './permissions';
export { STORAGE_KEYS } from './storage';
