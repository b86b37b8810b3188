import ky, { isHTTPError, type KyInstance } from 'ky';
import { MESSAGES, type ApiError } from '@sertifikasi/shared-contracts/portal';

const LOGIN_PATH = '/api/login';

/**
 * What the API client needs of the session: the token to send, and a way to end the session when
 * the API refuses that token. store.ts makes the one client over the one store (this file imports
 * nothing of the store, so it reads before it).
 */
export interface ApiSession {
  token: () => string | null;
  expire: () => void;
}

/**
 * An API client (docs/rules.md#calls): `/api` on the page's origin, JSON, 30 s per call, no retries,
 * the session's bearer token on every call. Paths are written without `/api`:
 * `api.get('user-info')` (a leading slash is fine too: ky's `prefix` joins both the same way).
 * The package exports only the one client store.ts makes with it.
 */
export function createApiClient(session: ApiSession): KyInstance {
  return ky.create({
    prefix: '/api',
    // The page's origin, spelled out: a browser would resolve '/api' against the page anyway (also
    // for a module served from another origin), but Node's Request (jest-fixed-jsdom) rejects
    // relative URLs.
    baseUrl: globalThis.location?.origin,
    timeout: 30_000,
    retry: 0,
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const token = session.token();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        ({ request, response }) => {
          if (response.status !== 401 || new URL(request.url).pathname === LOGIN_PATH) return;
          const token = session.token();
          // Only the session that made the call ends: an answer to a call sent with an older token
          // must not sign out a user who has signed in again meanwhile.
          if (token && request.headers.get('Authorization') === `Bearer ${token}`) session.expire();
        },
      ],
    },
  });
}

let notifier: ((message: string) => void) | null = null;

/** shared-ui registers its toast here; failures reported with notifyApiError show through it. */
export function setApiErrorNotifier(notify: (message: string) => void): void {
  notifier = notify;
}

// Not `instanceof Error`: an AbortError is a DOMException, which may come from another realm.
const isAbort = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';

/**
 * Shows 'Maaf, ada kesalahan pada sistem' for a failed call (docs/rules.md#messages), or the
 * 'unavailable' message for a 503. A 401 shows nothing:
 * the session has ended and the guard sends the user to the login page. A call cancelled on
 * purpose (AbortError) shows nothing either.
 */
export function notifyApiError(err: unknown): void {
  if (isHTTPError(err) && err.response.status === 401) return;
  if (isAbort(err)) return;
  // 503: the database is unreachable or the API overloaded; it passes by itself (docs/rules.md#faults-and-overload).
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
