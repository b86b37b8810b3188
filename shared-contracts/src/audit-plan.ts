/**
 * Auditors and planned audits (docs/rules.md#auditors-and-planned-audits): the vocabularies, the
 * audit-days table (IAF MD 5:2019, Table QMS 1) and the team rules, pure functions that the API
 * enforces on every save and the form shows while it is filled in. The wire shapes are in
 * `audit-plan-wire.ts`.
 */
import { daysBetween } from './dates';

/** What a planned audit is. */
export const PLANNED_AUDIT_KINDS = [
  'STAGE1',
  'STAGE2',
  'SURVEILLANCE',
  'RECERTIFICATION',
  'SPECIAL',
] as const;
export type PlannedAuditKind = (typeof PLANNED_AUDIT_KINDS)[number];
export const PLANNED_AUDIT_KIND_LABELS: Record<PlannedAuditKind, string> = {
  STAGE1: 'Tahap 1',
  STAGE2: 'Tahap 2',
  SURVEILLANCE: 'Surveilan',
  RECERTIFICATION: 'Resertifikasi',
  SPECIAL: 'Khusus',
};

/** What an auditor is qualified as (a lead auditor may also act as auditor). */
export const QUALIFICATION_ROLES = ['LEAD_AUDITOR', 'AUDITOR', 'TECHNICAL_EXPERT'] as const;
export type QualificationRole = (typeof QUALIFICATION_ROLES)[number];
/** A member's role on an audit's team. */
export const TEAM_ROLES = [...QUALIFICATION_ROLES, 'TRAINEE'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  LEAD_AUDITOR: 'Lead Auditor',
  AUDITOR: 'Auditor',
  TECHNICAL_EXPERT: 'Tenaga Ahli',
  TRAINEE: 'Auditor Magang',
};

export const PLANNED_AUDIT_STATES = ['PLANNED', 'DONE', 'CANCELLED'] as const;
export type PlannedAuditState = (typeof PLANNED_AUDIT_STATES)[number];
export const PLANNED_AUDIT_STATE_LABELS: Record<PlannedAuditState, string> = {
  PLANNED: 'Direncanakan',
  DONE: 'Selesai',
  CANCELLED: 'Dibatalkan',
};

export const EMPLOYMENTS = ['INTERNAL', 'EXTERNAL'] as const;
export type Employment = (typeof EMPLOYMENTS)[number];
export const EMPLOYMENT_LABELS: Record<Employment, string> = { INTERNAL: 'Internal', EXTERNAL: 'Eksternal' };

// ---------------------------------------------------------------------------------------------
// Audit days
// ---------------------------------------------------------------------------------------------

/** One band of the table: up to `max_employees` (from the band before it), `days` of initial audit. */
export interface AuditDayBand {
  max_employees: number;
  days: number;
}

/**
 * IAF MD 5:2019 Table QMS 1: effective personnel to initial audit time (stage 1 + stage 2), in
 * audit days. Above the last band the document asks to follow the progression: no suggestion.
 */
export const MD5_QMS_BANDS: readonly AuditDayBand[] = [
  [5, 1.5],
  [10, 2],
  [15, 2.5],
  [25, 3],
  [45, 4],
  [65, 5],
  [85, 6],
  [125, 7],
  [175, 8],
  [275, 9],
  [425, 10],
  [625, 11],
  [875, 12],
  [1175, 13],
  [1550, 14],
  [2025, 15],
  [2675, 16],
  [3450, 17],
  [4350, 18],
  [5450, 19],
  [6800, 20],
  [8500, 21],
  [10700, 22],
].map(([max_employees, days]) => ({ max_employees: max_employees!, days: days! }));

/** The initial audit days of `employees` by `bands` (sorted by max_employees); null beyond the last. */
export function initialAuditDays(employees: number, bands: readonly AuditDayBand[] = MD5_QMS_BANDS) {
  const sorted = [...bands].sort((a, b) => a.max_employees - b.max_employees);
  return sorted.find((band) => Math.max(employees, 1) <= band.max_employees)?.days ?? null;
}

