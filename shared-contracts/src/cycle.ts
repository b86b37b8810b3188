import * as yup from 'yup';
import { addDays, addMonths, daysBetween, requiredDate } from './dates';
import { idListParam } from './dashboard';
import { optionalText, requiredOneOf, trimString } from './fields';
import { listQuerySchema } from './list';
import { V } from './messages';
import { REPORT_TYPES, type ReportColumn, type ReportType } from './report';

/**
 * The certification cycle (docs/product.md, "The certification cycle"): the audits done on a scheme
 * and what is due next for it. The one place of the due rules: the API keeps its stored due items
 * with `cycleDue`, the screen and the export show `cycleState` and `daysLeft`, the demo generator
 * picks its dates with them.
 */

/** The audits done on a scheme ('Riwayat Audit'). */
export const SCHEME_AUDIT_KINDS = ['SURVEILLANCE', 'RECERTIFICATION', 'SPECIAL'] as const;
export type SchemeAuditKind = (typeof SCHEME_AUDIT_KINDS)[number];
export const SCHEME_AUDIT_KIND_LABELS: Record<SchemeAuditKind, string> = {
  SURVEILLANCE: 'Surveilan',
  RECERTIFICATION: 'Resertifikasi',
  SPECIAL: 'Khusus',
};

/** What can be due for a scheme. */
export const CYCLE_KINDS = ['SURVEILLANCE', 'RECERTIFICATION', 'SUSPENSION_LIMIT'] as const;
export type CycleKind = (typeof CYCLE_KINDS)[number];
export const CYCLE_KIND_LABELS: Record<CycleKind, string> = {
  SURVEILLANCE: 'Surveilan',
  RECERTIFICATION: 'Resertifikasi',
  SUSPENSION_LIMIT: 'Batas Penangguhan',
};

/** How near a due date is, on a given day. */
export const CYCLE_STATES = ['LATE', 'SOON', 'UPCOMING', 'LATER'] as const;
export type CycleState = (typeof CYCLE_STATES)[number];
export const CYCLE_STATE_LABELS: Record<CycleState, string> = {
  LATE: 'Terlambat',
  SOON: 'Segera',
  UPCOMING: 'Mendatang',
  LATER: 'Nanti',
};

/** The rule's numbers. */
export const CYCLE_RULES = {
  /** A surveillance audit is due this many months after the last one (or the decision). */
  surveillanceMonths: 12,
  /** A surveillance due this close to the expiry (or after it) gives way to the recertification. */
  recertificationDays: 90,
  /** A suspension may last this many months. */
  suspensionMonths: 6,
  /** 'Segera': due within this many days. */
  soonDays: 30,
  /** 'Mendatang': due within this many days. */
  upcomingDays: 90,
} as const;

/** What the rule reads of a scheme. */
export interface CycleScheme {
  /** A SchemeStatus (any other text has nothing due). */
  status: string;
  issue_date: string;
  decision_date: string | null;
  expired_date: string;
}

/** What the rule reads of an audit done. */
export interface CycleAudit {
  /** A SchemeAuditKind (only SURVEILLANCE and RECERTIFICATION move the surveillance). */
  kind: string;
  date: string;
}

/** What the rule reads of the status history (oldest first; `effective_from` `YYYY-MM-DD`). */
export interface CycleHistoryEntry {
  to: string;
  effective_from: string;
}

/** The item due for a scheme: what, and when. */
export interface CycleDue {
  kind: CycleKind;
  due_date: string;
}

/**
 * The day a SUSPENDED scheme became SUSPENDED: the start of the last stretch of SUSPENDED in its
 * history; the issue date when the history does not say (a record brought in without one).
 */
export function suspendedSince(history: readonly CycleHistoryEntry[], issueDate: string): string {
  let since: string | null = null;
  for (const entry of history) {
    if (entry.to !== 'SUSPENDED') since = null;
    else since ??= entry.effective_from;
  }
  return since ?? issueDate;
}

/**
 * What is due next for a scheme, whatever today is (so a stored item stays right as days pass):
 * - SUSPENDED: the suspension limit, six months after the day it became SUSPENDED;
 * - ACTIVE: the next surveillance, twelve months after the last surveillance or recertification
 *   audit, else after the decision date, else after the issue date; when that falls within 90 days
 *   of the expiry date or after it, the recertification, due on the expiry date;
 * - any other status: nothing (null).
 * Whether the item is listed on a given day is `isCycleListed`.
 */
