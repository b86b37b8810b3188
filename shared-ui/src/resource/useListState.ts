import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SEARCH_DEBOUNCE_MS,
  type PageSize,
} from '@sertifikasi/shared-contracts';

export type SortOrder = 'asc' | 'desc';

/** A list's order: the API's `sort=<key>&order=asc|desc`. */
export interface SortState {
  key: string;
  order: SortOrder;
}

/** The question a list asks: page, page size, search and order. */
export interface ListParams {
  page: number;
  pageSize: PageSize;
  /** The trimmed search text the list asks for (500 ms after the last key). */
  search: string;
  /** The chosen order, or null for the API's own. */
  sort: SortState | null;
}

export interface ListState extends ListParams {
  /** What the search box shows (the list follows it 500 ms later, from page 1). */
  searchText: string;
  setSearchText: (text: string) => void;
  setPage: (page: number) => void;
  /** A new page size starts again from page 1. */
  setPageSize: (size: PageSize) => void;
  /** Orders by a column: a new key ascending, the same key again flips the order; page 1. */
  toggleSort: (key: string) => void;
  setSort: (sort: SortState | null) => void;
}

export interface ListStateOptions {
  /**
   * The header's company (or anything else) whose change sends the list back to page 1. The first
   * value is not a change: a list opened at ?page=3 stays on page 3.
   */
  resetKey?: unknown;
  /** The order when the address names none. */
  defaultSort?: SortState | null;
}

/** The address's query keys, also what the API is asked with. */
export const LIST_URL_KEYS = {
  page: 'page',
  pageSize: 'paginate',
  search: 'search',
  sort: 'sort',
  order: 'order',
} as const;

type Patch = Partial<{ page: number; pageSize: PageSize; search: string; sort: SortState | null }>;

function readParams(params: URLSearchParams, defaultSort: SortState | null): ListParams {
  const page = Number(params.get(LIST_URL_KEYS.page));
  const size = Number(params.get(LIST_URL_KEYS.pageSize));
  const sortKey = params.get(LIST_URL_KEYS.sort);
  const order = params.get(LIST_URL_KEYS.order);
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? (size as PageSize) : DEFAULT_PAGE_SIZE,
    search: (params.get(LIST_URL_KEYS.search) ?? '').trim(),
    sort: sortKey ? { key: sortKey, order: order === 'desc' ? 'desc' : 'asc' } : defaultSort,
  };
}

/** Writes a patch into the query, leaving defaults out so that a plain list has a plain address. */
function writeParams(params: URLSearchParams, patch: Patch): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | null) =>
    value === null ? next.delete(key) : next.set(key, value);
  if (patch.page !== undefined) put(LIST_URL_KEYS.page, patch.page > 1 ? String(patch.page) : null);
  if (patch.pageSize !== undefined)
    put(LIST_URL_KEYS.pageSize, patch.pageSize !== DEFAULT_PAGE_SIZE ? String(patch.pageSize) : null);
  if (patch.search !== undefined) put(LIST_URL_KEYS.search, patch.search || null);
  if (patch.sort !== undefined) {
    put(LIST_URL_KEYS.sort, patch.sort?.key ?? null);
    put(LIST_URL_KEYS.order, patch.sort?.order ?? null);
  }
  return next;
}

/**
 * The query in the address. Every screen is inside the shell's router (a test gives it a
 * MemoryRouter). Replace, not push: Back leaves the list (to where the user came from), and Back
 * from a Detail page returns to this address, so to the same page, search and order.
 */
function useQueryStore(): [URLSearchParams, (update: (p: URLSearchParams) => URLSearchParams) => void] {
  const [params, setParams] = useSearchParams();
  const latest = useRef(setParams);
  useEffect(() => {
    latest.current = setParams;
  });
  const update = useCallback(
    (fn: (p: URLSearchParams) => URLSearchParams) => latest.current((p) => fn(p), { replace: true }),
    [],
  );
  return [params, update];
}

/**
 * Page, page size, search and order of a list, kept in the address (`?page=2&paginate=50&search=
 * pt&sort=name&order=desc`), so that Back from a Detail page, a reload or a shared link shows the
 * same list. The search follows the box 500 ms after the last key and starts again from page 1; a
 * change of `resetKey` (the header's company) goes back to page 1.
 */
export function useListState(options: ListStateOptions = {}): ListState {
  const { resetKey, defaultSort = null } = options;
  const [params, update] = useQueryStore();
  const current = useMemo(() => readParams(params, defaultSort), [params, defaultSort]);
  const patch = useCallback((p: Patch) => update((prev) => writeParams(prev, p)), [update]);

  const [searchText, setSearchText] = useState(current.search);
  // The address changed under the box (a menu link to the bare list, Back): show what it says.
  const shownSearch = useRef(current.search);
  if (shownSearch.current !== current.search) {
    shownSearch.current = current.search;
    if (searchText.trim() !== current.search) setSearchText(current.search);
  }

  useEffect(() => {
    const search = searchText.trim();
    if (search === current.search) return;
    const timer = setTimeout(() => patch({ search, page: 1 }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // An address change that the box already shows finds nothing to send.
  }, [searchText, current.search, patch]);

  // A new resetKey (the header's company): page 1 at once (so the list is asked for once), and in
  // the address right after.
  const [seenKey, setSeenKey] = useState(resetKey);
  const [toFirstPage, setToFirstPage] = useState(false);
  if (!Object.is(seenKey, resetKey)) {
    setSeenKey(resetKey);
    setToFirstPage(true);
  }
  useEffect(() => {
    if (!toFirstPage) return;
    if (current.page !== 1) patch({ page: 1 });
    else setToFirstPage(false);
  }, [toFirstPage, current.page, patch]);

  const setPage = useCallback((page: number) => patch({ page }), [patch]);
  const setPageSize = useCallback((pageSize: PageSize) => patch({ pageSize, page: 1 }), [patch]);
  const setSort = useCallback((sort: SortState | null) => patch({ sort, page: 1 }), [patch]);
  const toggleSort = useCallback(
    (key: string) =>
      setSort({
        key,
        order: current.sort?.key === key && current.sort.order === 'asc' ? 'desc' : 'asc',
      }),
    [current.sort, setSort],
  );

  return {
    ...current,
    page: toFirstPage ? 1 : current.page,
    searchText,
    setSearchText,
    setPage,
    setPageSize,
    toggleSort,
    setSort,
  };
}
