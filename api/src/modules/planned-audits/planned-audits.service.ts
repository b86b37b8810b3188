/**
 * Writes of the planned audits ('Rencana Audit', permission `audit-plan`;
 * docs/rules.md#auditors-and-planned-audits): plan, change, delete, 'Selesai' and 'Batalkan', each
 * through the one write sequence (services/write-sequence.ts) with its audit row and after-write
 * steps (the webhook events), every save checked by the team rules of shared-contracts'
 * audit-plan.ts (422, the field named), the team told through the outbox with an iCalendar
 * (notify/audit-invitations.ts). 'Selesai' records the audit done through the schemes' audits
 * service, as 'Jadwal Audit' does, so the certification cycle moves on.
 */
import { eq, inArray } from 'drizzle-orm';
import {
  ALL,
  type AuditDays,
  type DeleteResponse,
  initialAuditDays,
  MD5_QMS_BANDS,
  MESSAGES,
  type PlannedAudit,
  type PlannedAuditInput,
  type PlannedAuditKind,
  SCHEME_AUDIT_KINDS,
  type SchemeAuditKind,
  suggestedAuditDays,
  teamProblems,
} from '@sertifikasi/shared-contracts';
import { auditors, plannedAudits, plannedAuditTeam } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { invalid, notFound } from '../../lib/errors';
import { type Invitee, queueInvitations } from '../../notify/audit-invitations';
import type { ServiceContext } from '../../services/context';
import { recordWrites } from '../../services/record-writes';
import { addAudit } from '../schemes/scheme-audits.service';
import {
  findPlannedAudit,
  plannedAuditRow,
  type SchemeFacts,
  schemeFacts,
  teamOf,
} from './planned-audits.repository';
import { planReads } from './plan-reads.repository';

export const PLANNED_AUDIT_MESSAGES = {
  schemeMissing: 'Skema tidak ditemukan',
  otherCompany: 'Skema harus milik perusahaan yang sama dengan rencana audit',
  notPlanned: 'Rencana audit yang sudah selesai atau dibatalkan tidak dapat diubah',
  notStarted: 'Audit belum dimulai: tandai selesai setelah tanggal mulai',
} as const;

const days = (n: number) => String(n).replace('.', ',');

/**
 * The days suggested for an audit of `kind` of a scheme, and what they rest on: the client's
 * employees and the company's audit-days table read with the scheme (IAF MD 5's Table QMS 1 when
 * it has none).
 */
export function auditDaysOf(scheme: SchemeFacts, kind: PlannedAuditKind): AuditDays {
  if (scheme.employees === null)
    return { days: null, basis: 'Jumlah karyawan klien belum diisi: tidak ada saran' };
  const own = scheme.day_bands;
  const source = own ? 'tabel hari audit perusahaan' : 'IAF MD 5:2019 Tabel QMS 1';
  const initial = initialAuditDays(scheme.employees, own ?? MD5_QMS_BANDS);
  if (initial === null)
    return { days: null, basis: `${scheme.employees} karyawan: di luar ${source}, tentukan sendiri` };
  const suggested = suggestedAuditDays(kind, initial);
  const head = `${scheme.employees} karyawan: audit awal (tahap 1 + tahap 2) ${days(initial)} hari menurut ${source}`;
  if (suggested === null) return { days: null, basis: `${head}; tidak ada saran untuk jenis audit ini` };
  const share =
    kind === 'SURVEILLANCE'
      ? '; surveilan sepertiganya'
      : kind === 'RECERTIFICATION'
        ? '; resertifikasi dua pertiganya'
        : '';
  return {
    days: suggested,
    basis: `${head}${share}${share ? ', dibulatkan ke setengah hari terdekat' : ''}`,
  };
}

/** The scheme of a save in the actor's scope, of the company the input names if it names one; 422 otherwise. */
async function schemeOf(ctx: ServiceContext, input: PlannedAuditInput): Promise<SchemeFacts> {
  const scheme = await schemeFacts(ctx.tx, input.scheme_id.toLowerCase(), ctx.actor.scope);
  if (!scheme) throw invalid({ scheme_id: PLANNED_AUDIT_MESSAGES.schemeMissing });
  if (input.company_id && input.company_id.toLowerCase() !== scheme.company_id)
    throw invalid({ scheme_id: PLANNED_AUDIT_MESSAGES.otherCompany });
  return scheme;
}

