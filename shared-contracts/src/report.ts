import * as yup from 'yup';
import { idListParam, statusListParam } from './dashboard';
import { dateRangeParamField } from './date-range';
import { listQuerySchema } from './list';
import type { PermissionKey } from './permissions';
import {
  EFFECTIVE_STATUSES,
  type EffectiveStatus,
  FLAG_VALUES,
  type Flag,
  type SchemeStatus,
} from './statuses';
import { trimString } from './fields';
import { V } from './messages';

/**
 * The three reports (docs/rules.md#screens, #entities, #calls, #dashboard-and-reports and #wire-formats):
 * `GET <endpoint>/{company_id}` with `type=table` answers the list shape (page, paginate);
 * `type=export` streams an .xlsx named REPORTS[kind].fileName with the columns below.
 */

export const REPORT_TYPES = ['table', 'export'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// ---------------------------------------------------------------------------------------------
// Query schemas
// ---------------------------------------------------------------------------------------------

/** A list's `type`: `table` (a page, the default) or `export` (the workbook of every matching row). */
export const reportTypeField = () =>
  yup
    .string<ReportType>()
    .typeError(V.oneOf('Tipe'))
    .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
    .oneOf([...REPORT_TYPES], V.oneOf('Tipe'))
    .default('table');

const reportBase = listQuerySchema.pick(['page', 'paginate', 'search']).shape({ type: reportTypeField() });
const unknownParam = 'Parameter tidak dikenal: ${unknown}';

/**
 * The scheme report's status filter: EFFECTIVE_STATUSES, where EXPIRED is its own value (an ACTIVE
 * scheme past its expiry) and ACTIVE means ACTIVE and not expired; 'NOTACTIVE' = NOACTIVE.
 */
export const REPORT_STATUS_OPTIONS = EFFECTIVE_STATUSES;

/** `GET report-company-certification/{company_id}`. */
export const companyCertificationReportQuerySchema = reportBase
  .shape({
    /** Clients with a scheme (any status) of one of these certification types. */
    certification: idListParam('Sertifikat'),
    /** Clients with a scheme (any status) of one of these accreditation bodies. */
    accredited: idListParam('Akreditasi'),
  })
  .noUnknown(unknownParam);
export type CompanyCertificationReportQuery = yup.InferType<typeof companyCertificationReportQuerySchema>;

/** `GET report-company-certification-scheme/{company_id}`. */
export const schemeReportQuerySchema = reportBase
  .shape({
    status: statusListParam('Status', EFFECTIVE_STATUSES),
    client: idListParam('Client'),
    certification: idListParam('Sertifikat'),
    accredited: idListParam('Akreditasi'),
    /** `issue_date` range ("creation date"), inclusive. */
    issue_date: dateRangeParamField('Tanggal Terbit'),
    /** `expired_date` range, inclusive. */
    expired_date: dateRangeParamField('Tanggal Kadaluarsa'),
  })
  .noUnknown(unknownParam);
export type SchemeReportQuery = yup.InferType<typeof schemeReportQuerySchema>;

/** `GET report-training-certification/{company_id}`. */
export const trainingReportQuerySchema = reportBase
  .shape({
    /** The training certificate's `date` range, inclusive. */
    issue_date: dateRangeParamField('Tanggal Sertifikasi'),
  })
  .noUnknown(unknownParam);
export type TrainingReportQuery = yup.InferType<typeof trainingReportQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Rows (type=table answers ListResponse<row>)
// ---------------------------------------------------------------------------------------------

/** Company certification report: one client; sorted by client name. */
export interface CompanyCertificationReportRow {
  id: string;
  company_id: string;
  /** The owning company (the Perusahaan column, ALL only). */
  company_name: string;
  /** Client name ('Nama Client'). */
  name: string;
  logo: string | null;
  certificate_number: string;
  ea_code: string | null;
  nace_code: string | null;
  region: string;
  phone: string | null;
  handphone: string | null;
  email: string | null;
}

/** Scheme report: one scheme; newest issue_date first. */
export interface SchemeReportRow {
  id: string;
  company_id: string;
  company_name: string;
  /** The client (Detail: /company-certificate/{certificate_id}). */
  certificate_id: string;
  client_name: string;
  client_logo: string | null;
  /** The client's own ("profile") certificate number, shown under its name. */
  client_certificate_number: string;
  certification_id: string;
  cert_name: string;
  cert_number: string | null;
  /** Stored status. */
  status: SchemeStatus;
  /** What is shown: EXPIRED for an ACTIVE scheme past expired_date (label via EFFECTIVE_STATUS_LABELS). */
  effective_status: EffectiveStatus;
  /** `YYYY-MM-DD` ("creation date"). */
  issue_date: string;
  expired_date: string;
  is_accredited: Flag;
  accredited_id: string | null;
  /** The accreditation body's name when is_accredited is 'true', else null. */
  accredited: string | null;
  /** The register data (docs/rules.md#register-data), in the workbook only. */
  original_issue_date: string | null;
  /** The scheme's scope, else the client's. */
  scope: string | null;
  /** As a cell writes them: '28, 33' ('' for none). */
  sector_codes: string;
  revision: number;
  client_city: string | null;
  client_province: string | null;
  client_country: string;
}

/** Training report: one training certificate; newest date first. */
export interface TrainingReportRow {
  id: string;
  company_id: string;
  company_name: string;
  /** Personnel name. */
  name: string;
  certificate_number: string;
  /** `YYYY-MM-DD` ("creation date"). */
  date: string;
  training: string;
  location: string;
}

const text = () => yup.string().defined();
const nullableText = () => yup.string().nullable().defined();

export const companyCertificationReportRowSchema = yup.object({
  id: text(),
  company_id: text(),
  company_name: text(),
  name: text(),
  logo: nullableText(),
  certificate_number: text(),
  ea_code: nullableText(),
  nace_code: nullableText(),
  region: text(),
  phone: nullableText(),
  handphone: nullableText(),
  email: nullableText(),
});

export const schemeReportRowSchema = yup.object({
  id: text(),
  company_id: text(),
  company_name: text(),
  certificate_id: text(),
  client_name: text(),
  client_logo: nullableText(),
  client_certificate_number: text(),
  certification_id: text(),
  cert_name: text(),
  cert_number: nullableText(),
  status: text(),
  effective_status: text().oneOf([...EFFECTIVE_STATUSES]),
  issue_date: text(),
  expired_date: text(),
  is_accredited: text().oneOf([...FLAG_VALUES]),
  accredited_id: nullableText(),
  accredited: nullableText(),
  /** The register data (docs/rules.md#register-data), in the workbook only. */
  original_issue_date: nullableText(),
  /** The scheme's scope, else the client's. */
  scope: nullableText(),
  /** As a cell writes them: '28, 33' ('' for none). */
  sector_codes: yup.string().defined(),
  revision: yup.number().defined(),
  client_city: nullableText(),
  client_province: nullableText(),
  client_country: text(),
});

export const trainingReportRowSchema = yup.object({
  id: text(),
  company_id: text(),
  company_name: text(),
  name: text(),
  certificate_number: text(),
  date: text(),
  training: text(),
  location: text(),
});

// ---------------------------------------------------------------------------------------------
// Columns: the screen's table and the workbook use these same headers
// ---------------------------------------------------------------------------------------------

/** text; date (`YYYY-MM-DD`, shown DD MMMM YYYY); status (shown with EFFECTIVE_STATUS_LABELS); number. */
export type ReportColumnKind = 'text' | 'date' | 'status' | 'number';

export interface ReportColumn<K extends string = string> {
  /** The row field the column shows. */
  key: K;
  /** Indonesian header, on the screen and in the workbook. */
  header: string;
  kind: ReportColumnKind;
  /** Shown only when the company selector is ALL (screen and workbook). */
  allOnly?: boolean;
  /** In the workbook only: the screen shows it inside another cell (the client's number under its name). */
  exportOnly?: boolean;
  /** Workbook column width, in characters. */
  width: number;
}

export const COMPANY_CERTIFICATION_REPORT_COLUMNS: readonly ReportColumn<
  keyof CompanyCertificationReportRow
>[] = [
  { key: 'name', header: 'Nama Client', kind: 'text', width: 36 },
  { key: 'company_name', header: 'Nama Perusahaan', kind: 'text', allOnly: true, width: 30 },
  { key: 'certificate_number', header: 'Nomor Sertifikasi', kind: 'text', width: 24 },
  { key: 'ea_code', header: 'Kode EA', kind: 'text', width: 12 },
  { key: 'nace_code', header: 'Kode Nace', kind: 'text', width: 12 },
  { key: 'region', header: 'Region', kind: 'text', width: 18 },
  { key: 'phone', header: 'Telpon', kind: 'text', width: 18 },
  { key: 'handphone', header: 'Handphone', kind: 'text', width: 18 },
  { key: 'email', header: 'Email', kind: 'text', width: 30 },
];

export const SCHEME_REPORT_COLUMNS: readonly ReportColumn<keyof SchemeReportRow>[] = [
  { key: 'client_name', header: 'Nama Client', kind: 'text', width: 36 },
  {
    key: 'client_certificate_number',
    header: 'Nomor Sertifikat Client',
    kind: 'text',
    exportOnly: true,
    width: 24,
  },
  { key: 'company_name', header: 'Nama Perusahaan', kind: 'text', allOnly: true, width: 30 },
  { key: 'cert_name', header: 'Nama Sertifikasi', kind: 'text', width: 30 },
  { key: 'cert_number', header: 'Nomor Sertifikasi', kind: 'text', width: 24 },
  { key: 'effective_status', header: 'Status', kind: 'status', width: 14 },
  { key: 'issue_date', header: 'Tanggal Terbit', kind: 'date', width: 20 },
  { key: 'expired_date', header: 'Tanggal Kadaluarsa', kind: 'date', width: 20 },
  { key: 'accredited', header: 'Akreditasi', kind: 'text', width: 24 },
  { key: 'original_issue_date', header: 'Tanggal Terbit Awal', kind: 'date', exportOnly: true, width: 20 },
  { key: 'scope', header: 'Lingkup', kind: 'text', exportOnly: true, width: 40 },
  { key: 'sector_codes', header: 'Kode Sektor IAF', kind: 'text', exportOnly: true, width: 16 },
  { key: 'revision', header: 'Revisi', kind: 'number', exportOnly: true, width: 8 },
  { key: 'client_city', header: 'Kota/Kabupaten', kind: 'text', exportOnly: true, width: 20 },
  { key: 'client_province', header: 'Provinsi', kind: 'text', exportOnly: true, width: 20 },
  { key: 'client_country', header: 'Negara', kind: 'text', exportOnly: true, width: 10 },
];

export const TRAINING_REPORT_COLUMNS: readonly ReportColumn<keyof TrainingReportRow>[] = [
  { key: 'name', header: 'Nama Personel', kind: 'text', width: 32 },
  { key: 'certificate_number', header: 'Nomor Sertifikat', kind: 'text', width: 24 },
  { key: 'date', header: 'Tanggal Sertifikasi', kind: 'date', width: 20 },
  { key: 'training', header: 'Nama Pelatihan', kind: 'text', width: 36 },
  { key: 'location', header: 'Lokasi', kind: 'text', width: 24 },
];

/** The columns shown for a selection: `allOnly` ones only with ALL; `screen` leaves out exportOnly ones. */
export function reportColumns<K extends string>(
  columns: readonly ReportColumn<K>[],
  opts: { all: boolean; screen?: boolean },
): ReportColumn<K>[] {
  return columns.filter((c) => (opts.all || !c.allOnly) && !(opts.screen && c.exportOnly));
}

// ---------------------------------------------------------------------------------------------
// The three reports
// ---------------------------------------------------------------------------------------------

export const REPORT_KINDS = ['company', 'scheme', 'training'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface ReportDefinition {
  /** Path under the API root, followed by `/{company_id}`. */
  endpoint: string;
  permission: PermissionKey;
  /** Screen title and the workbook's first line on the Filter sheet. */
  title: string;
  /** The file the export saves as (docs/rules.md#calls). */
  fileName: string;
  /** The data sheet's name (Excel: at most 31 characters). */
  sheetName: string;
  /** Filter parameter -> Indonesian label (screen filters and the workbook's Filter sheet). */
  filters: Record<string, string>;
}

export const REPORTS = {
  company: {
    endpoint: 'report-company-certification',
    permission: 'report-company-certificate',
    title: 'Laporan Sertifikasi Perusahaan',
    fileName: 'export-sertifikasi-perusahaan.xlsx',
    sheetName: 'Sertifikasi Perusahaan',
    filters: { search: 'Cari Data', certification: 'Pilih Sertifikat', accredited: 'Pilih Akreditasi' },
  },
  scheme: {
    endpoint: 'report-company-certification-scheme',
    permission: 'report-company-certificate-scheme',
    title: 'Laporan Skema Sertifikasi Perusahaan',
    fileName: 'export-skema-sertifikasi-perusahaan.xlsx',
    sheetName: 'Skema Sertifikasi',
    filters: {
      search: 'Cari Data',
      issue_date: 'Tanggal Terbit',
      expired_date: 'Tanggal Kadaluarsa',
      status: 'Pilih Status',
      client: 'Pilih Client',
      certification: 'Pilih Sertifikat',
      accredited: 'Pilih Akreditasi',
    },
  },
  training: {
    endpoint: 'report-training-certification',
    permission: 'report-training-certificate',
    title: 'Laporan Sertifikasi Pelatihan',
    fileName: 'export-sertifikasi-pelatihan.xlsx',
    sheetName: 'Sertifikasi Pelatihan',
    filters: { search: 'Cari Data', issue_date: 'Tanggal Sertifikasi' },
  },
} as const satisfies Record<ReportKind, ReportDefinition>;

/** The name of the workbook's second sheet, which lists the filters used. */
export const REPORT_FILTER_SHEET = 'Filter';
/** Words of the Filter sheet. */
export const REPORT_FILTER_WORDS = {
  filter: 'Filter',
  value: 'Nilai',
  company: 'Perusahaan',
  all: 'Semua',
  exportedAt: 'Diekspor pada',
  rows: 'Jumlah Data',
} as const;
