/**
 * The wire shapes of auditors ('Auditor') and planned audits ('Rencana Audit'), the audit days
 * suggested and the auditors' calendar (docs/rules.md#auditors-and-planned-audits): what the forms
 * validate and the API reads and answers. The vocabularies and rules are in `audit-plan.ts`.
 */
import * as yup from 'yup';
import {
  EMPLOYMENTS,
  PLANNED_AUDIT_KINDS,
  PLANNED_AUDIT_STATES,
  QUALIFICATION_ROLES,
  TEAM_ROLES,
} from './audit-plan';
import { optionalDate, requiredDate } from './dates';
import {
  flagField,
  optionalEmail,
  optionalOneOf,
  optionalText,
  optionalUuid,
  outId,
  outText,
  refSchema,
  requiredOneOf,
  requiredText,
  uuidField,
} from './fields';
import { lookupOptionSchema } from './client-certificate';
import { companyListQuerySchema } from './list';
import { V } from './messages';
import { type ReportColumn, reportTypeField } from './report';
import { MAX_SECTOR_CODE, MIN_SECTOR_CODE } from './sectors';

/** An end that may not come before its start (both `YYYY-MM-DD`; either may be missing). */
const notBefore = (startField: string, message: string) => ({
  name: 'not-before',
  message,
  test(this: yup.TestContext, value: unknown) {
    const start = (this.parent as Record<string, unknown>)[startField];
    return typeof value !== 'string' || typeof start !== 'string' || value >= start;
  },
});

const SECTOR_LABEL = 'Kode Sektor';

export const qualificationInputSchema = yup.object({
  certification_id: uuidField('Jenis Sertifikasi'),
  role: requiredOneOf('Peran', QUALIFICATION_ROLES),
  sector_codes: yup
    .array(
      yup
        .number()
        .typeError(V.number(SECTOR_LABEL))
        .integer(V.integer(SECTOR_LABEL))
        .min(MIN_SECTOR_CODE, V.minValue(SECTOR_LABEL, MIN_SECTOR_CODE))
        .max(MAX_SECTOR_CODE, V.maxValue(SECTOR_LABEL, MAX_SECTOR_CODE))
        .required(V.required(SECTOR_LABEL)),
    )
    .max(MAX_SECTOR_CODE, V.oneOf(SECTOR_LABEL))
    .default([]),
  valid_from: requiredDate('Berlaku Dari'),
  valid_until: optionalDate('Berlaku Sampai').test(
    notBefore('valid_from', 'Berlaku Sampai tidak boleh sebelum Berlaku Dari'),
  ),
});

export const conflictInputSchema = yup.object({
  client_id: uuidField('Klien'),
  reason: requiredText('Alasan', 500),
  until: optionalDate('Sampai'),
});

/** An auditor as written ('Tambah' and 'Ubah'). */
export const auditorInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    name: requiredText('Nama', 200),
    email: optionalEmail(),
    phone: optionalText('Telepon', 50),
    employment: requiredOneOf('Status Kepegawaian', EMPLOYMENTS),
    active: flagField('Aktif', 'true'),
    qualifications: yup.array(qualificationInputSchema).max(100, 'Kualifikasi maksimal 100').default([]),
    conflicts: yup.array(conflictInputSchema).max(100, 'Konflik maksimal 100').default([]),
  })
  .noUnknown(V.unknown);
export type AuditorInput = yup.InferType<typeof auditorInputSchema>;

