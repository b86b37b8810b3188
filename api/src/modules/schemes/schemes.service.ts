/**
 * The writes of schemes (docs/rules.md#entities, #validation, #calls, #permissions, #records, #data and #status), each one
 * function of a service context (services/context.ts) and its input, usable without HTTP:
 * - the client (404 when absent or outside the actor's scope: it is the record a scheme is written
 *   under), `company_id` equal to the client's, the certification type and the accreditation body
 *   of the client's company (422);
 * - `expired_date` computed from the issue date and the validity (`addValidity`), never taken from
 *   the input; `cert_number` unique across all companies (schemes_cert_number_uq answers);
 * - the QR carries the signed public check URL: made on demand (`refreshQr`); a stored one is made
 *   again when a signed field changes, none stays none (the after-write step services/signed-qr.ts
 *   decides that, for every way a signed field can change);
 * - every write handed to the after-write steps with the stored rows, then audited with the scheme
 *   as the API answers it after them (the status history is derived from those rows:
 *   services/scheme-history.ts), in the caller's transaction.
 */
import { eq } from 'drizzle-orm';
import type * as yup from 'yup';
import {
  type DeleteResponse,
  MESSAGES,
  type Scheme,
  type SchemeInput,
  schemeInputSchema,
  type SchemeStatus,
} from '@sertifikasi/shared-contracts';
import { insertRowsReturning, updateRows } from '../../db/insert-rows';
import { schemes } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { invalid, notFound } from '../../lib/errors';
import { runWriteSequence } from '../../services/write-sequence';
import type { ServiceContext } from '../../services/context';
import { SCHEME_AUDIT_ENTITY } from '../../services/scheme-history';
import { type PreparedQr, schemeQrs } from '../../services/signed-qr';
import { findScheme, findSchemeRows, findSchemes, type SchemeRow, toSchemeDto } from './schemes.repository';
import { addAudit, addAudits, removeAudit, updateAudit } from './scheme-audits.service';
import { changesCertificate } from './scheme-register';
import { columnsFor, type SchemeNames } from './scheme-columns';

/** The stored rows of schemes in the actor's scope; 404 when one is absent or outside it. */
async function rowsInScope(ctx: ServiceContext, ids: readonly string[]): Promise<Map<string, SchemeRow>> {
  const rows = await findSchemeRows(ctx.tx, ids, ctx.actor.scope);
  for (const id of ids) if (!rows.has(id)) throw notFound();
  return rows;
}

type SchemeWrite = {
  id: string;
  /** The stored row before (null on create). */
  current: SchemeRow | null;
  values: Partial<typeof schemes.$inferInsert>;
  /** What its answer shows of the records it points at (its answer is then made, not read). */
  names?: SchemeNames;
  /** The update changes what the certificate shows: its revision goes up by one. */
  revises?: boolean;
  /** When the write took effect (a write recorded after the fact: `Dated`); default: now. */
  at?: Date | undefined;
};

/**
 * When each write of a batch took effect, one per item (undefined: now), for writes recorded after
 * the fact (the demo's histories): the record's timestamps and its audit row's instant, from which
 * the status history is read.
 */
export type Dated = readonly (Date | undefined)[];

/**
 * Every scheme create and update, of one or many, through the one write sequence
 * (services/write-sequence.ts; docs/architecture.md#the-api-apisrc, "Writes, one or many"): the rows written (one insert for all creates, which answers
 * them as stored), every write handed to the after-write steps (in their batch form where they
 * have one) with the stored rows, the schemes as the API answers them after the steps (made from
 * the stored rows and the names read with the references; read back where a step rewrote the row,
 * the signed QR, or where no names were read), one audit row each (one insert), the answers in the order of `writes`.
 */
