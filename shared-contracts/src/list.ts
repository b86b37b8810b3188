import * as yup from 'yup';
import { noControlChars, trimString } from './fields';

export const PAGE_SIZES = [20, 50, 100, 200] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 20;
export const PAGINATION_OFFSET = 4;
export const SEARCH_DEBOUNCE_MS = 500;

/** The list answer of every paginated endpoint (docs/rules.md#api-conventions). */
export interface ListResponse<T> {
  total: number;
  per_page: number;
  data: T[];
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
  /**
   * Present (true) when a search matched more than LIST_TOTAL_CAP rows: `total` is then
   * LIST_TOTAL_CAP and `last_page` follows from it (docs/rules.md#large-registers). Absent otherwise.
   */
  total_capped?: true;
}

/** A searched list counts its matches up to this many; beyond, it answers a capped total. */
export const LIST_TOTAL_CAP = 10_000;

/**
 * The query of every paginated list: page, page size and search. Unknown parameters are refused
 * (422), `company_id` included: only the company-owned lists take it (companyListQuerySchema,
 * docs/rules.md#api-conventions); the company, user and role lists refuse it.
 */
export const listQuerySchema = yup
  .object({
    page: yup
      .number()
      .typeError('Halaman harus berupa angka')
      .integer('Halaman harus bilangan bulat')
      .min(1, 'Halaman minimal 1')
      .max(1_000_000, 'Halaman terlalu besar')
      .default(1),
    paginate: yup
      .number()
      .typeError('Jumlah per halaman harus berupa angka')
      .oneOf([...PAGE_SIZES], 'Jumlah per halaman harus 20, 50, 100 atau 200')
      .default(DEFAULT_PAGE_SIZE),
    search: yup
      .string()
      .typeError('Pencarian harus berupa teks')
      .transform(trimString)
      .max(200, 'Pencarian maksimal 200 karakter')
      .test(noControlChars('Pencarian'))
      .default(''),
  })
  .noUnknown('Parameter tidak dikenal: ${unknown}');
export type ListQuery = yup.InferType<typeof listQuerySchema>;

/** The query of a company-owned list: the list query and `company_id` (one company, or ALL). */
export const companyListQuerySchema = listQuerySchema.shape({
  company_id: yup
    .string()
    .typeError('Perusahaan tidak valid')
    .transform(trimString)
    .max(64, 'Perusahaan tidak valid')
    .test(noControlChars('Perusahaan'))
    .optional(),
});
export type CompanyListQuery = yup.InferType<typeof companyListQuerySchema>;

/**
 * Builds the list answer from a page of rows and the total count. `capped`: the count stopped
 * above LIST_TOTAL_CAP (a search counted with a limit), so the total is LIST_TOTAL_CAP, marked.
 */
export function toListResponse<T>(
  data: T[],
  total: number,
  page: number,
  perPage: number,
  capped = false,
): ListResponse<T> {
  const shown = capped ? LIST_TOTAL_CAP : total;
  const lastPage = Math.max(1, Math.ceil(shown / perPage));
  const from = data.length ? (page - 1) * perPage + 1 : null;
  const to = data.length ? (page - 1) * perPage + data.length : null;
  const answer: ListResponse<T> = {
    total: shown,
    per_page: perPage,
    data,
    current_page: page,
    last_page: lastPage,
    from,
    to,
  };
  if (capped) answer.total_capped = true;
  return answer;
}

/** The delete answer (docs/rules.md#api-conventions). */
export interface DeleteResponse {
  success: boolean;
  message: string;
}
