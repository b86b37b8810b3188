/** Where the session survives a reload (docs/rules.md#entities: token and company_id in local storage). */
export const STORAGE_KEYS = {
  token: 'sertifikasi.token',
  companyId: 'sertifikasi.company_id',
} as const;

type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

// Storage can be missing (no window) or throw (blocked cookies, private mode): the session then
// simply lasts as long as the page.
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function readStored(key: StorageKey): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, value);
  } catch {
    // Quota or privacy settings: keep going with the in-memory state.
  }
}
