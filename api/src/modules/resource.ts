/**
 * A company-owned record (certification types, accreditation bodies, client and training
 * certificates) from a small description, in two halves (docs/architecture.md):
 *
 * - `defineResourceService(def)`: the reads (list, one record, its stored row) and the writes
 *   (`create`, `update`, `remove`), each one function of a service context (transaction, actor,
 *   clock, config) and the input, usable without HTTP (a route, the import, the demo generator, a
 *   test). A write does the checks, the write, the after-write steps and the audit (of the record
 *   as the steps left it), in the caller's transaction.
 * - `defineResource(app, {service, ...})`: the routes over such a service. They read the request,
 *   prepare image uploads before the transaction, call the service inside `app.db.transaction` and
 *   shape the answer; the auth hook checks the permission keys.
 *
 * The rules every such record shares (docs/rules.md#permissions, #records, #uploads and #api-conventions):
 * - access keys from the permission module: the list and get-one need `<module>`, writes
 *   `<module>:create|edit|delete`;
 * - company scope: lists take `company_id` (ALL = the caller's scope, outside it 403); a record
 *   outside the actor's scope is 404; a record cannot be created in, or moved to, a company outside
 *   it (403), nor moved away from its company while rows of that company refer to it (422);
 * - search over one search document (db/search.ts), a sort allow-list (`sort=<key>&order=asc|desc`),
 *   pages counted with count(*) under the same filter; a total counted, and a page's ids read, again
 *   only when a write of the record in a company of the scope happened since
 *   (services/list-versions.ts, the app's `listCache`); every list and get-one a prepared
 *   statement, one per filter shape;
 * - image fields as multipart `<field>_file` (services/images.ts); duplicates answered by the unique
 *   indexes (plugins/errors.ts); delete of a record in use answers `{success: false, message}`;
 * - every create and update handed to the after-write steps (services/after-write.ts) with the
 *   stored rows, then written to the audit log with the record as the API answers it, a delete
 *   alike (services/write-sequence.ts).
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import * as yup from 'yup';
import {
  ALL,
  type ActionModule,
  type CompanyListQuery,
  companyListQuerySchema,
  type CompanyScope,
  type DeleteResponse,
  imageFileField,
  type ListResponse,
  MESSAGES,
  V,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { insertRowsReturning } from '../db/insert-rows';
import { companies } from '../db/schema';
import { type Placeholders, preparedShapes } from '../db/prepared';
import { searchDocument } from '../db/search';
import { companyFilter } from '../plugins/auth';
import type { EntityName } from '../services/after-write';
import type { ListCache, ListedEntity } from '../services/list-versions';
import { type Actor, actorOf, contextOf, type ServiceContext } from '../services/context';
import type { Semaphore } from '../lib/semaphore';
import { applyImageFields, deleteImages, type PreparedImage, prepareUploads } from '../services/images';
import { runWriteSequence } from '../services/write-sequence';
import { newId } from '../lib/crypto';
import { forbidden, invalid, notFound } from '../lib/errors';
import {
  COUNT_LIMIT,
  isAnyOf,
  likePattern,
  listAnswer,
  listJsonSchema,
  listPage,
  matchesPattern,
} from '../lib/list';
import { companyIdParams, deleteResponseSchema, idParams } from '../lib/params';
import { defineRoute } from '../lib/route';
import { toJsonSchema } from '../lib/yup-json-schema';

/** A table of company-owned rows: a UUID `id`, the owning `company_id` and the timestamps. */
export type CompanyOwnedTable = PgTable & {
  id: AnyPgColumn;
  company_id: AnyPgColumn;
  created_at: AnyPgColumn;
  updated_at: AnyPgColumn;
};

/** A stored row, as far as the helper reads it. */
type Row<T extends CompanyOwnedTable> = T['$inferSelect'] & { id: string; company_id: string };

