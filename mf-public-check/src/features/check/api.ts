import { checkPathNumber, type CompanyCheck, type TrainingCheck } from '@sertifikasi/shared-contracts/public';

/** What a check came to: the answer, no such certificate, or a failure the reader can retry. */
export type CheckOutcome<T> =
  { kind: 'found'; data: T } | { kind: 'not-found' } | { kind: 'error'; tooMany: boolean };

/** The API's root: the page is served by the same origin as the API (docs/rules.md#running-system). */
const API = '/api';

async function check<T>(path: string): Promise<CheckOutcome<T>> {
  try {
    const res = await fetch(`${API}/${path}`, { headers: { accept: 'application/json' } });
    if (res.ok) return { kind: 'found', data: (await res.json()) as T };
    // 404 NOT FOUND; 422 for a number the API cannot take (an empty one: sent as typed).
    if (res.status === 404 || res.status === 422) return { kind: 'not-found' };
    return { kind: 'error', tooMany: res.status === 429 };
  } catch {
    return { kind: 'error', tooMany: false };
  }
}

/** `GET check-certificate-company/{number}` (each `/` written `+`), optionally `?on=YYYY-MM-DD`. */
export const checkCompany = (number: string, on?: string) =>
  check<CompanyCheck>(
    `check-certificate-company/${checkPathNumber(number)}${on ? `?on=${encodeURIComponent(on)}` : ''}`,
  );

/** `GET check-certificate-training/{number}` (each `/` written `+`). */
export const checkTraining = (number: string) =>
  check<TrainingCheck>(`check-certificate-training/${checkPathNumber(number)}`);

/** The certificate PDF of a scheme the public may download. */
export const downloadUrl = (schemeId: string) =>
  `${API}/download-certificate/${encodeURIComponent(schemeId)}`;