/**
 * `days` times `num / den` to the nearest half day, as IAF MD 5 adjusts a decimal result (5.3 days
 * becomes 5.5, 5.2 becomes 5; a third or two thirds never falls halfway), at least half a day;
 * counted in whole half days, so no float drift.
 */
const nearestHalfDays = (days: number, num: number, den: number): number =>
  Math.max(1, Math.round((Math.round(days * 2) * num) / den)) / 2;

/**
 * The days suggested for an audit of `kind` given the initial audit days: STAGE2 the initial
 * audit's (stage 1 + stage 2) whole, SURVEILLANCE a third and RECERTIFICATION two thirds of it,
 * to the nearest half day; STAGE1 and SPECIAL none (set by whoever plans them).
 */
export function suggestedAuditDays(kind: PlannedAuditKind, initial: number | null): number | null {
  if (initial === null) return null;
  if (kind === 'STAGE2') return initial;
  if (kind === 'SURVEILLANCE') return nearestHalfDays(initial, 1, 3);
  if (kind === 'RECERTIFICATION') return nearestHalfDays(initial, 2, 3);
  return null;
}

// ---------------------------------------------------------------------------------------------
// The team rules
// ---------------------------------------------------------------------------------------------

/** What the rules read of an auditor. */
export interface RuleAuditor {
  id: string;
  name: string;
  active: boolean;
  qualifications: readonly {
    certification_id: string;
    role: QualificationRole;
    sector_codes: readonly number[];
    valid_from: string;
    valid_until: string | null;
  }[];
  conflicts: readonly { client_id: string; reason: string; until: string | null }[];
}

/** What the rules read of the audit being saved. */
export interface RulePlan {
  start_date: string;
  end_date: string;
  audit_days: number;
  days_reason?: string | null;
  team: readonly { auditor_id: string; role: TeamRole }[];
}

/** What the rules read of the audit's scheme: its type, its client and its sector codes. */
export interface RuleScheme {
  certification_id: string;
  client_id: string;
  sector_codes: readonly number[];
}

/** Another PLANNED audit of the company: its dates, team and how to name it in a message. */
export interface RuleOtherAudit {
  label: string;
  start_date: string;
  end_date: string;
  auditor_ids: readonly string[];
}

export interface RuleInput {
  plan: RulePlan;
  scheme: RuleScheme;
  /** The team's auditors by id (one missing is refused as unknown). */
  auditors: ReadonlyMap<string, RuleAuditor>;
  /** The other PLANNED audits that share a member with the team (the audit itself left out). */
  others: readonly RuleOtherAudit[];
  /** The suggested days (suggestedAuditDays), or null when there is none. */
  suggested: number | null;
}

export const AUDIT_PLAN_MESSAGES = {
  endBeforeStart: 'Tanggal selesai tidak boleh sebelum tanggal mulai',
  oneLead: 'Tim harus memiliki tepat satu Lead Auditor',
  unknown: 'Auditor tidak ditemukan',
  twice: 'Auditor sudah ada di tim',
  inactive: (name: string) => `Auditor ${name} tidak aktif`,
  unqualified: (name: string, role: string) =>
    `${name} tidak memiliki kualifikasi ${role} yang berlaku untuk jenis sertifikasi ini pada seluruh tanggal audit`,
  sectors: (codes: readonly number[]) =>
    `Kode sektor ${codes.join(', ')} tidak dicakup kualifikasi anggota tim`,
  conflict: (name: string, reason: string) => `${name} memiliki konflik kepentingan dengan klien: ${reason}`,
  clash: (name: string, other: string) => `Bentrok jadwal: ${name} sudah bertugas pada ${other}`,
  daysBelow: (suggested: number) =>
    `Hari audit di bawah saran (${suggested} hari): isi alasan pada Alasan Hari Audit`,
} as const;

