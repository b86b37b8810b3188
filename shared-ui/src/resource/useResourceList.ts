import type { ListResponse, PageSize } from '@sertifikasi/shared-contracts';
import { notifyApiError } from '@sertifikasi/shared-auth';
import { type FetchParams, useFetch } from '../fetch/useFetch';
import { type ListParams, type ListState, type SortState, useListState } from './useListState';

/** Extra query parameters of a list call (filters); empty strings and undefined are left out. */
export type ListFilters = Record<string, string | number | undefined>;

export interface ListData<T> {
  /** The last answer, kept while the next page loads. */
  data: ListResponse<T> | null;
  loading: boolean;
  /** Asks for the same page again. */
  reload: () => void;
}

export interface ListDataOptions {
  /** Sent as `company_id` (company-owned lists); the list is asked for again when it changes. */
  companyId?: string | null;
  /** Extra query parameters (filters). */
  filters?: ListFilters;
  /** Something whose change asks for the list again without being sent (the header's company on a list that is not company-owned). */
  reloadKey?: string | null;
}

/**
 * Loads one page of a list ({@link useFetch}): GET
 * `<endpoint>?page&paginate&search[&sort&order][&company_id][&filters]`. The last rows stay on
 * screen while the next page loads; an answer to an older question is dropped; a failure toasts
 * 'Maaf, ada kesalahan pada sistem' and stops the loading state (the last rows stay).
 */
export function useListData<T>(
  endpoint: string,
  params: ListParams,
  options: ListDataOptions = {},
): ListData<T> {
  const { page, pageSize, search, sort } = params;
  const searchParams: FetchParams = { page, paginate: pageSize, search };
  if (sort) Object.assign(searchParams, { sort: sort.key, order: sort.order });
  if (options.companyId) searchParams.company_id = options.companyId;
  for (const [key, value] of Object.entries(options.filters ?? {})) {
    if (value !== undefined && value !== '') searchParams[key] = value;
  }
  const { data, loading, reload } = useFetch<ListResponse<T>>(endpoint, {
    searchParams,
    keepData: true,
    onError: notifyApiError,
    askAgainOn: options.reloadKey ?? null,
  });
  return { data, loading, reload };
}

/** A list's state (in the address) and its data together: what ResourceScreen uses. */
export interface ResourceList<T> extends ListData<T>, Omit<ListState, 'setPageSize'> {
  setPageSize: (size: PageSize) => void;
}

export interface ResourceListOptions {
  /** Extra query parameters (filters). */
  filters?: ListFilters;
  /** The order when the address names none. */
  defaultSort?: SortState | null;
}

/**
 * The list of a management screen: {@link useListState} (page, page size, search debounced 500 ms,
 * order, all in the address) over {@link useListData}. A change of the header's company goes back
 * to page 1 and asks again; `company_id` is sent only when `sendCompany`.
 */
export function useResourceList<T>(
  endpoint: string,
  companyId: string | null,
  sendCompany: boolean,
  options: ResourceListOptions = {},
): ResourceList<T> {
  const state = useListState({ resetKey: companyId, defaultSort: options.defaultSort ?? null });
  const data = useListData<T>(endpoint, state, {
    companyId: sendCompany ? companyId : null,
    reloadKey: companyId,
    ...(options.filters ? { filters: options.filters } : {}),
  });
  return { ...state, ...data };
}
