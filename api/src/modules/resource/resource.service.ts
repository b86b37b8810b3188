/**
 * A company-owned record (certification types, accreditation bodies, client and training
 * certificates) from a small description (docs/architecture.md#the-api-apisrc):
 * `defineResourceService(def)` answers its reads (resource.repository.ts) and its writes (`create`,
 * `update`, `remove`, and `createMany`, `updateMany` for an import's chunk), each one function of a
 * service context (transaction, actor, clock, config) and the input, usable without HTTP (a route,
 * the import, the demo generator, a test). The routes over it are in resource.routes.ts.
 *
 * The rules every such record shares (docs/rules.md#permissions, #records, #uploads and #api-conventions):
 * - a record outside the actor's scope is 404; a record cannot be created in, or moved to, a company
 *   outside it (403), nor moved away from its company while rows of that company refer to it (422);
 * - image fields as multipart `<field>_file` (services/images.ts); duplicates answered by the unique
 *   indexes (plugins/errors.ts); delete of a record in use answers `{success: false, message}`;
 * - every create, update and delete goes through the one write sequence (services/write-sequence.ts):
 *   the write, the after-write steps with the stored rows, then the audit log with the record as the
 *   API answers it.
 */
import { eq, inArray, and } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type * as yup from 'yup';
import {
  ALL,
  type ActionModule,
  type CompanyScope,
  type DeleteResponse,
  imageFileField,
  MESSAGES,
  V,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { insertRowsReturning } from '../../db/insert-rows';
import { companies } from '../../db/schema';
import type { Actor, ServiceContext } from '../../services/context';
import type { Semaphore } from '../../lib/semaphore';
import { applyImageFields, deleteImages, type PreparedImage, prepareUploads } from '../../services/images';
import { runWriteSequence } from '../../services/write-sequence';
import { newId } from '../../lib/crypto';
import { forbidden, invalid, notFound } from '../../lib/errors';
import {
  type CompanyOwnedTable,
  defineResourceReads,
  type Resource,
  type ResourceReadsDef,
  type Row,
} from './resource.repository';

/** Image uploads of a write, checked and re-encoded before its transaction (services/images.ts). */
export type Uploads = Partial<Record<string, PreparedImage>>;

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
> extends ResourceReadsDef<T, A, X> {
  /**
   * The permission module key: the audit entity, the path of the list without `/api/` and the
   * prefix of the prepared statements' names (`<entity>.by-id`...).
   */
  entity: ActionModule;
  /** The input of create and update (shared-contracts); routes validate bodies with it. */
  input: S;
  /** Columns written from the input: everything but id, company_id, images and timestamps. */
  values(input: yup.InferType<S>): Partial<T['$inferInsert']>;
  /** Image fields (multipart `<field>_file`) with their Indonesian labels. */
  images?: { labels: Record<string, string>; requiredOnCreate?: boolean };
  /** True when rows refer to the record: delete answers `{success: false}`, a company move 422. */
  inUse?: (db: Executor, id: string) => Promise<boolean>;
  /**
   * Checks and extra column values of writes (a reference checked against the company), given every
   * write of a batch at once (one of a form save) so that it checks them set-wise; answers the extra
   * columns of each, in order (or nothing).
   */
  beforeWrite?: (
    writes: readonly WriteContext<T, yup.InferType<S>>[],
  ) => Promise<readonly (Partial<T['$inferInsert']> | void)[] | void>;
}

/** The reads and writes of a record; every write runs in `ctx.tx`, audited, with the after-write steps. */
export interface ResourceService<
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
> extends Pick<Resource<CompanyOwnedTable, A>, 'find' | 'list'> {
  /** The permission module key (resource.repository.ts's `ResourceReadsDef`). */
  readonly entity: ActionModule;
  /** The input of update; of create too unless an image is required there (`createInput`). */
  readonly input: S;
  /** The input of create: `input` with the images required on create. */
  readonly createInput: yup.AnyObjectSchema;
  readonly imageLabels: Record<string, string>;
  /** The keys of the sort allow-list. */
  readonly sortKeys: readonly string[];
  /** Checks and re-encodes the `<field>_file` uploads of an input, before any transaction. */
  prepareUploads: (input: yup.InferType<S>, work: Semaphore) => Promise<Uploads>;
  /** The checks of a create that need no transaction: the company within the actor's scope (403). */
  checkCreate: (actor: Actor, input: yup.InferType<S>) => void;
  /** The checks of an update before its transaction: the record in scope (404), the company (403). */
  checkUpdate: (db: Executor, actor: Actor, id: string, input: yup.InferType<S>) => Promise<void>;
  /** Creates the record; answers it as the API does. */
  create: (ctx: ServiceContext, input: yup.InferType<S>, uploads?: Uploads) => Promise<A>;
  /** Updates the record (a new upload replaces an image, an empty field removes it); answers it. */
  update: (ctx: ServiceContext, id: string, input: yup.InferType<S>, uploads?: Uploads) => Promise<A>;
  /**
   * Creates many records at once (an import's chunk, the demo): `create`'s checks (references
   * set-wise), one insert, the steps in batch form, one audit insert; answers in order. `extras`,
   * per input: its uploads, and `at` (when a write recorded after the fact took effect; default now).
   */
  createMany: (
    ctx: ServiceContext,
    inputs: readonly yup.InferType<S>[],
    extras?: readonly ({ uploads?: Uploads; at?: Date | undefined } | undefined)[],
  ) => Promise<A[]>;
  /** Updates many records at once, as `update` each (images kept); answers them in the order given. */
  updateMany: (
    ctx: ServiceContext,
    items: readonly { id: string; input: yup.InferType<S> }[],
  ) => Promise<A[]>;
  /** Deletes the record and its images, or answers `{success: false}` while rows refer to it. */
  remove: (ctx: ServiceContext, id: string) => Promise<DeleteResponse>;
}

const MOVE_REFUSED = 'Perusahaan tidak dapat diubah karena data ini sudah dipakai';

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

/** The reads and writes of a company-owned record from its description (no HTTP). */
export function defineResourceService<
  T extends CompanyOwnedTable,
  S extends yup.AnyObjectSchema,
  A extends { id: string; company_id: string },
  X extends string = never,
>(def: ResourceServiceDef<T, S, A, X>): ResourceService<S, A> {
  type In = yup.InferType<S>;
  const { table, entity } = def;
  const reads = defineResourceReads(def);
  const { find, findRow } = reads;
  const imageLabels = def.images?.labels ?? {};
  const imageFields = Object.keys(imageLabels);
  const withImages = imageFields.length > 0;

  const companyOf = (input: In) => String((input as { company_id: string }).company_id).toLowerCase();
  // A required image is required on create only: the create body says so (docs and 422 alike).
  const createInput = def.images?.requiredOnCreate
    ? def.input.shape(
        Object.fromEntries(
          imageFields.map((f) => [
            `${f}_file`,
            imageFileField(imageLabels[f]!).required(V.required(imageLabels[f]!)),
          ]),
        ),
      )
    : def.input;
  const requireUploads = (uploads: Uploads) => {
    if (!def.images?.requiredOnCreate) return;
    const missing = imageFields.filter((f) => !uploads[f]);
    if (missing.length)
      throw invalid(Object.fromEntries(missing.map((f) => [`${f}_file`, V.required(imageLabels[f]!)])));
  };

  /**
   * Every create and update, of one record or many, after their own checks: the description's
   * checks and extra columns (one call for all of them), the images, then the one write sequence
   * (services/write-sequence.ts): the rows written (one insert for all creates), the after-write
   * steps, one audit row each, the answers in the order of `items`.
   */
  type Item = { id: string; input: In; uploads: Uploads; current: Row<T> | null; before: A | null } & {
    at?: Date;
  };
  const store = async (
    ctx: ServiceContext,
    action: 'create' | 'update',
    items: Item[],
    /** On create: the companies written under, whose names a create's answer shows (it is made, not read). */
    owners?: ReadonlyMap<string, { id: string; name: string }>,
  ): Promise<A[]> => {
    const { tx } = ctx;
    const checked = items.map(({ input, current }) => ({ ctx, input, companyId: companyOf(input), current }));
    const extras = (await def.beforeWrite?.(checked)) ?? [];
    const now = ctx.clock.now();
    const writes: (Omit<Item, 'input' | 'uploads'> & {
      companyId: string;
      values: Record<string, unknown>;
    })[] = [];
    for (const [i, { id, input, uploads, current, before, at }] of items.entries()) {
      const companyId = companyOf(input);
      const images = withImages
        ? await applyImageFields(
            tx,
            imageLabels,
            input as Record<string, unknown>,
            uploads,
            (current ?? {}) as Partial<Record<string, string | null>>,
          )
        : {};
      const values: Record<string, unknown> = {
        ...(def.values(input) as Record<string, unknown>),
        ...(extras[i] ?? {}),
        ...images,
        ...(action === 'create' ? { id, created_at: at ?? now } : {}),
        company_id: companyId,
        updated_at: at ?? now,
      };
      writes.push({ id, companyId, current, before, values, at });
    }
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
      stored: (ids) => reads.rowsOf(tx, ids),
      // A create's answers from its stored rows and companies (read back where a step rewrote a
      // row, or the answer has figures of its own to count).
      answers: async (ids, rows) => {
        const made = new Map<string, A>();
        if (owners && !Object.keys(def.extras ?? {}).length)
          for (const [id, row] of rows ?? [])
            made.set(
              id,
              def.toAnswer({ row, company: owners.get(row.company_id)!, extra: {} as Record<X, number> }),
            );
        const unread = ids.filter((id) => !made.has(id));
        if (unread.length) for (const [id, answer] of await reads.answersOf(tx, unread)) made.set(id, answer);
        return made;
      },
    });
  };

  /** Creates records: company in scope (403) and existing (422), then `store`. */
  const createWrites = async (
    ctx: ServiceContext,
    items: { input: In; uploads: Uploads; at?: Date | undefined }[],
  ) => {
    const { tx, actor } = ctx;
    if (!items.length) return [];
    for (const { input } of items) checkCompanyInScope(actor.scope, companyOf(input));
    const owners = new Map<string, { id: string; name: string }>();
    for (const companyId of new Set(items.map(({ input }) => companyOf(input))))
      owners.set(companyId, await checkCompanyExists(tx, companyId));
    return store(
      ctx,
      'create',
      items.map((item) => ({ ...item, id: newId(), current: null, before: null })),
      owners,
    );
  };

  /**
   * Updates records in the actor's scope (404 otherwise): the new company in scope (403); a record
   * moved to another company needs it to exist (422) and nothing of its company to refer to it
   * (422); then `store`.
   */
  const updateWrites = async (ctx: ServiceContext, items: { id: string; input: In; uploads: Uploads }[]) => {
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
    const before = await reads.answersOf(tx, ids, actor.scope);
    for (const { id, input } of items) {
      const companyId = companyOf(input);
      if (current.get(id)!.company_id !== companyId) {
        await checkCompanyExists(tx, companyId);
        if (def.inUse && (await def.inUse(tx, id))) throw invalid({ company_id: MOVE_REFUSED });
      }
    }
    return store(
      ctx,
      'update',
      items.map((item) => ({ ...item, current: current.get(item.id)!, before: before.get(item.id) ?? null })),
    );
  };

  return {
    entity,
    input: def.input,
    createInput,
    imageLabels,
    sortKeys: Object.keys(def.sorts ?? {}),
    find,
    list: reads.list,

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

    createMany: (ctx, inputs, extras = []) =>
      createWrites(
        ctx,
        inputs.map((input, i) => ({ input, uploads: extras[i]?.uploads ?? {}, at: extras[i]?.at })),
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

    /**
     * Deletes a record within the actor's scope (404 outside it): a record in use answers
     * `{success: false, message}` and deletes nothing (docs/rules.md#records); otherwise the row and
     * its images go, through the write sequence (after-write steps, audit with the record as `before`).
     */
    async remove(ctx, id) {
      const { tx, actor } = ctx;
      const current = await findRow(tx, id, actor.scope);
      if (!current) throw notFound();
      if (def.inUse && (await def.inUse(tx, id))) return { success: false, message: MESSAGES.inUseOrder };
      const before = await find(tx, id, actor.scope);
      await runWriteSequence(ctx, {
        entity: def.entityName,
        auditEntity: entity,
        action: 'delete',
        writes: [{ id, companyId: current.company_id, current, before }],
        write: async () => {
          await tx.delete(table).where(eq(table.id, id));
          const row = current as Record<string, unknown>;
          await deleteImages(
            tx,
            imageFields.map((f) => row[f] as string | null),
          );
        },
      });
      return { success: true, message: MESSAGES.deleted };
    },
  };
}