/**
 * Checks a save by the team rules (422 naming the field) and answers the team as written. The
 * members' auditor rows are locked first, so two saves sharing a member check their clash one
 * after the other; then one statement reads the members and their clashing audits (planReads):
 * with the scheme's (and its audit-days table's), three round trips a save.
 */
async function checkPlan(
  ctx: ServiceContext,
  input: PlannedAuditInput,
  scheme: SchemeFacts,
  selfId: string | null,
) {
  const team = input.team.map((m) => ({ auditor_id: m.auditor_id.toLowerCase(), role: m.role }));
  const ids = [...new Set(team.map((m) => m.auditor_id))].sort();
  await ctx.tx
    .select({ id: auditors.id })
    .from(auditors)
    .where(inArray(auditors.id, ids))
    .orderBy(auditors.id)
    .for('update');
  const suggested = auditDaysOf(scheme, input.kind).days;
  const { auditors: members, others } = await planReads(
    ctx.tx,
    scheme.company_id,
    ids,
    input.start_date,
    input.end_date,
    selfId,
  );
  const problems = teamProblems({
    plan: { ...input, team },
    scheme: {
      certification_id: scheme.certification_id,
      client_id: scheme.client_id,
      sector_codes: scheme.sector_codes,
    },
    auditors: members,
    others,
    suggested,
  });
  if (Object.keys(problems).length) throw invalid(problems);
  return team;
}

const writePlannedAudits = recordWrites({
  entity: 'planned-audit',
  findRow: plannedAuditRow,
  find: (db, id) => findPlannedAudit(db, id, ALL),
});

const fields = (input: PlannedAuditInput) => ({
  kind: input.kind,
  start_date: input.start_date,
  end_date: input.end_date,
  audit_days: input.audit_days,
  days_reason: input.days_reason || null,
  notes: input.notes || null,
});

/**
 * The team of audit `id` replaced, each row with the audit's dates as just written (the team's
 * foreign key refuses others and moves them when the audit's dates change).
 */
async function writeTeam(
  ctx: ServiceContext,
  id: string,
  input: PlannedAuditInput,
  team: { auditor_id: string; role: string }[],
) {
  await ctx.tx.delete(plannedAuditTeam).where(eq(plannedAuditTeam.planned_audit_id, id));
  await ctx.tx.insert(plannedAuditTeam).values(
    team.map((m, position) => ({
      planned_audit_id: id,
      auditor_id: m.auditor_id,
      role: m.role,
      position,
      start_date: input.start_date,
      end_date: input.end_date,
    })),
  );
}

const membersOf = async (ctx: ServiceContext, id: string): Promise<Invitee[]> =>
  (await teamOf(ctx.tx, [id])).get(id) ?? [];

export async function createPlannedAudit(
  ctx: ServiceContext,
  input: PlannedAuditInput,
): Promise<PlannedAudit> {
  const scheme = await schemeOf(ctx, input);
  const team = await checkPlan(ctx, input, scheme, null);
  const id = newId();
  const now = ctx.clock.now();
  const [created] = await writePlannedAudits(
    ctx,
    'create',
    [{ id, companyId: scheme.company_id, current: null }],
    async () => {
      await ctx.tx.insert(plannedAudits).values({
        id,
        company_id: scheme.company_id,
        scheme_id: scheme.id,
        ...fields(input),
        state: 'PLANNED',
        sequence: 0,
        created_at: now,
        updated_at: now,
      });
      await writeTeam(ctx, id, input, team);
    },
  );
  await queueInvitations(ctx, created!, await membersOf(ctx, id), 'REQUEST');
  return created!;
}