/** What the helper hands the answer mapper: the row, its company and the derived columns. */
export interface Joined<T extends CompanyOwnedTable, X extends string> {
  row: Row<T>;
  company: { id: string; name: string };
  extra: Record<X, number>;
}

/** Image uploads of a write, checked and re-encoded before its transaction (services/images.ts). */
export type Uploads<F extends string> = Partial<Record<F, PreparedImage>>;

/** What a description's `beforeWrite` is handed. */
export interface WriteContext<T extends CompanyOwnedTable, In> {
  ctx: ServiceContext;
  input: In;
  companyId: string;
  /** The stored row before an update; null on create. */
  current: Row<T> | null;
}

export interface ResourceServiceDef<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  X extends string = never,
  F extends string = never,
> {
  /** Names the prepared statements (`<key>.by-id`...): the path of the list without `/api/`. */
  key: string;
  /** The audit entity (the permission module key, or 'company-certificate-scheme'). */
  entity: string;
  /** The record's name for the after-write steps (and its list versions: LISTED_ENTITIES). */
  entityName: ListedEntity;
  table: T;
  /** The input of create and update (shared-contracts); routes validate bodies with it. */
  input: S;
  toAnswer(joined: Joined<T, X>): A;
  /** Columns written from the input: everything but id, company_id, images and timestamps. */
  values(input: yup.InferType<S>): Partial<T['$inferInsert']>;
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
  /** Image fields (multipart `<field>_file`) with their Indonesian labels. */
  images?: { labels: Record<F, string>; requiredOnCreate?: boolean };
  /** True when rows refer to the record: delete answers `{success: false}`, a company move 422. */
  inUse?: (db: Executor, id: string) => Promise<boolean>;
  /** The message of a refused delete (default MESSAGES.inUseOrder). */
  inUseMessage?: string;
  /**
   * Checks and extra column values of writes (a reference checked against the company), given every
   * write of a batch at once (one of a form save) so that it checks them set-wise; answers the extra
   * columns of each, in order (or nothing).
   */
  beforeWrite?: (
    writes: readonly WriteContext<T, yup.InferType<S>>[],
  ) => Promise<readonly (Partial<T['$inferInsert']> | void)[] | void>;
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
    query: CompanyListQuery & { sort?: string; order?: 'asc' | 'desc' },
    scope: CompanyScope,
    cache?: ListCache,
  ) => Promise<ListResponse<A>>;
}

/** The reads and writes of a record; every write runs in `ctx.tx`, audited, with the after-write steps. */
export interface ResourceService<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  F extends string = string,
> extends Resource<T, A> {
  readonly entity: string;
  /** The input of update; of create too unless an image is required there (`createInput`). */
  readonly input: S;
  /** The input of create: `input` with the images required on create. */
  readonly createInput: yup.AnyObjectSchema;
  readonly imageLabels: Record<F, string>;
  /** The keys of the sort allow-list. */
  readonly sortKeys: readonly string[];
  /** Checks and re-encodes the `<field>_file` uploads of an input, before any transaction. */
  prepareUploads: (input: yup.InferType<S>, work: Semaphore) => Promise<Uploads<F>>;
  /** The checks of a create that need no transaction: the company within the actor's scope (403). */
  checkCreate: (actor: Actor, input: yup.InferType<S>) => void;
  /** The checks of an update before its transaction: the record in scope (404), the company (403). */
  checkUpdate: (db: Executor, actor: Actor, id: string, input: yup.InferType<S>) => Promise<void>;
  /** Creates the record; answers it as the API does. */
  create: (ctx: ServiceContext, input: yup.InferType<S>, uploads?: Uploads<F>) => Promise<A>;
  /** Updates the record (a new upload replaces an image, an empty field removes it); answers it. */
  update: (ctx: ServiceContext, id: string, input: yup.InferType<S>, uploads?: Uploads<F>) => Promise<A>;
  /**
   * Creates many records at once (an import's chunk): the same checks as `create` (references
   * set-wise), one insert, the after-write steps in batch form, one audit insert; answers them in
   * the order given. No image uploads.
   */
  createMany: (ctx: ServiceContext, inputs: readonly yup.InferType<S>[]) => Promise<A[]>;
  /** Updates many records at once, as `update` each (images kept); answers them in the order given. */
  updateMany: (
    ctx: ServiceContext,
    items: readonly { id: string; input: yup.InferType<S> }[],
  ) => Promise<A[]>;
  /** Deletes the record and its images, or answers `{success: false}` while rows refer to it. */
  remove: (ctx: ServiceContext, id: string) => Promise<DeleteResponse>;
}

