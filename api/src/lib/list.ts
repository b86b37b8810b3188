import { inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  ALL,
  type CompanyScope,
  LIST_TOTAL_CAP,
  type ListQuery,
  type ListResponse,
  toListResponse,
} from '@sertifikasi/shared-contracts';

/** `%text%` for ILIKE, with the user's %, _ and \ taken literally. */
export const likePattern = (search: string): string => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Case-insensitive "contains" over a search document (db/search.ts), which a trigram index serves;
 * undefined when there is no search text.
 */
export function matchesSearch(document: SQL, search: string): SQL | undefined {
  if (!search) return undefined;
  return matchesPattern(document, likePattern(search));
}

/** matchesSearch with the pattern (likePattern of the text) as a value or a prepared placeholder. */
export function matchesPattern(document: SQL, pattern: string | Placeholder): SQL {
  return sql`${document} like lower(${pattern})`;
}

/**
 * `column = any(ids)`: with an array placeholder one prepared statement serves any number of ids
 * (an empty array matches nothing).
 */
export function isAnyOf(column: AnyPgColumn | SQL, ids: Placeholder): SQL {
  return sql`${column} = any(${ids})`;
}

/**
 * A company scope as a prepared statement's `scope` parameter: the ids (its `{scoped}` shape says
 * whether the statement filters by them); ALL as no ids.
 */
export const scopeIds = (scope: CompanyScope): string[] => (scope === ALL ? [] : scope);

/** A company scope as a condition on a company_id column: none for ALL; an empty scope matches nothing. */
export function inCompanies(column: AnyPgColumn, scope: CompanyScope): SQL | undefined {
  if (scope === ALL) return undefined;
  return scope.length ? inArray(column, scope) : sql`false`;
}

/** Case-insensitive "contains" over a few columns (small tables); undefined when there is no search text. */
export function searchAny(search: string, columns: (AnyPgColumn | SQL)[]): SQL | undefined {
  if (!search) return undefined;
  const pattern = likePattern(search);
  return sql`(${sql.join(
    columns.map((c) => sql`${c} ilike ${pattern}`),
    sql` or `,
  )})`;
}

/**
 * Runs the count and page queries of a list and shapes the spec's list answer. `capped`: the count
 * of a search stops at LIST_TOTAL_CAP + 1 rows (countAtMost); a count above the cap answers the
 * capped total (docs/rules.md#large-registers).
 */
export async function listPage<T>(
  query: Pick<ListQuery, 'page' | 'paginate'>,
  countRows: () => Promise<number>,
  pageRows: (limit: number, offset: number) => Promise<T[]>,
  options: { capped?: boolean } = {},
): Promise<ListResponse<T>> {
  return listAnswer(
    query,
    async (limit, offset) => {
      const [total, rows] = await Promise.all([countRows(), pageRows(limit, offset)]);
      return { total, rows };
    },
    options,
  );
}

/** listPage with the total and the rows read together (services/list-versions.ts keeps both). */
export async function listAnswer<T>(
  query: Pick<ListQuery, 'page' | 'paginate'>,
  read: (limit: number, offset: number) => Promise<{ total: number; rows: T[] }>,
  options: { capped?: boolean } = {},
): Promise<ListResponse<T>> {
  const perPage = query.paginate;
  const page = query.page;
  const { total, rows } = await read(perPage, (page - 1) * perPage);
  return toListResponse(rows, total, page, perPage, !!options.capped && total > LIST_TOTAL_CAP);
}

/** How many rows a capped count reads at most: one past the cap tells "more than" from "exactly". */
export const COUNT_LIMIT = LIST_TOTAL_CAP + 1;

/** JSON Schema of a list answer around an item schema. */
export function listJsonSchema(item: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      total: { type: 'integer' },
      per_page: { type: 'integer' },
      current_page: { type: 'integer' },
      last_page: { type: 'integer' },
      from: { type: ['integer', 'null'] },
      to: { type: ['integer', 'null'] },
      total_capped: { type: 'boolean', enum: [true] },
      data: { type: 'array', items: item },
    },
    required: ['total', 'per_page', 'current_page', 'last_page', 'from', 'to', 'data'],
  };
}