export function cycleDue(
  scheme: CycleScheme,
  audits: readonly CycleAudit[],
  history: readonly CycleHistoryEntry[],
): CycleDue | null {
  if (scheme.status === 'SUSPENDED') {
    return {
      kind: 'SUSPENSION_LIMIT',
      due_date: addMonths(suspendedSince(history, scheme.issue_date), CYCLE_RULES.suspensionMonths),
    };
  }
  if (scheme.status !== 'ACTIVE') return null;
  let last: string | null = null;
  for (const audit of audits) {
    if ((audit.kind === 'SURVEILLANCE' || audit.kind === 'RECERTIFICATION') && (!last || audit.date > last))
      last = audit.date;
  }
  const from = last ?? scheme.decision_date ?? scheme.issue_date;
  const surveillance = addMonths(from, CYCLE_RULES.surveillanceMonths);
  if (surveillance >= addDays(scheme.expired_date, -CYCLE_RULES.recertificationDays)) {
    return { kind: 'RECERTIFICATION', due_date: scheme.expired_date };
  }
  return { kind: 'SURVEILLANCE', due_date: surveillance };
}

/**
 * Whether a scheme's item is listed today: a SUSPENDED scheme always (its limit), an ACTIVE one
 * while it has not expired (an expired one is KADALUARSA, out of the cycle).
 */
export function isCycleListed(status: string, expiredDate: string, today: string): boolean {
  return status === 'SUSPENDED' || (status === 'ACTIVE' && expiredDate >= today);
}

/** Days from today to the due date (negative when late). */
export const daysLeft = (dueDate: string, today: string): number => daysBetween(today, dueDate);

/**
 * The app's today as an answered item was counted on (its due date less its days left): what a
 * screen starts a date with, from the server's clock and time zone rather than the browser's.
 */
export const todayOfItem = (item: { due_date: string; days_left: number }): string =>
  addDays(item.due_date, -item.days_left);

/** The state of an item due on `dueDate`, on `today`. */
export function cycleState(dueDate: string, today: string): CycleState {
  if (dueDate < today) return 'LATE';
  if (dueDate <= addDays(today, CYCLE_RULES.soonDays)) return 'SOON';
  if (dueDate <= addDays(today, CYCLE_RULES.upcomingDays)) return 'UPCOMING';
  return 'LATER';
}

/** The schedule's window filter: late only, due within 30 or 90 days (late included), or all. */
export const CYCLE_WINDOWS = ['late', '30', '90', 'all'] as const;
export type CycleWindow = (typeof CYCLE_WINDOWS)[number];
export const CYCLE_WINDOW_LABELS: Record<CycleWindow, string> = {
  late: 'Terlambat',
  '30': '30 hari',
  '90': '90 hari',
  all: 'Semua',
};

/** The last due date a window takes on `today` (exclusive for 'late'); null for 'all'. */
export function windowEnd(window: CycleWindow, today: string): { before?: string; through?: string } {
  if (window === 'late') return { before: today };
  if (window === '30') return { through: addDays(today, CYCLE_RULES.soonDays) };
  if (window === '90') return { through: addDays(today, CYCLE_RULES.upcomingDays) };
  return {};
}

// ---------------------------------------------------------------------------------------------
// Wire shapes
// ---------------------------------------------------------------------------------------------

/** An audit done, as written ('Riwayat Audit': add and edit). */
export const schemeAuditInputSchema = yup
  .object({
    kind: requiredOneOf('Jenis Audit', SCHEME_AUDIT_KINDS),
    date: requiredDate('Tanggal Audit'),
    notes: optionalText('Catatan', 2000, { multiline: true }),
  })
  .noUnknown(V.unknown);
export type SchemeAuditInput = yup.InferType<typeof schemeAuditInputSchema>;

