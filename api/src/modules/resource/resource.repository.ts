/**
 * The reads of a company-owned record (certification types, accreditation bodies, client and
 * training certificates) from its description: one record, its stored row and the list, each a
 * prepared statement per filter shape (db/prepared.ts). The writes over them are in
 * resource.service.ts, the routes in resource.routes.ts (docs/architecture.md#the-api-apisrc).
 *
 * The rules of a list (docs/rules.md#api-conventions and #large-registers): company scope (ALL = the
 * caller's scope); search over one search document (db/search.ts); a sort allow-list
 * (`sort=<key>&order=asc|desc`); pages counted with count(*) under the same filter, a search's up to
 * COUNT_LIMIT rows; a total counted, and a page's ids read, again only when a write of the record in
 * a company of the scope happened since (services/list-cache.ts, the app's `listCache`).
 */
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import * as yup from 'yup';
import {
  ALL,
  type CompanyListQuery,
  companyListQuerySchema,
  type CompanyScope,
  type ListResponse,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { companies } from '../../db/schema';
import { type Placeholders, preparedShapes } from '../../db/prepared';
import { searchDocument } from '../../db/search';
import type { ListCache } from '../../services/list-cache';
import type { ListedEntity } from '../../services/list-versions';
import {
  COUNT_LIMIT,
  isAnyOf,
  likePattern,
  listAnswer,
  listPage,
  matchesPattern,
  scopeIds,
} from '../../lib/list';

/** A table of company-owned rows: a UUID `id`, the owning `company_id` and the timestamps. */
export type CompanyOwnedTable = PgTable & {
  id: AnyPgColumn;
  company_id: AnyPgColumn;
  created_at: AnyPgColumn;
  updated_at: AnyPgColumn;
};

/** A stored row, as far as the reads and writes look into it. */
export type Row<T extends CompanyOwnedTable> = T['$inferSelect'] & { id: string; company_id: string };

/** What the answer mapper is handed: the row, its company and the derived columns. */
export interface Joined<T extends CompanyOwnedTable, X extends string> {
  row: Row<T>;
  company: { id: string; name: string };
  extra: Record<X, number>;
}

/** A list's query: page, paginate, search, company_id and, with sorts, sort and order. */
export type ResourceListQuery = CompanyListQuery & { sort?: string; order?: 'asc' | 'desc' };

/** What the reads need of a record's description (resource.service.ts's `ResourceServiceDef`). */
export interface ResourceReadsDef<T extends CompanyOwnedTable, A, X extends string> {
  /**
   * The permission module key: the audit entity, the path of the list without `/api/` and the
   * prefix of the prepared statements' names (`<entity>.by-id`...).
   */
  entity: string;
  /** The record's name for the after-write steps and its list versions (LISTED_ENTITIES). */
  entityName: ListedEntity;
  table: T;
  toAnswer(joined: Joined<T, X>): A;
  /** Derived numbers (counts), selected with every record. */
  extras?: Record<X, SQL<number>>;
  /**
   * Columns of the search document; a trigram index over searchDocument(search) serves it. Like
   * the orders below, the record's own columns only: the list versions (services/list-versions.ts)
   * keep a list's total and page ids while no write of the record changed them.
   */
  search: AnyPgColumn[];
  /** Order of a list without `sort` (the record's own columns). */
  defaultOrder: SQL[];
  /** Sort allow-list: `sort=<key>` orders by the expression (`order=asc|desc`, asc by default; own columns). */
  sorts?: Record<string, AnyPgColumn | SQL>;
}

/** The reads of a record, with the caller's company scope. */
export interface Resource<T extends CompanyOwnedTable, A> {
  /** The record as the API answers it, or null when absent or outside the scope. */
  find: (db: Executor, id: string, scope: CompanyScope) => Promise<A | null>;
  /** The stored row, or undefined when absent or outside the scope. */
  findRow: (db: Executor, id: string, scope: CompanyScope) => Promise<Row<T> | undefined>;
  /**
   * A page of the list and its total; with `cache` (the app's) the total is counted, and the page's
   * ids read, again only when a write of the record changed a company of the scope since.
   */
  list: (
    db: Executor,
    query: ResourceListQuery,
    scope: CompanyScope,
    cache?: ListCache,
  ) => Promise<ListResponse<A>>;
}

/** The reads of a record and what its writes read: rows and answers of many ids at once. */
export interface ResourceReads<T extends CompanyOwnedTable, A> extends Resource<T, A> {
  /** The stored rows of `ids` (no scope: the write checked it), by id. */
  rowsOf: (db: Executor, ids: string[]) => Promise<Map<string, Row<T>>>;
  /** The records of `ids` as the API answers them (within `scope`, ALL by default), by id. */
  answersOf: (db: Executor, ids: string[], scope?: CompanyScope) => Promise<Map<string, A>>;
}

const SORT_ORDERS = ['asc', 'desc'] as const;

/**
 * The company filter's shape: none (ALL), one company (`company_id = $1`, which an index on
 * (company_id, <order>) serves in order) or several (`= any($1)`).
 */
const shapeOf = (scope: CompanyScope) => ({
  scoped: scope !== ALL && scope.length !== 1,
  one: scope !== ALL && scope.length === 1,
});
const scopeValues = (scope: CompanyScope) => ({
  scope: scopeIds(scope),
  company: scope === ALL ? null : (scope[0] ?? null),
});

/** The list query of a resource: page, paginate, search, company_id and, with sorts, sort and order. */
export function resourceListQuery(sorts: readonly string[]) {
  if (!sorts.length) return companyListQuerySchema;
  return companyListQuerySchema.shape({
    sort: yup
      .string()
      .oneOf([...sorts], 'Urutan tidak dikenal')
      .optional()
      .meta({ description: `Sort by ${sorts.join(', ')} (with order); without it the list's default order` }),
    order: yup
      .string()
      .oneOf([...SORT_ORDERS], 'Arah urutan harus asc atau desc')
      .optional()
      .meta({ description: 'asc (default) or desc, with sort' }),
  });
}

/** `exists (select 1 from <table> where <column> = id)`, for in-use checks. */
export async function referenced(
  db: Executor,
  table: PgTable,
  column: AnyPgColumn,
  id: string,
): Promise<boolean> {
  const rows = await db
    .select({ x: sql`1` })
    .from(table)
    .where(eq(column, id))
    .limit(1);
  return rows.length > 0;
}

/** The reads of a company-owned record from its description. */
export function defineResourceReads<T extends CompanyOwnedTable, A extends { id: string }, X extends string>(
  def: ResourceReadsDef<T, A, X>,
): ResourceReads<T, A> {
  const { table, entity: key } = def;
  const document = searchDocument(def.search);
  const extras = (def.extras ?? {}) as Record<X, SQL<number>>;
  const fields = { row: table, company: { id: companies.id, name: companies.name }, ...extras };

  const toJoined = (r: Record<string, unknown>): Joined<T, X> => {
    const { row, company, ...extra } = r;
    return {
      row: row as Row<T>,
      company: company as Joined<T, X>['company'],
      extra: extra as Record<X, number>,
    };
  };
  const answers = (rows: unknown[]) => rows.map((r) => def.toAnswer(toJoined(r as Record<string, unknown>)));

  const inScope = (p: Placeholders<'scope' | 'company'>, on: { scoped: boolean; one: boolean }) =>
    on.one ? eq(table.company_id, p.company) : on.scoped ? isAnyOf(table.company_id, p.scope) : undefined;
  const where = (
    p: Placeholders<'scope' | 'company' | 'pattern'>,
    on: { scoped: boolean; one: boolean; search: boolean },
  ) => and(inScope(p, on), on.search ? matchesPattern(document, p.pattern) : undefined);
  // A search counts its matches up to COUNT_LIMIT rows (a capped total beyond,
  // docs/rules.md#large-registers): a search matching most of 100,000 rows does not recount them all on every page.
  const countRows = preparedShapes(
    `${key}.count`,
    ['scoped', 'one', 'search'],
    ['scope', 'company', 'pattern'],
    (db, p, on, name) => {
      const rows = table as PgTable;
      if (!on.search) {
        return db.select({ n: count() }).from(rows).where(where(p, on)).prepare(name);
      }
      const matched = db
        .select({ one: sql`1`.as('one') })
        .from(rows)
        .where(where(p, on))
        .limit(COUNT_LIMIT)
        .as('matched');
      return db.select({ n: count() }).from(matched).prepare(name);
    },
  );
  const orders = new Map<string, ReturnType<typeof pageQuery>>();
  const pageQuery = (order: string, orderBy: SQL[]) =>
    preparedShapes(
      `${key}.page.${order}`,
      ['scoped', 'one', 'search'],
      ['scope', 'company', 'pattern', 'limit', 'offset'],
      (db, p, on, name) =>
        db
          .select(fields)
          .from(table as PgTable)
          .innerJoin(companies, eq(companies.id, table.company_id))
          .where(where(p, on))
          .orderBy(...orderBy)
          .limit(p.limit)
          .offset(p.offset)
          .prepare(name),
    );
  const ordered = (sort: string | undefined, order: 'asc' | 'desc' | undefined) => {
    const shape = sort ? `${sort}.${order ?? 'asc'}` : 'default';
    let query = orders.get(shape);
    if (!query) {
      const by = sort ? def.sorts?.[sort] : undefined;
      const orderBy = by
        ? [order === 'desc' ? desc(by) : asc(by), asc(table.id)]
        : [...def.defaultOrder, asc(table.id)];
      orders.set(shape, (query = pageQuery(shape, orderBy)));
    }
    return { order: shape, query };
  };

  const byId = preparedShapes(
    `${key}.by-id`,
    ['scoped', 'one'],
    ['id', 'scope', 'company'],
    (db, p, on, name) =>
      db
        .select(fields)
        .from(table as PgTable)
        .innerJoin(companies, eq(companies.id, table.company_id))
        .where(and(eq(table.id, p.id), inScope(p, on)))
        .limit(1)
        .prepare(name),
  );
  const rowById = preparedShapes(
    `${key}.row-by-id`,
    ['scoped', 'one'],
    ['id', 'scope', 'company'],
    (db, p, on, name) =>
      db
        .select()
        .from(table as PgTable)
        .where(and(eq(table.id, p.id), inScope(p, on)))
        .limit(1)
        .prepare(name),
  );

  // The rows of a cached page's ids (services/list-cache.ts), within the scope all the same.
  const byIds = preparedShapes(
    `${key}.by-ids`,
    ['scoped', 'one'],
    ['ids', 'scope', 'company'],
    (db, p, on, name) =>
      db
        .select(fields)
        .from(table as PgTable)
        .innerJoin(companies, eq(companies.id, table.company_id))
        .where(and(isAnyOf(table.id, p.ids), inScope(p, on)))
        .prepare(name),
  );
  const rowsOf = async (db: Executor, ids: string[]) =>
    new Map(
      (
        (await db
          .select()
          .from(table as PgTable)
          .where(inArray(table.id, ids))) as Row<T>[]
      ).map((r) => [r.id, r]),
    );
  const answersByIds = async (db: Executor, ids: string[], scope: CompanyScope) =>
    answers(await byIds(db, shapeOf(scope), { ids, ...scopeValues(scope) }));

  return {
    async find(db, id, scope) {
      const [r] = await byId(db, shapeOf(scope), { id, ...scopeValues(scope) });
      return r ? def.toAnswer(toJoined(r)) : null;
    },

    async findRow(db, id, scope) {
      const [r] = await rowById(db, shapeOf(scope), { id, ...scopeValues(scope) });
      return r as Row<T> | undefined;
    },

    async list(db, query, scope, cache) {
      const on = { ...shapeOf(scope), search: !!query.search };
      const pattern = likePattern(query.search);
      const values = { ...scopeValues(scope), pattern };
      const { order, query: page } = ordered(query.sort, query.order);
      const count = async () => Number((await countRows(db, on, values))[0]?.n ?? 0);
      const pageRows = async (limit: number, offset: number) =>
        answers(await page(db, on, { ...values, limit, offset }));
      if (!cache) return listPage(query, count, pageRows, { capped: on.search });
      const entity = def.entityName;
      return listAnswer(
        query,
        (limit, offset) =>
          cache.read(
            db,
            { entity, scope, pattern: on.search ? pattern : '', order, limit, offset },
            { count, page: pageRows, byIds: (ids) => answersByIds(db, ids, scope), idOf: (row) => row.id },
          ),
        { capped: on.search },
      );
    },

    rowsOf,

    async answersOf(db, ids, scope = ALL) {
      return new Map((await answersByIds(db, ids, scope)).map((a) => [a.id, a]));
    },
  };
}