/** A PLANNED audit in the actor's scope with its stored row and team; 404 or 422 otherwise. */
async function plannedInScope(ctx: ServiceContext, id: string) {
  const before = await findPlannedAudit(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  if (before.state !== 'PLANNED') throw invalid({ state: PLANNED_AUDIT_MESSAGES.notPlanned });
  const current = (await plannedAuditRow(ctx.tx, id))!;
  return { before, current, team: await membersOf(ctx, id) };
}

export async function updatePlannedAudit(
  ctx: ServiceContext,
  id: string,
  input: PlannedAuditInput,
): Promise<PlannedAudit> {
  const { before, current, team: beforeTeam } = await plannedInScope(ctx, id);
  const scheme = await schemeOf(ctx, input);
  if (scheme.company_id !== before.company_id)
    throw invalid({ scheme_id: PLANNED_AUDIT_MESSAGES.otherCompany });
  const team = await checkPlan(ctx, input, scheme, before.id);
  const [after] = await writePlannedAudits(
    ctx,
    'update',
    [{ id: before.id, companyId: before.company_id, current, before }],
    async () => {
      await ctx.tx
        .update(plannedAudits)
        .set({
          scheme_id: scheme.id,
          ...fields(input),
          sequence: current.sequence + 1,
          updated_at: ctx.clock.now(),
        })
        .where(eq(plannedAudits.id, before.id));
      await writeTeam(ctx, before.id, input, team);
    },
  );
  // Who is told: a new member is invited, the others when the dates moved, a member taken off is cancelled.
  const afterTeam = await membersOf(ctx, before.id);
  const was = new Set(beforeTeam.map((m) => m.auditor_id));
  const is = new Set(afterTeam.map((m) => m.auditor_id));
  const moved = before.start_date !== after!.start_date || before.end_date !== after!.end_date;
  await queueInvitations(
    ctx,
    after!,
    afterTeam.filter((m) => !was.has(m.auditor_id)),
    'REQUEST',
  );
  if (moved)
    await queueInvitations(
      ctx,
      after!,
      afterTeam.filter((m) => was.has(m.auditor_id)),
      'REQUEST',
      true,
    );
  await queueInvitations(
    ctx,
    after!,
    beforeTeam.filter((m) => !is.has(m.auditor_id)),
    'CANCEL',
  );
  return after!;
}

/** 'Batalkan': the audit CANCELLED, its team freed and told. */
export async function cancelPlannedAudit(ctx: ServiceContext, id: string): Promise<PlannedAudit> {
  const { before, current, team } = await plannedInScope(ctx, id);
  const [after] = await writePlannedAudits(
    ctx,
    'update',
    [{ id, companyId: before.company_id, current, before }],
    () =>
      ctx.tx
        .update(plannedAudits)
        .set({ state: 'CANCELLED', sequence: current.sequence + 1, updated_at: ctx.clock.now() })
        .where(eq(plannedAudits.id, before.id)),
  );
  await queueInvitations(ctx, after!, team, 'CANCEL');
  return after!;
}

/**
 * 'Selesai': the audit DONE and, for the kinds the certification cycle knows (surveillance,
 * recertification, special), an audit done of its scheme on its end date with its notes.
 */
export async function completePlannedAudit(ctx: ServiceContext, id: string): Promise<PlannedAudit> {
  const { before, current } = await plannedInScope(ctx, id);
  if (ctx.clock.today() < before.start_date) throw invalid({ start_date: PLANNED_AUDIT_MESSAGES.notStarted });
  const [after] = await writePlannedAudits(
    ctx,
    'update',
    [{ id, companyId: before.company_id, current, before }],
    () =>
      ctx.tx
        .update(plannedAudits)
        .set({ state: 'DONE', updated_at: ctx.clock.now() })
        .where(eq(plannedAudits.id, before.id)),
  );
  if ((SCHEME_AUDIT_KINDS as readonly string[]).includes(before.kind))
    await addAudit(ctx, before.scheme_id, {
      kind: before.kind as SchemeAuditKind,
      date: before.end_date,
      notes: before.notes ?? null,
    });
  return after!;
}

/** Deletes a planned audit of any state; the team of a PLANNED one is told it is cancelled. */
export async function removePlannedAudit(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const before = await findPlannedAudit(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  const current = (await plannedAuditRow(ctx.tx, id))!;
  const team = await membersOf(ctx, id);
  await writePlannedAudits(ctx, 'delete', [{ id, companyId: before.company_id, current, before }], () =>
    ctx.tx.delete(plannedAudits).where(eq(plannedAudits.id, before.id)),
  );
  if (before.state === 'PLANNED')
    await queueInvitations(ctx, { ...before, sequence: before.sequence + 1 }, team, 'CANCEL');
  return { success: true, message: MESSAGES.deleted };
}
