import ky, { isHTTPError, type KyInstance } from 'ky';
import { MESSAGES, type ApiError } from '@sertifikasi/shared-contracts';
// store.ts imports this module too (its actions call the API). The cycle is safe: neither module
// touches the other's exports while loading, only inside functions called later. It is kept on
// purpose: the client reads the store directly, so no import of the package can get a client that
// is not wired to the one store (a tree-shaken or side-effect-free link could not promise that).
import { authStore, expireSession } from './store';

const LOGIN_PATH = '/api/login';

/**
 * The one API client (SPEC.md section 7): `/api` on the page's origin, JSON, 30 s per call, no
 * retries, the bearer token of the auth store on every call. Paths are written without `/api`:
 * `api.get('user-info')` (a leading slash is fine too: ky's `prefix` joins both the same way).
 */
export const api: KyInstance = ky.create({
  prefix: '/api',
  // The page's origin, spelled out: a browser would resolve '/api' against the page anyway (also for
  // a module served from another origin), but Node's Request (jest-fixed-jsdom) rejects relative URLs.
  baseUrl: globalThis.location?.origin,
  timeout: 30_000,
  retry: 0,
  hooks: {
    beforeRequest: [
      ({ request }) => {
        const { token } = authStore.getState();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
    afterResponse: [
      ({ request, response }) => {
        if (response.status !== 401 || new URL(request.url).pathname === LOGIN_PATH) return;
        const { token } = authStore.getState();
        // Only the session that made the call ends: an answer to a call sent with an older token
        // must not sign out a user who has signed in again meanwhile.
        if (token && request.headers.get('Authorization') === `Bearer ${token}`) expireSession();
      },
    ],
  },
});

let notifier: ((message: string) => void) | null = null;

/** shared-ui registers its toast here; failures reported with notifyApiError show through it. */
export function setApiErrorNotifier(notify: (message: string) => void): void {
  notifier = notify;
}

// Not `instanceof Error`: an AbortError is a DOMException, which may come from another realm.
const isAbort = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';

/**
 * Shows 'Maaf, ada kesalahan pada sistem' for a failed call (SPEC.md section 8), or the
 * 'unavailable' message for a 503. A 401 shows nothing:
 * the session has ended and the guard sends the user to the login page. A call cancelled on
 * purpose (AbortError) shows nothing either.
 */
export function notifyApiError(err: unknown): void {
  if (isHTTPError(err) && err.response.status === 401) return;
  if (isAbort(err)) return;
  // 503: the database is unreachable or the API overloaded; it passes by itself (DECISIONS.md section 13).
  notifier?.(isHTTPError(err) && err.response.status === 503 ? MESSAGES.unavailable : MESSAGES.systemError);
}

/** The HTTP status of a failed call (e.g. 404), or null when it got no answer (network, timeout, abort). */
export function httpStatus(err: unknown): number | null {
  return isHTTPError(err) ? err.response.status : null;
}

function asApiError(data: unknown): ApiError | null {
  if (typeof data !== 'object' || data === null) return null;
  const { code, message, errors } = data as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  const result: ApiError = { code, message };
  if (typeof errors === 'object' && errors !== null && !Array.isArray(errors)) {
    result.errors = Object.fromEntries(
      Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }
  return result;
}

/**
 * The API's error body `{code, message, errors?}` of a failed call, or null when `err` is not an
 * HTTP error or its body is not that shape (network failure, timeout, an HTML error page).
 */
export async function readApiError(err: unknown): Promise<ApiError | null> {
  if (!isHTTPError(err)) return null;
  // ky 2 reads the body into `data` before throwing (the response body is then used up).
  if (err.data !== undefined) return asApiError(err.data);
  if (err.response.bodyUsed) return null;
  try {
    return asApiError(await err.response.clone().json());
  } catch {
    return null;
  }
}
