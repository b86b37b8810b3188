export { authStore, canSelectAll, LoginFailure, refreshUserInfo, useAuth, type AuthState } from './store';
export { api, notifyApiError, readApiError, setApiErrorNotifier } from './api';
export { can, canAny, useCan, useCanAny } from './permissions';
export { STORAGE_KEYS } from './storage';
