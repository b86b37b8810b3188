import { createStore, type StoreApi } from 'zustand/vanilla';
import { setApiErrorNotifier } from '@sertifikasi/shared-auth';

/** The three toast kinds of docs/rules.md#screens. */
export type ToastType = 'warning' | 'danger' | 'success';

/** How long a toast stays (docs/rules.md#constants). */
export const TOAST_DURATION_MS = 2500;

export interface Toast {
  /** Grows with each toast, so that the same text shown twice is still a new toast. */
  id: number;
  type: ToastType;
  text: string;
}

export interface ToastState {
  toast: Toast | null;
  show(type: ToastType, text: string): void;
  hide(): void;
}

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The one toast: a new one replaces the current one and restarts the 2.5 s. */
export const toastStore: StoreApi<ToastState> = createStore<ToastState>()((set) => ({
  toast: null,
  show(type, text) {
    clearTimeout(timer);
    set({ toast: { id: nextId++, type, text } });
    timer = setTimeout(() => set({ toast: null }), TOAST_DURATION_MS);
  },
  hide() {
    clearTimeout(timer);
    set({ toast: null });
  },
}));

/** Shows a toast at the top right for 2.5 s. */
export function showToast(type: ToastType, text: string): void {
  toastStore.getState().show(type, text);
}

/** Hides the toast now. */
export function hideToast(): void {
  toastStore.getState().hide();
}

/**
 * Routes shared-auth's `notifyApiError` to a warning toast. `<ToastHost/>` calls it when it mounts, so
 * an app that renders the host needs nothing else; calling it again is harmless.
 */
export function connectApiErrors(): void {
  setApiErrorNotifier((message) => showToast('warning', message));
}
