/**
 * A company-owned CRUD resource from a small description (certification types, accreditation
 * bodies, client and training certificates): list, get-one, create, update and delete routes with
 * the rules every such resource shares (DECISIONS.md sections 3, 4, 6, 7):
 * - access keys from the permission module: the list and get-one need `<module>`, writes
 *   `<module>:create|edit|delete`; the audit entity is the module key too;
 * - company scope: lists take `company_id` (ALL = the caller's scope, outside it 403); a record
 *   outside the scope is 404; a record cannot be created in, or moved to, a company outside it (403),
 *   nor moved away from its company while rows of that company refer to it (422);
 * - search over one search document (db/search.ts), a sort allow-list (`sort=<key>&order=asc|desc`),
 *   pages counted with count(*) under the same filter; every list and get-one a prepared statement,
 *   one per filter shape;
 * - image fields as multipart `<field>_file` (services/images.ts); duplicates answered by the unique
 *   indexes (plugins/errors.ts); delete of a record in use answers `{success: false, message}`;
 * - every create, update and delete written to the audit log with the record as the API answers it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import * as yup from 'yup';
import {
  ALL,
  type ActionModule,
  type CompanyScope,
  imageFileField,
  type ListQuery,
  type ListResponse,
  listQuerySchema,
  MESSAGES,
  V,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { companies } from '../db/schema';
import { type Placeholders, preparedShapes } from '../db/prepared';
import { searchDocument } from '../db/search';
import { companyFilter } from '../plugins/auth';
import { audit } from '../services/audit';
import { contextOf } from '../services/context';
import { applyImageFields, deleteImages, prepareUploads } from '../services/images';
import { newId } from './crypto';
import { forbidden, invalid, notFound } from './errors';
import { isAnyOf, likePattern, listJsonSchema, listPage, matchesPattern } from './list';
import { companyIdParams, deleteResponseSchema, idParams } from './params';
import { defineRoute } from './route';
import { toJsonSchema } from './yup-json-schema';

/** A table of company-owned rows: a UUID `id`, the owning `company_id` and `updated_at`. */
export type CompanyOwnedTable = PgTable & {
  id: AnyPgColumn;
  company_id: AnyPgColumn;
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

export interface WriteContext<T extends CompanyOwnedTable, In> {
  tx: Executor;
  req: FastifyRequest;
  input: In;
  companyId: string;
  /** The stored row before an update; null on create. */
  current: Row<T> | null;
}

export interface ResourceDef<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  X extends string = never,
  F extends string = never,
> {
  /** Permission module: access keys and (unless `entity` says otherwise) the audit entity. */
  module: ActionModule;
  /** Audit entity when it is not the module key ('company-certificate-scheme'). */
  entity?: string;
  /** Path of the list, e.g. `/api/accredited`; records live under `<url>/:id`. */
  url: string;
  /** What a record is, for the OpenAPI summaries ('accreditation body'). */
  noun: string;
  table: T;
  /** The request body of create and update (shared-contracts). */
  input: S;
  /** The answer of every route (shared-contracts). */
  answer: yup.AnyObjectSchema;
  toAnswer(joined: Joined<T, X>): A;
  /** Columns written from the input: everything but id, company_id, images and timestamps. */
  values(input: yup.InferType<S>): Partial<T['$inferInsert']>;
  /** Derived numbers (counts), selected with every record. */
  extras?: Record<X, SQL<number>>;
  /** Columns of the search document; a trigram index over searchDocument(search) serves it. */
  search: AnyPgColumn[];
  /** Order of a list without `sort`. */
  defaultOrder: SQL[];
  /** Sort allow-list: `sort=<key>` orders by the expression (`order=asc|desc`, asc by default). */
  sorts?: Record<string, AnyPgColumn | SQL>;
  /** Image fields (multipart `<field>_file`) with their Indonesian labels. */
  images?: { labels: Record<F, string>; requiredOnCreate?: boolean };
  /** True when rows refer to the record: delete answers `{success: false}`, a company move 422. */
  inUse?: (db: Executor, id: string) => Promise<boolean>;
  /** The message of a refused delete (default MESSAGES.inUseOrder). */
  inUseMessage?: string;
  /** Checks and extra column values of a write (a QR, a reference checked against the company). */
  beforeWrite?: (ctx: WriteContext<T, yup.InferType<S>>) => Promise<Partial<T['$inferInsert']> | void>;
  /** `GET <url>/:company_id/:id` (the record, 404 outside the scope or that company). */
  getOne?: boolean;
}

export interface Resource<T extends CompanyOwnedTable, A> {
  /** The record as the API answers it, or null when absent or outside the scope. */
  find: (db: Executor, id: string, scope: CompanyScope) => Promise<A | null>;
  /** The stored row, or undefined when absent or outside the scope. */
  findRow: (db: Executor, id: string, scope: CompanyScope) => Promise<Row<T> | undefined>;
  list: (
    db: Executor,
    query: ListQuery & { sort?: string; order?: 'asc' | 'desc' },
    scope: CompanyScope,
  ) => Promise<ListResponse<A>>;
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

/** Refuses (403) a company outside the caller's scope as the company of a record. */
export function checkCompanyInScope(req: FastifyRequest, companyId: string): void {
  const scope = req.auth.scope;
  if (scope !== ALL && !scope.includes(companyId)) throw forbidden('Perusahaan di luar akses anda');
}

/** 422 on `company_id` when the company does not exist (scope ALL may name any id). */
export async function checkCompanyExists(db: Executor, companyId: string): Promise<void> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!row) throw invalid({ company_id: 'Perusahaan tidak ditemukan' });
}

