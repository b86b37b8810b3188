/**
 * A company's audit-days table ('Tabel Hari Audit', docs/rules.md#auditors-and-planned-audits): the
 * initial audit days by employees, for one certification type or for every type, seeded from IAF
 * MD 5's Table QMS 1. The wire shapes, and the band rules the API enforces and the dialog shows:
 * the bands start at 1 employee, each starts right after the one before (no gap, no overlap), ends
 * at or after its start, and gives more than 0 days in half days.
 */
import * as yup from 'yup';
import { type AuditDayBand, MD5_QMS_BANDS } from './audit-plan';
import { optionalUuid, outId, uuidField } from './fields';
import { V } from './messages';

/** A band as the table is edited: its first and last employee count and its days. */
export interface AuditDayRange {
  min_employees: number;
  max_employees: number;
  days: number;
}

const count = (label: string) =>
  yup
    .number()
    .typeError(V.number(label))
    .integer(V.integer(label))
    .min(1, V.minValue(label, 1))
    .max(10_000_000, V.maxValue(label, 10_000_000))
    .required(V.required(label));

export const AUDIT_DAY_LABELS = {
  min: 'Karyawan Dari',
  max: 'Karyawan Sampai',
  days: 'Hari Audit Awal',
} as const;

export const auditDayBandInputSchema = yup.object({
  min_employees: count(AUDIT_DAY_LABELS.min),
  max_employees: count(AUDIT_DAY_LABELS.max),
  days: yup
    .number()
    .typeError(V.number(AUDIT_DAY_LABELS.days))
    .moreThan(0, `${AUDIT_DAY_LABELS.days} harus lebih dari 0`)
    .max(1000, V.maxValue(AUDIT_DAY_LABELS.days, 1000))
    .test(
      'half-days',
      `${AUDIT_DAY_LABELS.days} harus kelipatan 0,5`,
      (v) => v == null || Number.isInteger(v * 2),
    )
    .required(V.required(AUDIT_DAY_LABELS.days)),
});

/** `PUT /api/audit-day-table`: a company's table for a type (or every type: none) written whole; no bands: IAF MD 5 applies. */
export const auditDayTableInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    certification_id: optionalUuid('Jenis Sertifikasi'),
    bands: yup.array(auditDayBandInputSchema).max(100, 'Tabel maksimal 100 baris').default([]),
  })
  .noUnknown(V.unknown);
export type AuditDayTableInput = yup.InferType<typeof auditDayTableInputSchema>;

/** `GET /api/audit-day-table`: the company and the type (none: the rows for every type). */
export const auditDayTableQuerySchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    certification_id: optionalUuid('Jenis Sertifikasi'),
  })
  .noUnknown(V.unknown);
export type AuditDayTableQuery = yup.InferType<typeof auditDayTableQuerySchema>;

/** The table as answered: the company's own rows, or IAF MD 5's when it has none (`source: 'md5'`). */
export const auditDayTableSchema = yup.object({
  company_id: outId(),
  certification_id: yup.string().nullable().defined(),
  source: yup.string().oneOf(['company', 'md5']).defined(),
  bands: yup
    .array(
      yup.object({
        min_employees: yup.number().defined(),
        max_employees: yup.number().defined(),
        days: yup.number().defined(),
      }),
    )
    .defined(),
});
export type AuditDayTable = yup.InferType<typeof auditDayTableSchema>;

export const AUDIT_DAY_MESSAGES = {
  firstFromOne: 'Baris pertama harus dimulai dari 1 karyawan',
  gap: (from: number) =>
    `Harus dimulai dari ${from} (tepat setelah baris sebelumnya): tidak boleh ada celah atau tumpang tindih`,
  endBeforeStart: 'Karyawan Sampai tidak boleh kurang dari Karyawan Dari',
} as const;

/** Stored bands (each up to `max_employees`) with the first count of each. */
export const withRanges = (bands: readonly AuditDayBand[]): AuditDayRange[] =>
  [...bands]
    .sort((a, b) => a.max_employees - b.max_employees)
    .map((band, i, all) => ({ min_employees: i ? all[i - 1]!.max_employees + 1 : 1, ...band }));

/** IAF MD 5's Table QMS 1 as ranges: the seed of a company's table. */
export const MD5_RANGES: readonly AuditDayRange[] = withRanges(MD5_QMS_BANDS);

/**
 * Every refusal of a table by row field (`bands[i].min_employees`, `bands[i].max_employees`); empty
 * when it may be saved. The rows are in order: each starts right after the one before.
 */
export function auditDayBandProblems(bands: readonly AuditDayRange[]): Record<string, string> {
  const out: Record<string, string> = {};
  bands.forEach((band, i) => {
    const expected = i === 0 ? 1 : bands[i - 1]!.max_employees + 1;
    if (band.min_employees !== expected)
      out[`bands[${i}].min_employees`] =
        i === 0 ? AUDIT_DAY_MESSAGES.firstFromOne : AUDIT_DAY_MESSAGES.gap(expected);
    if (band.max_employees < band.min_employees)
      out[`bands[${i}].max_employees`] = AUDIT_DAY_MESSAGES.endBeforeStart;
  });
  return out;
}
