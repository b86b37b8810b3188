import { useCallback, useEffect, useState } from 'react';
import {
  DEFAULT_PAGE_SIZE,
  SEARCH_DEBOUNCE_MS,
  type ListResponse,
  type PageSize,
} from '@sertifikasi/shared-contracts';
import { api, notifyApiError } from '@sertifikasi/shared-auth';

interface ListQuery {
  page: number;
  pageSize: PageSize;
  /** The trimmed search text the list was asked for (after the debounce). */
  search: string;
  /** The header's selection the list was asked for. */
  companyId: string | null;
}

export interface ResourceList<T> {
  /** The last answer, kept while the next page loads. */
  data: ListResponse<T> | null;
  loading: boolean;
  page: number;
  pageSize: PageSize;
  /** What the search box shows (the list follows it 500 ms later). */
  searchText: string;
  setSearchText: (text: string) => void;
  setPage: (page: number) => void;
  setPageSize: (size: PageSize) => void;
  /** Asks for the current page again. */
  reload: () => void;
}

/**
 * The list state of a management screen: GET `<endpoint>?page&paginate&search[&company_id]`, the
 * search debounced 500 ms and resetting to page 1, a new page size resetting to page 1, and a
 * reload (from page 1) when the header's company changes. An answer to an older question is
 * dropped; a failure toasts 'Maaf, ada kesalahan pada sistem' and stops the loading state.
 */
export function useResourceList<T>(
  endpoint: string,
  companyId: string | null,
  sendCompany: boolean,
): ResourceList<T> {
  const [query, setQuery] = useState<ListQuery>({
    page: 1,
    pageSize: DEFAULT_PAGE_SIZE,
    search: '',
    companyId,
  });
  const [searchText, setSearchText] = useState('');
  const [reloads, setReloads] = useState(0);
  const [data, setData] = useState<ListResponse<T> | null>(null);
  const [loading, setLoading] = useState(true);

  // The header's company changed: back to page 1 of that company's list (adjusting state while
  // rendering, so that the list is asked for once).
  if (query.companyId !== companyId) setQuery({ ...query, companyId, page: 1 });

  useEffect(() => {
    const search = searchText.trim();
    const timer = setTimeout(
      () => setQuery((q) => (q.search === search ? q : { ...q, search, page: 1 })),
      SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [searchText]);

  useEffect(() => {
    const controller = new AbortController();
    const searchParams: Record<string, string | number> = {
      page: query.page,
      paginate: query.pageSize,
      search: query.search,
    };
    if (sendCompany && query.companyId) searchParams.company_id = query.companyId;
    setLoading(true);
    api
      .get(endpoint, { searchParams, signal: controller.signal })
      .json<ListResponse<T>>()
      .then(
        (answer) => {
          if (controller.signal.aborted) return;
          setData(answer);
          setLoading(false);
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          notifyApiError(err);
          setLoading(false);
        },
      );
    return () => controller.abort();
  }, [endpoint, sendCompany, query, reloads]);

  const setPage = useCallback((page: number) => setQuery((q) => ({ ...q, page })), []);
  const setPageSize = useCallback((pageSize: PageSize) => setQuery((q) => ({ ...q, pageSize, page: 1 })), []);
  const reload = useCallback(() => setReloads((n) => n + 1), []);

  return {
    data,
    loading,
    page: query.page,
    pageSize: query.pageSize,
    searchText,
    setSearchText,
    setPage,
    setPageSize,
    reload,
  };
}