export const SORT_ORDERS = ['asc', 'desc'] as const;
const MOVE_REFUSED = 'Perusahaan tidak dapat diubah karena data ini sudah dipakai';

/**
 * The company filter's shape: none (ALL), one company (`company_id = $1`, which an index on
 * (company_id, <order>) serves in order) or several (`= any($1)`).
 */
const shapeOf = (scope: CompanyScope) => ({
  scoped: scope !== ALL && scope.length !== 1,
  one: scope !== ALL && scope.length === 1,
});
const scopeValues = (scope: CompanyScope) => ({
  scope: scope === ALL ? [] : scope,
  company: scope === ALL ? null : (scope[0] ?? null),
});

/** Refuses (403) a company outside the actor's scope as the company of a record. */
export function checkCompanyInScope(scope: CompanyScope, companyId: string): void {
  if (scope !== ALL && !scope.includes(companyId)) throw forbidden('Perusahaan di luar akses anda');
}

/** 422 on `company_id` when the company does not exist (scope ALL may name any id); else the company. */
export async function checkCompanyExists(
  db: Executor,
  companyId: string,
): Promise<{ id: string; name: string }> {
  const [row] = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw invalid({ company_id: 'Perusahaan tidak ditemukan' });
  return row;
}

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

/** The reads and writes of a company-owned record from its description (no HTTP). */
export function defineResourceService<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  X extends string = never,
  F extends string = never,
