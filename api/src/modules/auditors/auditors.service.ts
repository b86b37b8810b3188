/**
 * Writes of the auditor register ('Auditor', permission `auditor`; docs/rules.md#auditors-and-planned-audits):
 * an auditor with its qualifications and conflicts (child rows, written again whole on every
 * save), through the one write sequence (services/write-sequence.ts), audited as the API answers
 * it. An auditor on a planned audit is not deleted (409): it is deactivated instead; nor is it moved
 * to another company (422 on `company_id`): its audits, qualifications and conflicts are its company's.
 */
import { and, eq, inArray } from 'drizzle-orm';
import {
  ALL,
  type Auditor,
  type AuditorInput,
  type DeleteResponse,
  MESSAGES,
} from '@sertifikasi/shared-contracts';
import {
  auditorConflicts,
  auditorQualifications,
  auditors,
  certificationTypes,
  clientCertificates,
  plannedAuditTeam,
} from '../../db/schema';
import { newId } from '../../lib/crypto';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { ServiceContext } from '../../services/context';
import {
  type RecordWrite,
  rowsById,
  runWriteSequence,
  type WriteAction,
} from '../../services/write-sequence';
import { checkCompanyExists, checkCompanyInScope } from '../resource/resource.service';
import { auditorRows, type AuditorRow, findAuditor } from './auditors.repository';

export const AUDITOR_IN_USE = 'Auditor masih tercatat pada rencana audit: nonaktifkan saja';
export const AUDITOR_COMPANY_LOCKED =
  'Auditor tercatat pada rencana audit perusahaan ini: perusahaannya tidak dapat diganti. Nonaktifkan dan tambahkan auditor di perusahaan lain';

/** Whether the auditor is on any planned audit (of any state; each is of the auditor's company). */
async function onAnyAudit(ctx: ServiceContext, auditorId: string): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ id: plannedAuditTeam.planned_audit_id })
    .from(plannedAuditTeam)
    .where(eq(plannedAuditTeam.auditor_id, auditorId))
    .limit(1);
  return row !== undefined;
}

/** 422 naming the child whose certification type or client is not the company's. */
async function checkReferences(ctx: ServiceContext, companyId: string, input: AuditorInput): Promise<void> {
  const typeIds = [...new Set(input.qualifications.map((q) => q.certification_id.toLowerCase()))];
  const clientIds = [...new Set(input.conflicts.map((c) => c.client_id.toLowerCase()))];
  const types = new Set(
    typeIds.length
      ? (
          await ctx.tx
            .select({ id: certificationTypes.id })
            .from(certificationTypes)
            .where(and(eq(certificationTypes.company_id, companyId), inArray(certificationTypes.id, typeIds)))
        ).map((r) => r.id)
      : [],
  );
  const clients = new Set(
    clientIds.length
      ? (
          await ctx.tx
            .select({ id: clientCertificates.id })
            .from(clientCertificates)
            .where(
              and(eq(clientCertificates.company_id, companyId), inArray(clientCertificates.id, clientIds)),
            )
        ).map((r) => r.id)
      : [],
  );
  const errors: Record<string, string> = {};
  input.qualifications.forEach((q, i) => {
    if (!types.has(q.certification_id.toLowerCase()))
      errors[`qualifications[${i}].certification_id`] = 'Jenis sertifikasi tidak ditemukan';
  });
  input.conflicts.forEach((c, i) => {
    if (!clients.has(c.client_id.toLowerCase()))
      errors[`conflicts[${i}].client_id`] = 'Klien tidak ditemukan';
  });
  if (Object.keys(errors).length) throw invalid(errors);
}