/** The list query of a resource: page, paginate, search, company_id and, with sorts, sort and order. */
export function resourceListQuery(sorts: readonly string[]) {
  if (!sorts.length) return listQuerySchema;
  return listQuerySchema.shape({
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

export function defineResource<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  X extends string = never,
  F extends string = never,
>(app: FastifyInstance, def: ResourceDef<T, S, A, X, F>): Resource<T, A> {
  type In = yup.InferType<S>;
  const { table, module } = def;
  const entity = def.entity ?? module;
  /** Prepared statements are named by path: two resources may share a permission module. */
  const key = def.url.replace(/^\/api\//, '');
  const document = searchDocument(def.search);
  const extras = (def.extras ?? {}) as Record<X, SQL<number>>;
  const fields = { row: table, company: { id: companies.id, name: companies.name }, ...extras };
  const imageLabels = def.images?.labels ?? ({} as Record<F, string>);
  const imageFields = Object.keys(imageLabels) as F[];
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
  const countRows = preparedShapes(
    `${key}.count`,
    ['scoped', 'one', 'search'],
    ['scope', 'company', 'pattern'],
    (db, p, on, name) =>
      db
        .select({ n: count() })
        .from(table as PgTable)
        .where(where(p, on))
        .prepare(name),
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
    return query;
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

  const resource: Resource<T, A> = {
    async find(db, id, scope) {
      const [r] = await byId(db, shapeOf(scope), { id, ...scopeValues(scope) });
      return r ? def.toAnswer(toJoined(r)) : null;
    },
    async findRow(db, id, scope) {
      const [r] = await rowById(db, shapeOf(scope), { id, ...scopeValues(scope) });
      return r as Row<T> | undefined;
    },
    async list(db, query, scope) {
      const on = { ...shapeOf(scope), search: !!query.search };
      const values = { ...scopeValues(scope), pattern: likePattern(query.search) };
      const page = ordered(query.sort, query.order);
      return listPage(
        query,
        async () => Number((await countRows(db, on, values))[0]?.n ?? 0),
        async (limit, offset) =>
          (await page(db, on, { ...values, limit, offset })).map((r) =>
            def.toAnswer(toJoined(r as Record<string, unknown>)),
          ),
      );
    },
  };

  const tags = [module];
  const answer = def.answer;
  const withImages = imageFields.length > 0;
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
  const requireUploads = (uploads: Partial<Record<F, unknown>>) => {
    if (!def.images?.requiredOnCreate) return;
    const missing = imageFields.filter((f) => !uploads[f]);
    if (missing.length)
      throw invalid(Object.fromEntries(missing.map((f) => [`${f}_file`, V.required(imageLabels[f])])));
  };
  const columnsOf = (input: In) => def.values(input) as Record<string, unknown>;

  defineRoute(app, {
    method: 'GET',
    url: def.url,
    summary: `List ${def.noun} records of a company or of every company in scope (company_id=ALL)`,
    tags,
    access: { permission: module },
    query: resourceListQuery(Object.keys(def.sorts ?? {})),
    response: { 200: listJsonSchema(toJsonSchema(answer)) },
    handler: async (req) => {
      const query = req.query as ListQuery & { sort?: string; order?: 'asc' | 'desc' };
      return resource.list(app.db, query, companyFilter(req, query.company_id));
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
        const found = await resource.find(app.db, id, req.auth.scope);
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
    body: createInput,
    response: { 201: answer },
    handler: async (req, reply) => {
      const input = req.body as In;
      const companyId = companyOf(input);
      checkCompanyInScope(req, companyId);
      const uploads = withImages ? await prepareUploads(input, imageLabels, app.imageWork) : {};
      requireUploads(uploads);
      const created = await app.db.transaction(async (tx) => {
        await checkCompanyExists(tx, companyId);
        const id = newId();
        const extra = (await def.beforeWrite?.({ tx, req, input, companyId, current: null })) ?? {};
        const images = withImages ? await applyImageFields(tx, imageLabels, input, uploads, {}) : {};
        const values = { ...columnsOf(input), ...extra, ...images, id, company_id: companyId };
        await tx.insert(table).values(values as T['$inferInsert']);
        const after = (await resource.find(tx, id, ALL))!;
        await audit(contextOf(app, req, tx), { action: 'create', entity, entityId: id, companyId, after });
        return after;
      });
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
    body: def.input,
    response: { 200: answer },
    handler: async (req) => {
      const { id } = req.params;
      const input = req.body;
      const companyId = companyOf(input);
      const scope = req.auth.scope;
      if (!(await resource.findRow(app.db, id, scope))) throw notFound();
      checkCompanyInScope(req, companyId);
      const uploads = withImages ? await prepareUploads(input, imageLabels, app.imageWork) : {};
      return app.db.transaction(async (tx) => {
        const current = await resource.findRow(tx, id, scope);
        if (!current) throw notFound();
        const before = await resource.find(tx, id, scope);
        if (current.company_id !== companyId) {
          await checkCompanyExists(tx, companyId);
          if (def.inUse && (await def.inUse(tx, id))) throw invalid({ company_id: MOVE_REFUSED });
        }
        const extra = (await def.beforeWrite?.({ tx, req, input, companyId, current })) ?? {};
        const images = withImages
          ? await applyImageFields(
              tx,
              imageLabels,
              input,
              uploads,
              current as Partial<Record<F, string | null>>,
            )
          : {};
        const values = {
          ...columnsOf(input),
          ...extra,
          ...images,
          company_id: companyId,
          updated_at: new Date(),
        };
        await tx.update(table).set(values).where(eq(table.id, id));
        const after = (await resource.find(tx, id, ALL))!;
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity,
          entityId: id,
          companyId,
          before,
          after,
        });
        return after;
      });
    },
  });

  defineDeleteRoute(app, {
    module,
    url: `${def.url}/:id`,
    noun: def.noun,
    table,
    findRow: resource.findRow,
    find: resource.find,
    entity,
    companyOf: (row) => row.company_id,
    imageFields,
    inUse: def.inUse,
    inUseMessage: def.inUseMessage,
  });

  return resource;
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

export interface DeleteRouteDef<R> {
  module: ActionModule;
  /** Audit entity (default: the module key). */
  entity?: string | undefined;
  /** The record's path, ending in `/:id`. */
  url: string;
  noun: string;
  table: PgTable & { id: AnyPgColumn };
  /** The stored row within the caller's scope (undefined: 404). */
  findRow: (db: Executor, id: string, scope: CompanyScope) => Promise<R | undefined>;
  /** The record as the API answers it, for the audit trail's `before`. */
  find: (db: Executor, id: string, scope: CompanyScope) => Promise<unknown>;
  /** The company the audit row is filed under. */
  companyOf: (row: R) => string | null;
  /** OpenAPI tags (default: the module key). */
  tags?: string[];
  /** Image columns whose images go with the record. */
  imageFields?: readonly string[];
  inUse?: ((db: Executor, id: string) => Promise<boolean>) | undefined;
  inUseMessage?: string | undefined;
}

/**
 * `DELETE <url>` (`<module>:delete`): 404 outside the scope; a record in use answers
 * `200 {success: false, message}` and deletes nothing (DECISIONS.md section 4); otherwise the row and
 * its images go, audited, in one transaction.
 */
export function defineDeleteRoute<R extends object>(app: FastifyInstance, def: DeleteRouteDef<R>): void {
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
      return app.db.transaction(async (tx) => {
        const current = await def.findRow(tx, id, req.auth.scope);
        if (!current) throw notFound();
        if (def.inUse && (await def.inUse(tx, id))) {
          return { success: false, message: def.inUseMessage ?? MESSAGES.inUseOrder };
        }
        const before = await def.find(tx, id, req.auth.scope);
        await tx.delete(def.table).where(eq(def.table.id, id));
        const row = current as Record<string, unknown>;
        await deleteImages(
          tx,
          (def.imageFields ?? []).map((f) => row[f] as string | null),
        );
        const companyId = def.companyOf(current);
        await audit(contextOf(app, req, tx), {
          action: 'delete',
          entity: def.entity ?? def.module,
          entityId: id,
          companyId,
          before,
        });
        return { success: true, message: MESSAGES.deleted };
      });
    },
  });
}
