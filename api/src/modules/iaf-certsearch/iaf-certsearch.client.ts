/**
 * The HTTP client of IAF CertSearch's bulk upload (docs/rules.md#iaf-certsearch): one call of at
 * most 100 records to `<IAF_CERTSEARCH_URL>/api/client/v1/cb/bulk-upload-cert`, the key as it is in
 * `x-http-authorization`, the body `{certifications: [...]}`, with Node's fetch; and how its answer
 * reads: accepted (with the records it refused, each with its reason), the whole call refused (a
 * 4xx: every record of it), the key refused (401, 403), or worth another try (a network error, a
 * timeout, 408, 429, 5xx).
 */
import type { IafRefusal } from '@sertifikasi/shared-contracts';
import type { IafRecord } from './iaf-certsearch.mapping';

export const IAF_UPLOAD_PATH = '/api/client/v1/cb/bulk-upload-cert';

/** How long one call may take. */
const CALL_TIMEOUT_MS = 60_000;

export type CallOutcome =
  | { kind: 'accepted'; refused: IafRefusal[] }
  | { kind: 'refused'; refused: IafRefusal[] }
  | { kind: 'key-refused'; status: number }
  | { kind: 'retry'; reason: string };

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : null;

/** The reason an answer or one of its items gives, in its own words. */
function reasonOf(item: unknown): string {
  if (typeof item === 'string') return item;
  if (!item || typeof item !== 'object') return 'Ditolak oleh IAF CertSearch';
  const o = item as Record<string, unknown>;
  const own = text(o.message) ?? text(o.reason) ?? text(o.error) ?? text(o.detail);
  if (own) return own;
  if (o.errors !== undefined) return typeof o.errors === 'string' ? o.errors : JSON.stringify(o.errors);
  return JSON.stringify(item);
}

/**
 * The records an accepting answer refuses: items of `errors`, `failed` or `failures` (at the top
 * or under `data`), each naming its record by certificate number or by its place in the call.
 */
function refusalsOf(body: unknown, sent: readonly IafRecord[]): IafRefusal[] {
  if (!body || typeof body !== 'object') return [];
  const o = body as Record<string, unknown>;
  const data = (o.data && typeof o.data === 'object' ? o.data : {}) as Record<string, unknown>;
  const list = [o.errors, o.failed, o.failures, data.errors, data.failed, data.failures].find(
    Array.isArray,
  ) as unknown[] | undefined;
  return (list ?? []).map((item) => {
    const it = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const index = typeof it.index === 'number' ? it.index : null;
    const number =
      text(it.certificate_number) ??
      text(it.certification_number) ??
      (index !== null ? text(sent[index]?.certificate_number) : null) ??
      '';
    return { cert_number: number, reason: reasonOf(item) };
  });
}

/** One call with `records`; never throws (a network error is worth another try). */
export async function sendRecords(
  baseUrl: string,
  key: string,
  records: readonly IafRecord[],
): Promise<CallOutcome> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${IAF_UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-http-authorization': key,
      },
      body: JSON.stringify({ certifications: records }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (err) {
    return { kind: 'retry', reason: (err as Error).message };
  }
  const raw = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = raw ? JSON.parse(raw) : null;
  } catch {
    body = raw.slice(0, 500);
  }
  if (res.ok) return { kind: 'accepted', refused: refusalsOf(body, records) };
  if (res.status === 401 || res.status === 403) return { kind: 'key-refused', status: res.status };
  if (res.status === 408 || res.status === 429 || res.status >= 500)
    return { kind: 'retry', reason: `HTTP ${res.status}` };
  // The whole call refused: every record of it, each with its own reason when the answer names it.
  const named = refusalsOf(body, records);
  const general = body === null ? `HTTP ${res.status}` : reasonOf(body);
  return {
    kind: 'refused',
    refused: records.map((r) => ({
      cert_number: r.certificate_number,
      reason: named.find((n) => n.cert_number === r.certificate_number)?.reason ?? general,
    })),
  };
}