>(def: ResourceServiceDef<T, S, A, X, F>): ResourceService<T, S, A, F> {
  type In = yup.InferType<S>;
  const { table, key, entity } = def;
  const document = searchDocument(def.search);
  const extras = (def.extras ?? {}) as Record<X, SQL<number>>;
  const fields = { row: table, company: { id: companies.id, name: companies.name }, ...extras };
  const imageLabels = def.images?.labels ?? ({} as Record<F, string>);
  const imageFields = Object.keys(imageLabels) as F[];
  const withImages = imageFields.length > 0;
  const toJoined = (r: Record<string, unknown>): Joined<T, X> => {
    const { row, company, ...extra } = r;
    return {
      row: row as Row<T>,
      company: company as Joined<T, X>['company'],
      extra: extra as Record<X, number>,
    };
  };

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

  // The rows of a cached page's ids (services/list-versions.ts), within the scope all the same.
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

  const find: Resource<T, A>['find'] = async (db, id, scope) => {
    const [r] = await byId(db, shapeOf(scope), { id, ...scopeValues(scope) });
    return r ? def.toAnswer(toJoined(r)) : null;
  };
  const findRow: Resource<T, A>['findRow'] = async (db, id, scope) => {
    const [r] = await rowById(db, shapeOf(scope), { id, ...scopeValues(scope) });
    return r as Row<T> | undefined;
  };

  const companyOf = (input: In) => String((input as { company_id: string }).company_id).toLowerCase();
  // A required image is required on create only: the create body says so (docs and 422 alike).
  const createInput = def.images?.requiredOnCreate
    ? def.input.shape(
        Object.fromEntries(
          imageFields.map((f) => [
            `${f}_file`,
            imageFileField(imageLabels[f]).required(V.required(imageLabels[f])),
          ]),
        ),
      )
    : def.input;
  const requireUploads = (uploads: Uploads<F>) => {
    if (!def.images?.requiredOnCreate) return;
    const missing = imageFields.filter((f) => !uploads[f]);
    if (missing.length)
      throw invalid(Object.fromEntries(missing.map((f) => [`${f}_file`, V.required(imageLabels[f])])));
  };
  const columnsOf = (input: In) => def.values(input) as Record<string, unknown>;

  /** The stored rows of `ids` (scope ALL: the write checked it), by id. */
  const rowsOf = async (tx: Executor, ids: string[]) =>
    new Map(
      (
        (await tx
          .select()
          .from(table as PgTable)
          .where(inArray(table.id, ids))) as Row<T>[]
      ).map((r) => [r.id, r]),
    );
  /** The records of `ids` as the API answers them (within `scope`), by id. */
  const answersOf = async (tx: Executor, ids: string[], scope: CompanyScope = ALL) =>
    new Map(
      (await byIds(tx, shapeOf(scope), { ids, ...scopeValues(scope) }))
        .map((r) => def.toAnswer(toJoined(r as Record<string, unknown>)))
        .map((a) => [a.id, a]),
    );
  /** The description's checks and extra columns of writes, in one call for all of them. */
  const checkWrites = async (writes: WriteContext<T, In>[]) =>
    (await def.beforeWrite?.(writes)) ?? writes.map(() => undefined);

  /**
   * Every create and update, of one record or many, through the one write sequence
   * (services/write-sequence.ts): the rows written (one insert for all creates), the after-write
   * steps, one audit row each, the answers in the order of `writes`.
   */
  const writeSequence = async (
    ctx: ServiceContext,
    action: 'create' | 'update',
    writes: {
      id: string;
      companyId: string;
      values: Record<string, unknown>;
      current: Row<T> | null;
      before: A | null;
    }[],
    /** On create: the companies written under, whose names a create's answer shows (it is made, not read). */
    owners?: ReadonlyMap<string, { id: string; name: string }>,
  ): Promise<A[]> => {
    const { tx } = ctx;
    return runWriteSequence<Row<T>, A>(ctx, {
      entity: def.entityName,
      auditEntity: entity,
      action,
      writes,
      write: async () => {
        if (action === 'create') {
          const rows = await insertRowsReturning(
            tx,
            table,
            writes.map((w) => w.values as T['$inferInsert']),
          );
          return new Map(rows.map((r) => [(r as Row<T>).id, r as Row<T>]));
        }
        for (const w of writes) await tx.update(table).set(w.values).where(eq(table.id, w.id));
      },
      stored: (ids) => rowsOf(tx, ids),
      // A create's answers from its stored rows and companies (read back where a step rewrote a
      // row, or the answer has figures of its own to count).
      answers: async (ids, rows) => {
        const made = new Map<string, A>();
        if (owners && !Object.keys(extras).length)
          for (const [id, row] of rows ?? [])
            made.set(
              id,
              def.toAnswer({ row, company: owners.get(row.company_id)!, extra: {} as Record<X, number> }),
            );
        const unread = ids.filter((id) => !made.has(id));
        if (unread.length) for (const [id, answer] of await answersOf(tx, unread)) made.set(id, answer);
        return made;
      },
    });
  };

  /** Creates records: company in scope (403) and existing (422), the description's checks, then the sequence. */
  const createWrites = async (ctx: ServiceContext, items: { input: In; uploads: Uploads<F> }[]) => {
    const { tx, actor } = ctx;
    if (!items.length) return [];
    for (const { input } of items) checkCompanyInScope(actor.scope, companyOf(input));
    const owners = new Map<string, { id: string; name: string }>();
    for (const companyId of new Set(items.map(({ input }) => companyOf(input))))
      owners.set(companyId, await checkCompanyExists(tx, companyId));
    const writes = items.map(({ input }) => ({ ctx, input, companyId: companyOf(input), current: null }));
    const extras = await checkWrites(writes);
    const now = ctx.clock.now();
    const rows = [];
    for (const [i, { input, uploads }] of items.entries()) {
      const id = newId();
      const companyId = companyOf(input);
      const images = withImages
        ? await applyImageFields(tx, imageLabels, input as Record<string, unknown>, uploads, {})
        : {};
      rows.push({
        id,
        companyId,
        current: null,
        before: null,
        values: {
          ...columnsOf(input),
          ...(extras[i] ?? {}),
          ...images,
          id,
          company_id: companyId,
          created_at: now,
          updated_at: now,
        },
      });
    }
    return writeSequence(ctx, 'create', rows, owners);
  };

  /**
   * Updates records in the actor's scope (404 otherwise): the new company in scope (403); a record
   * moved to another company needs it to exist (422) and nothing of its company to refer to it (422).
   */
  const updateWrites = async (
    ctx: ServiceContext,
    items: { id: string; input: In; uploads: Uploads<F> }[],
  ) => {
    const { tx, actor } = ctx;
    if (!items.length) return [];
    const ids = items.map((i) => i.id);
    const current = new Map(
      (
        (await tx
          .select()
          .from(table as PgTable)
          .where(
            and(
              inArray(table.id, ids),
              actor.scope === ALL ? undefined : inArray(table.company_id, actor.scope),
            ),
          )) as Row<T>[]
      ).map((r) => [r.id, r]),
    );
    for (const { id, input } of items) {
      if (!current.has(id)) throw notFound();
      checkCompanyInScope(actor.scope, companyOf(input));
    }
    const before = await answersOf(tx, ids, actor.scope);
    for (const { id, input } of items) {
      const row = current.get(id)!;
      const companyId = companyOf(input);
      if (row.company_id !== companyId) {
        await checkCompanyExists(tx, companyId);
        if (def.inUse && (await def.inUse(tx, id))) throw invalid({ company_id: MOVE_REFUSED });
      }
    }
    const writes = items.map(({ id, input }) => ({
      ctx,
      input,
      companyId: companyOf(input),
      current: current.get(id)!,
    }));
    const extras = await checkWrites(writes);
    const now = ctx.clock.now();
    const rows = [];
    for (const [i, { id, input, uploads }] of items.entries()) {
      const row = current.get(id)!;
      const companyId = companyOf(input);
      const images = withImages
        ? await applyImageFields(
            tx,
            imageLabels,
            input as Record<string, unknown>,
            uploads,
            row as Partial<Record<F, string | null>>,
          )
        : {};
      rows.push({
        id,
        companyId,
        current: row,
        before: before.get(id) ?? null,
        values: {
          ...columnsOf(input),
          ...(extras[i] ?? {}),
          ...images,
          company_id: companyId,
          updated_at: now,
        },
      });
    }
    return writeSequence(ctx, 'update', rows);
  };

  const service: ResourceService<T, S, A, F> = {
    entity,
    input: def.input,
    createInput,
    imageLabels,
    sortKeys: Object.keys(def.sorts ?? {}),
    find,
    findRow,
    async list(db, query, scope, cache) {
      const on = { ...shapeOf(scope), search: !!query.search };
      const pattern = likePattern(query.search);
      const values = { ...scopeValues(scope), pattern };
      const { order, query: page } = ordered(query.sort, query.order);
      const answers = (rows: unknown[]) =>
        rows.map((r) => def.toAnswer(toJoined(r as Record<string, unknown>)));
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
            {
              count,
              page: pageRows,
              byIds: async (ids) => answers(await byIds(db, shapeOf(scope), { ids, ...scopeValues(scope) })),
              idOf: (row) => row.id,
            },
          ),
        { capped: on.search },
      );
    },

    prepareUploads: (input, work) =>
      withImages ? prepareUploads(input as Record<string, unknown>, imageLabels, work) : Promise.resolve({}),

    checkCreate(actor, input) {
      checkCompanyInScope(actor.scope, companyOf(input));
    },

    async checkUpdate(db, actor, id, input) {
      if (!(await findRow(db, id, actor.scope))) throw notFound();
      checkCompanyInScope(actor.scope, companyOf(input));
    },

    async create(ctx, input, uploads = {}) {
      requireUploads(uploads);
      const [answer] = await createWrites(ctx, [{ input, uploads }]);
      return answer!;
    },

    createMany: (ctx, inputs) =>
      createWrites(
        ctx,
        inputs.map((input) => ({ input, uploads: {} })),
      ),

    async update(ctx, id, input, uploads = {}) {
      const [answer] = await updateWrites(ctx, [{ id, input, uploads }]);
      return answer!;
    },

    updateMany: (ctx, items) =>
      updateWrites(
        ctx,
        items.map((item) => ({ ...item, uploads: {} })),
      ),

    remove: (ctx, id) =>
      removeRecord(ctx, id, {
        entity,
        entityName: def.entityName,
        table,
        findRow,
        find,
        companyOf: (row) => row.company_id,
        imageFields,
        inUse: def.inUse,
        inUseMessage: def.inUseMessage,
      }),
  };
  return service;
}