async function writeSequence(
  ctx: ServiceContext,
  action: 'create' | 'update',
  writes: readonly SchemeWrite[],
): Promise<Scheme[]> {
  if (!writes.length) return [];
  const { tx } = ctx;
  const ids = writes.map((w) => w.id);
  const today = ctx.clock.today();
  const before = action === 'update' ? await findSchemes(tx, ids, today) : new Map<string, Scheme>();
  const now = ctx.clock.now();
  return runWriteSequence<SchemeRow, Scheme>(ctx, {
    entity: 'scheme',
    auditEntity: SCHEME_AUDIT_ENTITY,
    action,
    writes: writes.map((w) => ({ id: w.id, current: w.current, before: before.get(w.id) ?? null, at: w.at })),
    write: async () => {
      if (action === 'create') {
        const rows = await insertRowsReturning(
          tx,
          schemes,
          writes.map(
            (w) =>
              ({
                ...w.values,
                id: w.id,
                qrcode: null,
                created_at: w.at ?? now,
                updated_at: w.at ?? now,
              }) as typeof schemes.$inferInsert,
          ),
        );
        return new Map(rows.map((r) => [r.id, r]));
      }
      // One statement per set of columns written (a batch's status changes, its QRs share theirs).
      const groups = new Map<string, SchemeWrite[]>();
      for (const w of writes) {
        const key = `${Object.keys(w.values).sort().join(',')}${w.revises ? '+revision' : ''}`;
        groups.set(key, [...(groups.get(key) ?? []), w]);
      }
      for (const group of groups.values()) {
        const columns = [...Object.keys(group[0]!.values), 'updated_at'];
        await updateRows(
          tx,
          schemes,
          columns,
          group.map((w) => ({ ...w.values, id: w.id, updated_at: w.at ?? now })),
          group[0]!.revises ? ['revision'] : [],
        );
      }
    },
    stored: (ids) => findSchemeRows(tx, ids, 'ALL'),
    answers: async (ids, rows) => {
      const made = new Map<string, Scheme>();
      for (const w of writes) {
        const row = rows?.get(w.id);
        if (row && w.names) made.set(w.id, toSchemeDto({ scheme: row, ...w.names }, today));
      }
      const unread = ids.filter((id) => !made.has(id));
      if (unread.length)
        for (const [id, answer] of await findSchemes(tx, unread, today)) made.set(id, answer);
      return made;
    },
  });
}

/**
 * Adds schemes to clients in the actor's scope (an import's chunk); answers them in order. Stored
 * without a QR. `at`: when each took effect (`Dated`).
 */
export async function createMany(
  ctx: ServiceContext,
  inputs: readonly SchemeInput[],
  at: Dated = [],
): Promise<Scheme[]> {
  if (!inputs.length) return [];
  const columns = await columnsFor(ctx, inputs);
  return writeSequence(
    ctx,
    'create',
    columns.map(({ values, names }, i) => ({ id: newId(), current: null, values, names, at: at[i] })),
  );
}

/** Updates schemes in the actor's scope (their stored QR follows: services/signed-qr.ts); answers them in order. */
export async function updateMany(
  ctx: ServiceContext,
  items: readonly { id: string; input: SchemeInput }[],
): Promise<Scheme[]> {
  if (!items.length) return [];
  const current = await rowsInScope(
    ctx,
    items.map((i) => i.id),
  );
  const columns = await columnsFor(
    ctx,
    items.map((i) => i.input),
  );
  return writeSequence(
    ctx,
    'update',
    items.map((item, i) => {
      const row = current.get(item.id)!;
      const { values, names } = columns[i]!;
      return { id: item.id, current: row, values, names, revises: changesCertificate(row, values) };
    }),
  );
}

/** Adds a scheme to a client in the actor's scope; answers it. Stored without a QR. */
export async function create(ctx: ServiceContext, input: SchemeInput): Promise<Scheme> {
  return (await createMany(ctx, [input]))[0]!;
}

/** Updates a scheme in the actor's scope (its stored QR follows: services/signed-qr.ts); answers it. */
export async function update(ctx: ServiceContext, id: string, input: SchemeInput): Promise<Scheme> {
  return (await updateMany(ctx, [{ id, input }]))[0]!;
}

/** The stored row of a scheme in the actor's scope; 404 when absent or outside it. */
async function rowInScope(ctx: ServiceContext, id: string): Promise<SchemeRow> {
  return (await rowsInScope(ctx, [id])).get(id)!;
}

/**
 * Sets the stored status of schemes in the actor's scope (422 for a status outside the
 * vocabulary); answers them in order. Each status history gains an entry effective the day of the
 * write (today, or its `at`). Setting the status a scheme already has writes nothing for it (no
 * audit row, no history entry). A scheme may appear more than once: its writes go in turn.
 */
