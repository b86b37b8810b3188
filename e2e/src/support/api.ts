/**
 * Calls to the API of the system under test, for scenarios that set up their records through it
 * before driving the browser.
 */
import { systemUnderTest } from './browser';

/** A JSON or multipart call as the signed-in user of `token()` (none before sign-in); throws on non-2xx. */
export function apiCaller(token: () => string | undefined) {
  return async function api(
    method: string,
    url: string,
    body?: FormData | object,
  ): Promise<Record<string, unknown>> {
    const { baseUrl } = systemUnderTest();
    const bearer = token();
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
}

/** A multipart form of text fields and PNG files. */
export function form(fields: Record<string, string | Buffer>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(key, value);
    else data.append(key, new Blob([new Uint8Array(value)], { type: 'image/png' }), `${key}.png`);
  }
  return data;
}

/** YYYY-MM-DD of a day `offset` days from today (UTC is close enough for an issue date). */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
