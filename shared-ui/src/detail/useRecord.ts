import { useCallback, useEffect, useState } from 'react';
import { api, httpStatus } from '@sertifikasi/shared-auth';

export interface RecordState<T> {
  /** The record once loaded (kept while it reloads). */
  record: T | null;
  /** The first load (or a load after a new path) is running. */
  loading: boolean;
  /** The API answered 404: unknown, or outside the user's scope. */
  notFound: boolean;
  /** The load failed otherwise (network, 5xx); `reload` tries again. */
  failed: boolean;
  /** Loads the record again (after a change), keeping the current one on screen meanwhile. */
  reload: () => void;
  /** Replaces the record on screen (e.g. with the answer of a save), without a call. */
  setRecord: (record: T) => void;
}

/**
 * Loads one record for a detail page: GET `<path>` (without '/api', e.g.
 * `company-certificate/${companyId}/${id}`); null waits (nothing to load yet). A 404 is `notFound`
 * (the page shows 'Opps, Data Tidak Ditemukan'); other failures are `failed`. An answer for an older
 * path is dropped.
 */
export function useRecord<T>(path: string | null): RecordState<T> {
  const [record, setRecordState] = useState<T | null>(null);
  const [status, setStatus] = useState<{
    path: string | null;
    loading: boolean;
    notFound: boolean;
    failed: boolean;
  }>({ path, loading: path !== null, notFound: false, failed: false });
  const [reloads, setReloads] = useState(0);

  // A new path: forget the old record at once (adjusting state while rendering).
  if (status.path !== path) {
    setStatus({ path, loading: path !== null, notFound: false, failed: false });
    setRecordState(null);
  }

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    api
      .get(path, { signal: controller.signal })
      .json<T>()
      .then(
        (answer) => {
          if (controller.signal.aborted) return;
          setRecordState(answer);
          setStatus({ path, loading: false, notFound: false, failed: false });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          const notFound = httpStatus(err) === 404;
          // Detail load failures are not toasted (SPEC.md section 8): the page says it in place.
          if (!notFound) console.error(err);
          setStatus({ path, loading: false, notFound, failed: !notFound });
        },
      );
    return () => controller.abort();
  }, [path, reloads]);

  const reload = useCallback(() => {
    setStatus((s) => ({ ...s, loading: true, notFound: false, failed: false }));
    setReloads((n) => n + 1);
  }, []);
  const setRecord = useCallback((next: T) => setRecordState(next), []);
  return {
    record,
    loading: status.loading && record === null,
    notFound: status.notFound,
    failed: status.failed,
    reload,
    setRecord,
  };
}