export interface ResourceRoutesDef<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  F extends string,
> {
  service: ResourceService<T, S, A, F>;
  /** Permission module: the access keys of the routes. */
  module: ActionModule;
  /** Path of the list, e.g. `/api/accredited`; records live under `<url>/:id`. */
  url: string;
  /** What a record is, for the OpenAPI summaries ('accreditation body'). */
  noun: string;
  /** The answer of every route (shared-contracts). */
  answer: yup.AnyObjectSchema;
  /** `GET <url>/:company_id/:id` (the record, 404 outside the scope or that company). */
  getOne?: boolean;
}

/**
 * The routes of a company-owned record over its service: list (and get-one), create, update and
 * delete. Each reads the request, prepares image uploads before the transaction, calls the service
 * inside `app.db.transaction` with the caller as the actor, and shapes the answer.
 */
export function defineResource<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  F extends string,
>(app: FastifyInstance, def: ResourceRoutesDef<T, S, A, F>): ResourceService<T, S, A, F> {
  const { service, module, answer } = def;
  const tags = [module];
  const imageFields = Object.keys(service.imageLabels);
  const withImages = imageFields.length > 0;

  defineRoute(app, {
    method: 'GET',
    url: def.url,
    summary: `List ${def.noun} records of a company or of every company in scope (company_id=ALL)`,
    tags,
    access: { permission: module },
    query: resourceListQuery(service.sortKeys),
    response: { 200: listJsonSchema(toJsonSchema(answer)) },
    handler: async (req) => {
      const query = req.query as CompanyListQuery & { sort?: string; order?: 'asc' | 'desc' };
      return service.list(app.db, query, companyFilter(req, query.company_id), app.listCache);
    },
  });

  if (def.getOne) {
    defineRoute(app, {
      method: 'GET',
      url: `${def.url}/:company_id/:id`,
      summary: `One ${def.noun} (company_id: its company, or ALL)`,
      tags,
      access: { permission: module },
      params: companyIdParams,
      response: { 200: answer },
      handler: async (req) => {
        const { company_id: companyId, id } = req.params;
        const found = await service.find(app.db, id, req.auth.scope);
        if (!found || (companyId !== ALL && found.company_id !== companyId.toLowerCase())) throw notFound();
        return found;
      },
    });
  }

  defineRoute(app, {
    method: 'POST',
    url: def.url,
    summary: `Create a ${def.noun} in a company within the caller's scope${withImages ? ` (images as ${imageFields.map((f) => `${f}_file`).join(', ')})` : ''}`,
    tags,
    access: { permission: `${module}:create` },
    multipart: withImages,
    body: service.createInput,
    response: { 201: answer },
    handler: async (req, reply) => {
      const input = req.body as yup.InferType<S>;
      service.checkCreate(actorOf(req), input);
      const uploads = await service.prepareUploads(input, app.imageWork);
      const created = await app.db.transaction((tx) =>
        service.create(contextOf(app, req, tx), input, uploads),
      );
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: withImages ? ['POST', 'PUT'] : 'PUT',
    url: `${def.url}/:id`,
    summary: `Update a ${def.noun} in scope${withImages ? ' (multipart: POST with _method=PUT, or PUT)' : ''}`,
    tags,
    access: { permission: `${module}:edit` },
    multipart: withImages,
    params: idParams,
    body: service.input,
    response: { 200: answer },
    handler: async (req) => {
      const { id } = req.params;
      const input = req.body;
      await service.checkUpdate(app.db, actorOf(req), id, input);
      const uploads = await service.prepareUploads(input, app.imageWork);
      return app.db.transaction((tx) => service.update(contextOf(app, req, tx), id, input, uploads));
    },
  });

  defineDeleteRoute(app, {
    module,
    url: `${def.url}/:id`,
    noun: def.noun,
    remove: service.remove,
  });

  return service;
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

/** What the delete of a record needs to know of it. */
interface RemoveDef<R> {
  /** Audit entity. */
  entity: string;
  /** The record's name for the after-write steps; without it none run (records not yet on a service). */
  entityName?: EntityName | undefined;
  table: PgTable & { id: AnyPgColumn };
  /** The stored row within the actor's scope (undefined: 404). */
  findRow: (db: Executor, id: string, scope: CompanyScope) => Promise<R | undefined>;
  /** The record as the API answers it, for the audit trail's `before`. */
  find: (db: Executor, id: string, scope: CompanyScope) => Promise<unknown>;
  /** The company the audit row is filed under. */
  companyOf: (row: R) => string | null;
  /** Image columns whose images go with the record. */
  imageFields?: readonly string[];
  inUse?: ((db: Executor, id: string) => Promise<boolean>) | undefined;
  inUseMessage?: string | undefined;
}

/**
 * Deletes a record within the actor's scope (404 outside it): a record in use answers
 * `{success: false, message}` and deletes nothing (docs/rules.md#records); otherwise the row and
 * its images go, audited, then the after-write steps run with the stored row as `before`.
 */
async function removeRecord<R extends object>(
  ctx: ServiceContext,
  id: string,
  def: RemoveDef<R>,
): Promise<DeleteResponse> {
  const { tx, actor } = ctx;
  const current = await def.findRow(tx, id, actor.scope);
  if (!current) throw notFound();
  if (def.inUse && (await def.inUse(tx, id))) {
    return { success: false, message: def.inUseMessage ?? MESSAGES.inUseOrder };
  }
  const before = await def.find(tx, id, actor.scope);
  await runWriteSequence(ctx, {
    entity: def.entityName,
    auditEntity: def.entity,
    action: 'delete',
    writes: [{ id, companyId: def.companyOf(current), current, before }],
    write: async () => {
      await tx.delete(def.table).where(eq(def.table.id, id));
      const row = current as Record<string, unknown>;
      await deleteImages(
        tx,
        (def.imageFields ?? []).map((f) => row[f] as string | null),
      );
    },
  });
  return { success: true, message: MESSAGES.deleted };
}

/** A delete route over a service's `remove`. */
interface DeleteRouteOverService {
  module: ActionModule;
  /** The record's path, ending in `/:id`. */
  url: string;
  noun: string;
  /** OpenAPI tags (default: the module key). */
  tags?: string[];
  remove: (ctx: ServiceContext, id: string) => Promise<DeleteResponse>;
}

/** `DELETE <url>` (`<module>:delete`): calls the record's `remove` in a transaction with the caller as the actor. */
function defineDeleteRoute(app: FastifyInstance, def: DeleteRouteOverService): void {
  const { remove } = def;
  defineRoute(app, {
    method: 'DELETE',
    url: def.url,
    summary: `Delete a ${def.noun} in scope that nothing refers to (else success false)`,
    tags: def.tags ?? [def.module],
    access: { permission: `${def.module}:delete` },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction((tx) => remove(contextOf(app, req, tx), id));
    },
  });
}
