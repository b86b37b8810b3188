import { useFetch } from '../fetch/useFetch';

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

// Detail load failures are not toasted (docs/rules.md#messages): the page says it in place.
const logUnlessNotFound = (err: unknown) => {
  if ((err as { response?: { status?: number } } | null)?.response?.status !== 404) console.error(err);
};

/**
 * Loads one record for a detail page ({@link useFetch}): GET `<path>` (without '/api', e.g.
 * `company-certificate/${companyId}/${id}`); null waits (nothing to load yet). A 404 is `notFound`
 * (the page shows 'Opps, Data Tidak Ditemukan'); other failures are `failed`. An answer for an older
 * path is dropped.
 */
export function useRecord<T>(path: string | null): RecordState<T> {
  const { data, loading, failure, reload, setData } = useFetch<T>(path, { onError: logUnlessNotFound });
  const notFound = failure?.status === 404;
  return {
    record: data,
    loading: loading && data === null,
    notFound,
    failed: failure !== null && !notFound,
    reload,
    setRecord: setData,
  };
}