/** Whether two date ranges (inclusive, `YYYY-MM-DD`) share a day: ending on D and starting D+1 do not. */
export const rangesOverlap = (aStart: string, aEnd: string, bStart: string, bEnd: string): boolean =>
  aStart <= bEnd && bStart <= aEnd;

/** Whether a qualification (from..until, until open when null) is valid on every day from..to. */
export const validThroughout = (
  q: { valid_from: string; valid_until: string | null },
  from: string,
  to: string,
) => q.valid_from <= from && (q.valid_until === null || q.valid_until >= to);

/** Whether a conflict (until a day, or open) is still current on an audit starting `start`. */
export const conflictCurrent = (c: { until: string | null }, start: string): boolean =>
  c.until === null || c.until >= start;

/** The roles whose qualification is required, and which qualification roles satisfy each. */
const SATISFIED_BY: Partial<Record<TeamRole, readonly QualificationRole[]>> = {
  LEAD_AUDITOR: ['LEAD_AUDITOR'],
  AUDITOR: ['AUDITOR', 'LEAD_AUDITOR'],
};

/**
 * Every refusal of a save, by field (`end_date`, `team`, `team[i].auditor_id`, `audit_days`), in
 * Indonesian; empty when the audit may be saved. The first problem of a field wins.
 */
export function teamProblems({
  plan,
  scheme,
  auditors,
  others,
  suggested,
}: RuleInput): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (field: string, message: string) => {
    out[field] ??= message;
  };
  const { start_date: start, end_date: end } = plan;
  const datesOk = daysBetween(start, end) >= 0;
  if (!datesOk) put('end_date', AUDIT_PLAN_MESSAGES.endBeforeStart);
  const leads = plan.team.filter((m) => m.role === 'LEAD_AUDITOR').length;
  if (leads !== 1) put('team', AUDIT_PLAN_MESSAGES.oneLead);
  const seen = new Set<string>();
  const covered = new Set<number>();
  plan.team.forEach((member, i) => {
    const field = `team[${i}].auditor_id`;
    const auditor = auditors.get(member.auditor_id);
    if (!auditor) return put(field, AUDIT_PLAN_MESSAGES.unknown);
    if (seen.has(auditor.id)) put(field, AUDIT_PLAN_MESSAGES.twice);
    seen.add(auditor.id);
    if (!auditor.active) put(field, AUDIT_PLAN_MESSAGES.inactive(auditor.name));
    const valid = auditor.qualifications.filter(
      (q) => q.certification_id === scheme.certification_id && datesOk && validThroughout(q, start, end),
    );
    const needs = SATISFIED_BY[member.role];
    if (needs && !valid.some((q) => needs.includes(q.role)))
      put(
        field,
        AUDIT_PLAN_MESSAGES.unqualified(auditor.name, member.role === 'AUDITOR' ? 'Auditor' : 'Lead Auditor'),
      );
    if (member.role !== 'TRAINEE')
      for (const q of valid) for (const code of q.sector_codes) covered.add(code);
    const conflict = auditor.conflicts.find(
      (c) => c.client_id === scheme.client_id && conflictCurrent(c, start),
    );
    if (conflict) put(field, AUDIT_PLAN_MESSAGES.conflict(auditor.name, conflict.reason));
    const clash = datesOk
      ? others.find(
          (o) => o.auditor_ids.includes(auditor.id) && rangesOverlap(start, end, o.start_date, o.end_date),
        )
      : undefined;
    if (clash) put(field, AUDIT_PLAN_MESSAGES.clash(auditor.name, clash.label));
  });
  const missing = scheme.sector_codes.filter((code) => !covered.has(code));
  if (missing.length && plan.team.length) put('team', AUDIT_PLAN_MESSAGES.sectors(missing));
  if (suggested !== null && plan.audit_days < suggested && !plan.days_reason?.trim())
    put('audit_days', AUDIT_PLAN_MESSAGES.daysBelow(suggested));
  return out;
}