export async function changeStatusMany(
  ctx: ServiceContext,
  items: readonly { id: string; status: SchemeStatus; at?: Date | undefined }[],
): Promise<Scheme[]> {
  const valid = items.map(({ status }) => {
    try {
      // The status rule of the form, not a copy of it.
      return schemeInputSchema.pick(['status']).validateSync({ status }).status;
    } catch (e) {
      throw invalid({ status: (e as yup.ValidationError).message });
    }
  });
  const answers = new Map<number, Scheme>();
  // One write sequence per round, each holding at most one write of a scheme.
  let left = items.map((item, i) => ({ ...item, status: valid[i]!, index: i }));
  while (left.length) {
    const seen = new Set<string>();
    const round = left.filter((item) => !seen.has(item.id) && !!seen.add(item.id));
    left = left.filter((item) => !round.includes(item));
    const current = await rowsInScope(
      ctx,
      round.map((item) => item.id),
    );
    const changes = round.filter((item) => current.get(item.id)!.status !== item.status);
    const written = await writeSequence(
      ctx,
      'update',
      changes.map((item) => ({
        id: item.id,
        current: current.get(item.id)!,
        values: { status: item.status },
        at: item.at,
      })),
    );
    changes.forEach((item, i) => answers.set(item.index, written[i]!));
    const unchanged = round.filter((item) => !changes.includes(item));
    if (unchanged.length) {
      const found = await findSchemes(
        ctx.tx,
        unchanged.map((item) => item.id),
        ctx.clock.today(),
      );
      for (const item of unchanged) answers.set(item.index, found.get(item.id)!);
    }
  }
  return items.map((_, i) => answers.get(i)!);
}

/** `changeStatusMany` for one scheme; answers it. */
export async function changeStatus(ctx: ServiceContext, id: string, status: SchemeStatus): Promise<Scheme> {
  return (await changeStatusMany(ctx, [{ id, status }]))[0]!;
}

/**
 * Makes and stores the signed QRs of schemes in the actor's scope (the signing key read once, the
 * images made a few at a time: services/signed-qr.ts `schemeQrs`); answers them in order.
 * `prepared` is a QR made before the transaction (`prepareSchemeQr`, so the transaction does not
 * wait for the image), used when it still encodes what the scheme signs to. `at`: as `Dated`.
 */
export async function refreshQrMany(
  ctx: ServiceContext,
  items: readonly { id: string; prepared?: PreparedQr | null; at?: Date | undefined }[],
): Promise<Scheme[]> {
  if (!items.length) return [];
  const current = await rowsInScope(
    ctx,
    items.map((i) => i.id),
  );
  const qrs = await schemeQrs(ctx.tx, ctx.config, items);
  return writeSequence(
    ctx,
    'update',
    items.map((item) => ({
      id: item.id,
      current: current.get(item.id)!,
      values: { qrcode: qrs.get(item.id) ?? null },
      at: item.at,
    })),
  );
}

/** `refreshQrMany` for one scheme; answers it. */
export async function refreshQr(
  ctx: ServiceContext,
  id: string,
  prepared?: PreparedQr | null,
): Promise<Scheme> {
  return (await refreshQrMany(ctx, [{ id, prepared }]))[0]!;
}

/** Deletes a scheme in the actor's scope (nothing refers to a scheme; its audit trail stays). */
export async function remove(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const current = await rowInScope(ctx, id);
  const before = await findScheme(ctx.tx, id, 'ALL', ctx.clock.today());
  await runWriteSequence(ctx, {
    entity: 'scheme',
    auditEntity: SCHEME_AUDIT_ENTITY,
    action: 'delete',
    writes: [{ id, companyId: current.company_id, current, before }],
    write: async () => {
      await ctx.tx.delete(schemes).where(eq(schemes.id, id));
    },
  });
  return { success: true, message: MESSAGES.deleted };
}

/** The scheme service: every write of a scheme, and of the audits done on it. */
export const schemeService = {
  create,
  createMany,
  update,
  updateMany,
  changeStatus,
  changeStatusMany,
  refreshQr,
  refreshQrMany,
  remove,
  addAudit,
  addAudits,
  updateAudit,
  removeAudit,
} as const;