/** Writes the auditor's children again whole, in the order given. */
async function writeChildren(ctx: ServiceContext, id: string, input: AuditorInput): Promise<void> {
  await ctx.tx.delete(auditorQualifications).where(eq(auditorQualifications.auditor_id, id));
  await ctx.tx.delete(auditorConflicts).where(eq(auditorConflicts.auditor_id, id));
  if (input.qualifications.length)
    await ctx.tx.insert(auditorQualifications).values(
      input.qualifications.map((q, position) => ({
        id: newId(),
        auditor_id: id,
        certification_id: q.certification_id.toLowerCase(),
        role: q.role,
        sector_codes: [...new Set(q.sector_codes)].sort((a, b) => a - b),
        valid_from: q.valid_from,
        valid_until: q.valid_until ?? null,
        position,
      })),
    );
  if (input.conflicts.length)
    await ctx.tx.insert(auditorConflicts).values(
      input.conflicts.map((c, position) => ({
        id: newId(),
        auditor_id: id,
        client_id: c.client_id.toLowerCase(),
        reason: c.reason,
        until: c.until ?? null,
        position,
      })),
    );
}

/**
 * One write of an auditor through the one write sequence, its after-write steps included (the list
 * version of its company: 'Rencana Audit' and 'Kalender Auditor' show auditors' names).
 */
const writeAuditor = async (
  ctx: ServiceContext,
  action: WriteAction,
  write: Omit<RecordWrite<AuditorRow>, 'current'>,
  run: () => Promise<unknown>,
): Promise<Auditor | undefined> => {
  const current =
    action === 'create' ? null : ((await auditorRows(ctx.tx, [write.id])).get(write.id) ?? null);
  return (
    await runWriteSequence<AuditorRow, Auditor>(ctx, {
      entity: 'auditor',
      auditEntity: 'auditor',
      action,
      writes: [{ ...write, current }],
      write: async () => {
        await run();
      },
      stored: (ids) => auditorRows(ctx.tx, ids),
      answers: (ids) => rowsById(ids, (id) => findAuditor(ctx.tx, id, ALL)),
    })
  )[0];
};

const fields = (input: AuditorInput) => ({
  name: input.name,
  email: input.email || null,
  phone: input.phone || null,
  employment: input.employment,
  active: input.active === 'true',
});

export async function createAuditor(ctx: ServiceContext, input: AuditorInput): Promise<Auditor> {
  const companyId = input.company_id.toLowerCase();
  checkCompanyInScope(ctx.actor.scope, companyId);
  await checkCompanyExists(ctx.tx, companyId);
  await checkReferences(ctx, companyId, input);
  const id = newId();
  const now = ctx.clock.now();
  const created = await writeAuditor(ctx, 'create', { id, companyId }, async () => {
    await ctx.tx
      .insert(auditors)
      .values({ id, company_id: companyId, ...fields(input), created_at: now, updated_at: now });
    await writeChildren(ctx, id, input);
  });
  return created!;
}

export async function updateAuditor(ctx: ServiceContext, id: string, input: AuditorInput): Promise<Auditor> {
  const before = await findAuditor(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  const companyId = input.company_id.toLowerCase();
  checkCompanyInScope(ctx.actor.scope, companyId);
  await checkCompanyExists(ctx.tx, companyId);
  if (companyId !== before.company_id) {
    // Locked as a planned-audit save locks its members: none can put the auditor on a team meanwhile.
    await ctx.tx.select({ id: auditors.id }).from(auditors).where(eq(auditors.id, before.id)).for('update');
    if (await onAnyAudit(ctx, before.id)) throw invalid({ company_id: AUDITOR_COMPANY_LOCKED });
  }
  await checkReferences(ctx, companyId, input);
  const after = await writeAuditor(ctx, 'update', { id: before.id, companyId, before }, async () => {
    await ctx.tx
      .update(auditors)
      .set({ company_id: companyId, ...fields(input), updated_at: ctx.clock.now() })
      .where(eq(auditors.id, before.id));
    await writeChildren(ctx, before.id, input);
  });
  return after!;
}

/** Deletes an auditor on no planned audit (of any state); 409 otherwise. */
export async function removeAuditor(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const before = await findAuditor(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  if (await onAnyAudit(ctx, before.id)) throw conflict(AUDITOR_IN_USE);
  await writeAuditor(ctx, 'delete', { id: before.id, companyId: before.company_id, before }, () =>
    ctx.tx.delete(auditors).where(eq(auditors.id, before.id)),
  );
  return { success: true, message: MESSAGES.deleted };
}