/** An audit done, as the API answers it. */
export const schemeAuditSchema = yup.object({
  id: yup.string().defined(),
  scheme_id: yup.string().defined(),
  kind: yup
    .string()
    .oneOf([...SCHEME_AUDIT_KINDS])
    .defined(),
  date: yup.string().defined(),
  notes: yup.string().nullable().defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type SchemeAudit = yup.InferType<typeof schemeAuditSchema>;

/** `GET audit-schedule/{company_id}`: the query (the list's page, size and search, as the reports). */
export const auditScheduleQuerySchema = listQuerySchema
  .pick(['page', 'paginate', 'search'])
  .shape({
    type: yup
      .string<ReportType>()
      .typeError(V.oneOf('Tipe'))
      .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
      .oneOf([...REPORT_TYPES], V.oneOf('Tipe'))
      .default('table'),
    window: yup
      .string<CycleWindow>()
      .typeError(V.oneOf('Jangka Waktu'))
      .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
      .oneOf([...CYCLE_WINDOWS], V.oneOf('Jangka Waktu'))
      .default('all'),
    certification: idListParam('Sertifikat'),
  })
  .noUnknown('Parameter tidak dikenal: ${unknown}');
export type AuditScheduleQuery = yup.InferType<typeof auditScheduleQuerySchema>;

/** One row of the schedule: one item due. */
export const auditScheduleRowSchema = yup.object({
  scheme_id: yup.string().defined(),
  company_id: yup.string().defined(),
  company_name: yup.string().defined(),
  certificate_id: yup.string().defined(),
  client_name: yup.string().defined(),
  client_logo: yup.string().nullable().defined(),
  certification_id: yup.string().defined(),
  cert_name: yup.string().defined(),
  cert_number: yup.string().defined(),
  kind: yup
    .string()
    .oneOf([...CYCLE_KINDS])
    .defined(),
  due_date: yup.string().defined(),
  /** The planned date staff entered (`surveillance_date`), shown beside the due date. */
  surveillance_date: yup.string().nullable().defined(),
  expired_date: yup.string().defined(),
  days_left: yup.number().defined(),
  state: yup
    .string()
    .oneOf([...CYCLE_STATES])
    .defined(),
  /** The scheme's earliest PLANNED audit ('Rencana Audit'): its dates and lead auditor; null: none. */
  planned_audit: yup
    .object({
      id: yup.string().defined(),
      start_date: yup.string().defined(),
      end_date: yup.string().defined(),
      lead: yup.string().nullable().defined(),
    })
    .nullable()
    .defined()
    .default(null),
});
export type AuditScheduleRow = yup.InferType<typeof auditScheduleRowSchema>;

/** The dashboard's 'Audit Jatuh Tempo' card: items late, and due within 30 days (not late). */
export const auditDueSummarySchema = yup.object({
  late: yup.number().defined(),
  soon: yup.number().defined(),
});
export type AuditDueSummary = yup.InferType<typeof auditDueSummarySchema>;

/** The schedule's screen and export texts. */
export const AUDIT_SCHEDULE = {
  title: 'Jadwal Audit',
  endpoint: 'audit-schedule',
  permission: 'audit-schedule',
  fileName: 'export-jadwal-audit.xlsx',
  sheetName: 'Jadwal Audit',
  filters: { window: 'Jangka Waktu', certification: 'Pilih Sertifikat', search: 'Cari Data' },
} as const;

/** A row of the export: the row with its kind and state as their labels. */
export type AuditScheduleExportRow = Omit<AuditScheduleRow, 'kind' | 'state'> & {
  kind: string;
  state: string;
};

/** The schedule's columns, on the screen and in the workbook (`allOnly`: only under ALL). */
export const AUDIT_SCHEDULE_COLUMNS: readonly ReportColumn<keyof AuditScheduleExportRow>[] = [
  { key: 'client_name', header: 'Nama Klien', kind: 'text', width: 36 },
  { key: 'company_name', header: 'Perusahaan', kind: 'text', allOnly: true, width: 28 },
  { key: 'cert_name', header: 'Sertifikat', kind: 'text', width: 24 },
  { key: 'cert_number', header: 'Nomor Sertifikat', kind: 'text', width: 24 },
  { key: 'kind', header: 'Jenis', kind: 'text', width: 18 },
  { key: 'due_date', header: 'Jatuh Tempo', kind: 'date', width: 16 },
  { key: 'surveillance_date', header: 'Rencana', kind: 'date', width: 16 },
  { key: 'days_left', header: 'Sisa Hari', kind: 'number', width: 10 },
  { key: 'state', header: 'Keadaan', kind: 'text', width: 14 },
];

/** A row as the export writes it. */
export const auditScheduleExportRow = (row: AuditScheduleRow): AuditScheduleExportRow => ({
  ...row,
  kind: CYCLE_KIND_LABELS[row.kind],
  state: CYCLE_STATE_LABELS[row.state],
});
