/**
 * `@sertifikasi/shared-ui/core`: the pieces that must exist once in the page (the theme and the one
 * toast) and that the login page needs, without the generic screen, forms and tables of the main
 * entry. It is its own shared singleton in Module Federation, so that the shell's login page can load
 * it alone. The rest of shared-ui reaches these pieces only through this package path (never by a
 * relative import, which ESLint refuses): a module federated from another build then still uses the
 * shell's one toast store.
 */
export { theme, AppThemeProvider, type AppThemeProviderProps } from './theme';
export {
  showToast,
  hideToast,
  connectApiErrors,
  toastStore,
  TOAST_DURATION_MS,
  type Toast,
  type ToastState,
  type ToastType,
} from './toast/toast';
export { ToastHost } from './toast/ToastHost';
