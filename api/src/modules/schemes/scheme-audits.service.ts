/**
 * The audits done on a scheme ('Riwayat Audit', docs/product.md "The certification cycle"): written
 * under their scheme (in the actor's scope, else 404), audited like any write; the cycle's item due
 * of the scheme follows (the after-write step services/cycle-due.ts).
 */
import { asc, eq } from 'drizzle-orm';
import {
  type DeleteResponse,
  MESSAGES,
  type SchemeAudit,
  type SchemeAuditInput,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { schemeAudits } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { notFound } from '../../lib/errors';
import type { ServiceContext } from '../../services/context';
import { recordWrites } from '../../services/record-writes';
import { runWriteSequence } from '../../services/write-sequence';
import { insertRowsReturning } from '../../db/insert-rows';
import { findSchemeRows } from './schemes.repository';

/** The audit entity of audits done, in the audit log. */
export const SCHEME_AUDIT_DONE_ENTITY = 'scheme-audit';

type AuditDoneRow = typeof schemeAudits.$inferSelect;

const auditDto = (row: AuditDoneRow): SchemeAudit => ({
  id: row.id,
  scheme_id: row.scheme_id,
  kind: row.kind as SchemeAudit['kind'],
  date: row.date,
  notes: row.notes,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The audits done on a scheme (any scope: callers check the scheme's), newest first. */
export async function auditsOfScheme(db: Executor, schemeId: string): Promise<SchemeAudit[]> {
  const rows = await db
    .select()
    .from(schemeAudits)
    .where(eq(schemeAudits.scheme_id, schemeId))
    .orderBy(asc(schemeAudits.date), asc(schemeAudits.created_at));
  return rows.reverse().map(auditDto);
}

/** An audit done whose scheme is in the actor's scope; 404 otherwise. */
async function auditInScope(ctx: ServiceContext, id: string): Promise<AuditDoneRow> {
  const [row] = await ctx.tx.select().from(schemeAudits).where(eq(schemeAudits.id, id)).limit(1);
  if (!row || !(await findSchemeRows(ctx.tx, [row.scheme_id], ctx.actor.scope)).has(row.scheme_id))
    throw notFound();
  return row;
}

/** The audit done of `id`, as stored. */
const auditDoneRow = async (db: Executor, id: string): Promise<AuditDoneRow | undefined> =>
  (await db.select().from(schemeAudits).where(eq(schemeAudits.id, id)).limit(1))[0];

/** A write of one audit done through the one write sequence (services/record-writes.ts). */
const writeAuditsDone = recordWrites<AuditDoneRow, SchemeAudit>({
  entity: SCHEME_AUDIT_DONE_ENTITY,
  findRow: auditDoneRow,
  find: async (db, id) => {
    const row = await auditDoneRow(db, id);
    return row && auditDto(row);
  },
});

/**
 * Records audits done on schemes in the actor's scope (404 when one is not), one insert for all of
 * them, through the one write sequence; answers them in order. `at`: when each was recorded (a
 * write recorded after the fact, the demo's; default: now).
 */
export async function addAudits(
  ctx: ServiceContext,
  items: readonly { schemeId: string; input: SchemeAuditInput; at?: Date | undefined }[],
): Promise<SchemeAudit[]> {
  if (!items.length) return [];
  const schemes = await findSchemeRows(ctx.tx, [...new Set(items.map((i) => i.schemeId))], ctx.actor.scope);
  const now = ctx.clock.now();
  const rows = items.map(({ schemeId, input, at }): AuditDoneRow => {
    const scheme = schemes.get(schemeId);
    if (!scheme) throw notFound();
    return {
      id: newId(),
      scheme_id: scheme.id,
      company_id: scheme.company_id,
      kind: input.kind,
      date: input.date,
      notes: input.notes ?? null,
      created_at: at ?? now,
      updated_at: at ?? now,
    };
  });
  return runWriteSequence<AuditDoneRow, SchemeAudit>(ctx, {
    entity: SCHEME_AUDIT_DONE_ENTITY,
    auditEntity: SCHEME_AUDIT_DONE_ENTITY,
    action: 'create',
    writes: rows.map((row, i) => ({
      id: row.id,
      companyId: row.company_id,
      current: null,
      at: items[i]!.at,
    })),
    write: async () => {
      const stored = await insertRowsReturning(ctx.tx, schemeAudits, rows);
      return new Map(stored.map((r) => [r.id, r]));
    },
    answers: async (_, stored) =>
      new Map(
        rows.map((row) => {
          const s = stored?.get(row.id);
          return [row.id, auditDto(s ?? row)];
        }),
      ),
  });
}

/** Records an audit done on a scheme in the actor's scope (`addAudits`); answers it. */
export async function addAudit(
  ctx: ServiceContext,
  schemeId: string,
  input: SchemeAuditInput,
): Promise<SchemeAudit> {
  return (await addAudits(ctx, [{ schemeId, input }]))[0]!;
}

/** Changes an audit done (its scheme in the actor's scope); answers it. */
export async function updateAudit(
  ctx: ServiceContext,
  id: string,
  input: SchemeAuditInput,
): Promise<SchemeAudit> {
  const current = await auditInScope(ctx, id);
  const [answer] = await writeAuditsDone(
    ctx,
    'update',
    [{ id, companyId: current.company_id, current, before: auditDto(current) }],
    () =>
      ctx.tx
        .update(schemeAudits)
        .set({ kind: input.kind, date: input.date, notes: input.notes ?? null, updated_at: ctx.clock.now() })
        .where(eq(schemeAudits.id, id)),
  );
  return answer!;
}

/** Deletes an audit done (its scheme in the actor's scope). */
export async function removeAudit(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const current = await auditInScope(ctx, id);
  await writeAuditsDone(
    ctx,
    'delete',
    [{ id, companyId: current.company_id, current, before: auditDto(current) }],
    () => ctx.tx.delete(schemeAudits).where(eq(schemeAudits.id, id)),
  );
  return { success: true, message: MESSAGES.deleted };
}