/** An auditor as the API answers it. */
export const auditorSchema = yup.object({
  id: outId(),
  company_id: outId(),
  company: refSchema().defined(),
  name: yup.string().defined(),
  email: outText(),
  phone: outText(),
  employment: yup.string().defined(),
  active: yup.string().defined(),
  qualifications: yup
    .array(
      yup.object({
        certification_id: outId(),
        certification: yup.string().defined(),
        role: yup.string().defined(),
        sector_codes: yup.array(yup.number().defined()).defined(),
        valid_from: yup.string().defined(),
        valid_until: outText(),
      }),
    )
    .defined(),
  conflicts: yup
    .array(
      yup.object({
        client_id: outId(),
        client: yup.string().defined(),
        reason: yup.string().defined(),
        until: outText(),
      }),
    )
    .defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type Auditor = yup.InferType<typeof auditorSchema>;

export const auditorListQuerySchema = companyListQuerySchema.shape({
  active: optionalOneOf('Aktif', ['true', 'false'] as const),
});
export type AuditorListQuery = yup.InferType<typeof auditorListQuerySchema>;

const DAYS_LABEL = 'Hari Audit';

/**
 * A planned audit as written; `state` changes only through 'Selesai' and 'Batalkan'. Its company is
 * its scheme's: `company_id` (the form's company, whose schemes and auditors it offers) may be
 * sent, and must then be the scheme's.
 */
export const plannedAuditInputSchema = yup
  .object({
    company_id: optionalUuid('Perusahaan'),
    scheme_id: uuidField('Skema'),
    kind: requiredOneOf('Jenis Audit', PLANNED_AUDIT_KINDS),
    start_date: requiredDate('Tanggal Mulai'),
    end_date: requiredDate('Tanggal Selesai'),
    audit_days: yup
      .number()
      .typeError(V.number(DAYS_LABEL))
      .min(0.5, V.minValue(DAYS_LABEL, 0.5))
      .max(1000, V.maxValue(DAYS_LABEL, 1000))
      .test('half-days', `${DAYS_LABEL} harus kelipatan 0,5`, (v) => v == null || Number.isInteger(v * 2))
      .required(V.required(DAYS_LABEL)),
    days_reason: optionalText('Alasan Hari Audit', 1000, { multiline: true }),
    team: yup
      .array(
        yup.object({
          auditor_id: uuidField('Auditor'),
          role: requiredOneOf('Peran', TEAM_ROLES),
        }),
      )
      .min(1, 'Tim audit wajib diisi')
      .max(50, 'Tim audit maksimal 50 orang')
      .required('Tim audit wajib diisi'),
    notes: optionalText('Catatan', 2000, { multiline: true }),
  })
  .noUnknown(V.unknown);
export type PlannedAuditInput = yup.InferType<typeof plannedAuditInputSchema>;

/** The form's values: the input and the company whose schemes and auditors it offers (not sent). */
export const plannedAuditFormSchema = plannedAuditInputSchema.shape({
  company_id: optionalUuid('Perusahaan'),
});

/** A planned audit as the API answers it. */
export const plannedAuditSchema = yup.object({
  id: outId(),
  company_id: outId(),
  scheme_id: outId(),
  scheme: yup
    .object({
      id: outId(),
      cert_number: outText(),
      client_id: outId(),
      client: yup.string().defined(),
      certification: yup.string().defined(),
    })
    .defined(),
  kind: yup.string().defined(),
  start_date: yup.string().defined(),
  end_date: yup.string().defined(),
  audit_days: yup.number().defined(),
  days_reason: outText(),
  team: yup
    .array(yup.object({ auditor_id: outId(), name: yup.string().defined(), role: yup.string().defined() }))
    .defined(),
  state: yup.string().defined(),
  notes: outText(),
  /** How many times it changed since it was planned: the iCalendar SEQUENCE of its invitations. */
  sequence: yup.number().defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type PlannedAudit = yup.InferType<typeof plannedAuditSchema>;

/** `GET /api/planned-audit`: by company, dates (audits touching from..to), auditor and state. */
export const plannedAuditListQuerySchema = companyListQuerySchema.shape({
  type: reportTypeField(),
  from: optionalDate('Dari'),
  to: optionalDate('Sampai'),
  auditor_id: optionalUuid('Auditor'),
  scheme_id: optionalUuid('Skema'),
  state: optionalOneOf('Status', PLANNED_AUDIT_STATES),
});
export type PlannedAuditListQuery = yup.InferType<typeof plannedAuditListQuerySchema>;

/** 'Rencana Audit' as a workbook (`GET /api/planned-audit?type=export`). */
export const PLANNED_AUDIT_EXPORT = {
  title: 'Rencana Audit',
  fileName: 'export-rencana-audit.xlsx',
  sheetName: 'Rencana Audit',
  filters: { from: 'Dari', to: 'Sampai', state: 'Status', search: 'Cari Data' },
} as const;

/** A planned audit as the workbook writes it: its labels in Indonesian, its team in one cell. */
export interface PlannedAuditExportRow {
  client: string;
  company_name: string;
  certification: string;
  cert_number: string;
  kind: string;
  start_date: string;
  end_date: string;
  audit_days: number;
  lead: string;
  team: string;
  state: string;
  notes: string;
}

/** The workbook's columns (`allOnly`: only when every company is chosen). */
export const PLANNED_AUDIT_COLUMNS: readonly ReportColumn<keyof PlannedAuditExportRow>[] = [
  { key: 'client', header: 'Nama Klien', kind: 'text', width: 36 },
  { key: 'company_name', header: 'Perusahaan', kind: 'text', allOnly: true, width: 28 },
  { key: 'certification', header: 'Sertifikat', kind: 'text', width: 24 },
  { key: 'cert_number', header: 'Nomor Sertifikat', kind: 'text', width: 24 },
  { key: 'kind', header: 'Jenis Audit', kind: 'text', width: 16 },
  { key: 'start_date', header: 'Tanggal Mulai', kind: 'date', width: 16 },
  { key: 'end_date', header: 'Tanggal Selesai', kind: 'date', width: 16 },
  { key: 'audit_days', header: 'Hari Audit', kind: 'number', width: 11 },
  { key: 'lead', header: 'Lead Auditor', kind: 'text', width: 24 },
  { key: 'team', header: 'Tim Audit', kind: 'text', width: 40 },
  { key: 'state', header: 'Status', kind: 'text', width: 14 },
  { key: 'notes', header: 'Catatan', kind: 'text', width: 40 },
];

/** `GET /api/audit-days`: the scheme and the kind of audit. */
export const auditDaysQuerySchema = yup
  .object({
    scheme_id: uuidField('Skema'),
    kind: requiredOneOf('Jenis Audit', PLANNED_AUDIT_KINDS),
  })
  .noUnknown(V.unknown);
export type AuditDaysQuery = yup.InferType<typeof auditDaysQuerySchema>;

/** The days suggested (null: none) and what they rest on, in words. */
export const auditDaysSchema = yup.object({
  days: yup.number().nullable().defined(),
  basis: yup.string().defined(),
});
export type AuditDays = yup.InferType<typeof auditDaysSchema>;

/**
 * `GET /api/auditor-calendar`: one company, one month (none: this month by the app's clock, as
 * answered), a page of its active auditors (`page`, `paginate`, `search` on the auditor's name).
 */
export const auditorCalendarQuerySchema = companyListQuerySchema.shape({
  company_id: uuidField('Perusahaan'),
  month: yup
    .string()
    .typeError(V.oneOf('Bulan'))
    .transform((v: unknown) => (v === '' ? undefined : v))
    .matches(/^\d{4}-(0[1-9]|1[0-2])$/, 'Bulan harus berformat YYYY-MM')
    .optional(),
});
export type AuditorCalendarQuery = yup.InferType<typeof auditorCalendarQuerySchema>;

/** An active auditor with the days of the month they are on an audit, and those audits. */
export const calendarAuditorSchema = yup.object({
  id: outId(),
  name: yup.string().defined(),
  days: yup.array(yup.string().defined()).defined(),
  audits: yup
    .array(
      yup.object({
        id: outId(),
        kind: yup.string().defined(),
        role: yup.string().defined(),
        state: yup.string().defined(),
        start_date: yup.string().defined(),
        end_date: yup.string().defined(),
        client: yup.string().defined(),
      }),
    )
    .defined(),
});
export type CalendarAuditor = yup.InferType<typeof calendarAuditorSchema>;

/** The calendar's answer: the month answered and a page of its auditors, in the list answer's shape. */
export const auditorCalendarSchema = yup.object({
  month: yup.string().defined(),
  total: yup.number().defined(),
  per_page: yup.number().defined(),
  current_page: yup.number().defined(),
  last_page: yup.number().defined(),
  from: yup.number().nullable().defined(),
  to: yup.number().nullable().defined(),
  data: yup.array(calendarAuditorSchema).defined(),
});
export type AuditorCalendar = yup.InferType<typeof auditorCalendarSchema>;

const planChoice = () =>
  yup.array(yup.object({ id: outId(), name: yup.string().defined(), company_id: outId() })).defined();

/**
 * `GET select/audit-plan/{company_id}`: the certification types and clients the auditor form picks
 * from, the schemes and active auditors the planned-audit form picks from.
 */
export const auditPlanLookupsSchema = yup.object({
  certification: yup.array(lookupOptionSchema).defined(),
  company_certificate: yup.array(lookupOptionSchema).defined(),
  schemes: planChoice(),
  auditors: planChoice(),
});
export type AuditPlanLookups = yup.InferType<typeof auditPlanLookupsSchema>;
