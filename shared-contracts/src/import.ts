import * as yup from 'yup';
import { clientCertificateInputSchema, schemeInputSchema } from './client-certificate';
import { isCalendarDate } from './dates';
import { trainingCertificateInputSchema } from './training-certificate';
import { SCHEME_STATUS_LABELS, SCHEME_STATUSES, VALID_FOR_TYPE_LABELS, VALID_FOR_TYPES } from './statuses';

/**
 * Import from Excel (docs/rules.md#import): the two kinds of file, their columns and what the
 * API answers. Every column names a field of an entity's own input schema (the forms' rules); the
 * 'Petunjuk' sheet of the templates is written from those same rules.
 */
export const IMPORT_KINDS = ['company-certificate', 'training-certificate'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_MODES = ['check', 'apply'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** At most 10 MiB a file (413 above) and 50,000 data rows. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;

export const IMPORT_TEMPLATE_FILES: Record<ImportKind, string> = {
  'company-certificate': 'template-impor-sertifikasi-perusahaan.xlsx',
  'training-certificate': 'template-impor-sertifikasi-pelatihan.xlsx',
};
export const IMPORT_SHEETS = { data: 'Data', help: 'Petunjuk' } as const;

/** Which record a column belongs to. */
export type ImportEntity = 'client' | 'scheme' | 'training';
/**
 * How a cell is read: text; a date (date cell or text in IMPORT_DATE_FORMS); a whole number; one of
 * a vocabulary (with Indonesian aliases); a certification type or accreditation body named in the
 * company.
 */
export type ImportCellKind =
  | 'text'
  | 'date'
  | 'integer'
  | 'status'
  | 'validForType'
  | 'type'
  | 'body'
  /** IAF sector codes as free text ('28, 33', 'EA 28'), read by parseSectorCodes. */
  | 'sectors'
  /** A country code (ISO 3166-1 alpha-2). */
  | 'country';

export interface ImportColumn {
  header: string;
  entity: ImportEntity;
  /** The field of the entity's input schema the column fills. */
  field: string;
  kind: ImportCellKind;
  /** 'column': the header must hold it; 'new': a new record needs it; false: optional. */
  required: 'column' | 'new' | false;
}

const col = (
  header: string,
  entity: ImportEntity,
  field: string,
  kind: ImportCellKind = 'text',
  required: ImportColumn['required'] = false,
): ImportColumn => ({ header, entity, field, kind, required });

export const IMPORT_COLUMNS: Record<ImportKind, readonly ImportColumn[]> = {
  'company-certificate': [
    col('Nomor Sertifikat Klien', 'client', 'certificate_number', 'text', 'column'),
    col('Nama Klien', 'client', 'name', 'text', 'column'),
    col('Region', 'client', 'region', 'text', 'column'),
    col('Nama (Inggris)', 'client', 'name_en'),
    col('Alamat', 'client', 'address'),
    col('Kota/Kabupaten', 'client', 'city'),
    col('Provinsi', 'client', 'province'),
    col('Kode Pos', 'client', 'postcode'),
    col('Negara', 'client', 'country', 'country'),
    col('Ruang Lingkup', 'client', 'scope'),
    col('Kode EA', 'client', 'ea_code'),
    col('Kode NACE', 'client', 'nace_code'),
    col('Pimpinan', 'client', 'president'),
    col('Wakil Manajemen', 'client', 'management_representative'),
    col('Tanggal Berdiri', 'client', 'foundation_day', 'date'),
    col('Jumlah Karyawan', 'client', 'employees_number', 'integer'),
    col('Jumlah Karyawan Aktif', 'client', 'employees_active', 'integer'),
    col('Telepon', 'client', 'phone'),
    col('Handphone', 'client', 'handphone'),
    col('Fax', 'client', 'fax'),
    col('Email', 'client', 'email'),
    col('Website', 'client', 'website'),
    col('Nomor Sertifikat', 'scheme', 'cert_number', 'text', 'new'),
    col('Sertifikat', 'scheme', 'certification_id', 'type', 'new'),
    col('Status', 'scheme', 'status', 'status', 'new'),
    col('Tanggal Terbit', 'scheme', 'issue_date', 'date', 'new'),
    col('Tanggal Terbit Awal', 'scheme', 'original_issue_date', 'date'),
    col('Tanggal Terbit Terakhir', 'scheme', 'issue_date2', 'date'),
    col('Masa Berlaku', 'scheme', 'valid_for', 'integer', 'new'),
    col('Satuan Masa Berlaku', 'scheme', 'valid_for_type', 'validForType', 'new'),
    col('Tanggal Surveilan', 'scheme', 'surveillance_date', 'date'),
    col('Tanggal Keputusan', 'scheme', 'decision_date', 'date'),
    col('Akreditasi', 'scheme', 'accredited_id', 'body'),
    col('Deskripsi', 'scheme', 'desc'),
    col('Lingkup', 'scheme', 'scope'),
    col('Kode Sektor IAF', 'scheme', 'sector_codes', 'sectors'),
  ],
  'training-certificate': [
    col('Nomor Sertifikat', 'training', 'certificate_number', 'text', 'column'),
    col('Nama Personel', 'training', 'name', 'text', 'column'),
    col('Nama Pelatihan', 'training', 'training', 'text', 'column'),
    col('Lokasi', 'training', 'location', 'text', 'column'),
    col('Tanggal Sertifikasi', 'training', 'date', 'date', 'column'),
    col('Deskripsi', 'training', 'desc'),
    col('Sertifikat', 'training', 'certification_id', 'type'),
  ],
};

/** The input schema whose field rules a column's cells follow. */
export const IMPORT_SCHEMAS = {
  client: clientCertificateInputSchema,
  scheme: schemeInputSchema,
  training: trainingCertificateInputSchema,
} as const satisfies Record<ImportEntity, yup.AnyObjectSchema>;

/** A header cell as matched: trimmed, any case, inner spaces collapsed. */
export const headerKey = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();
/** A record's number as matched: trimmed, any case. */
export const numberKey = (text: string): string => text.trim().toLowerCase();

/** Cell text for a status: the stored values and the labels ('NOT ACTIVE'), any case. */
export function importStatus(text: string): string {
  const key = text.trim().toUpperCase().replace(/\s+/g, ' ');
  const byLabel = SCHEME_STATUSES.find((s) => SCHEME_STATUS_LABELS[s] === key);
  return byLabel ?? key;
}

/** Cell text for a validity unit: YEAR/MONTH/DAY or TAHUN/BULAN/HARI, any case. */
export function importValidForType(text: string): string {
  const key = text.trim().toUpperCase();
  return VALID_FOR_TYPES.find((t) => VALID_FOR_TYPE_LABELS[t] === key) ?? key;
}

const MONTHS_ID = [
  'januari',
  'februari',
  'maret',
  'april',
  'mei',
  'juni',
  'juli',
  'agustus',
  'september',
  'oktober',
  'november',
  'desember',
];
export const IMPORT_DATE_FORMS = ['dd/mm/yyyy', 'd/m/yyyy', 'yyyy-mm-dd', '12 Januari 2026'] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/**
 * A date written as text (`dd/mm/yyyy`, `d/m/yyyy`, `yyyy-mm-dd` or `12 Januari 2026`; never
 * month first) as `YYYY-MM-DD`, or null when it is none of those or no real calendar date.
 */
export function parseImportDate(text: string): string | null {
  const t = text.trim();
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  let out: string | null = null;
  if (m) out = iso(Number(m[3]), Number(m[2]), Number(m[1]));
  else if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t))) out = iso(Number(m[1]), Number(m[2]), Number(m[3]));
  else if ((m = /^(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})$/.exec(t))) {
    const month = MONTHS_ID.indexOf(m[2]!.toLowerCase()) + 1;
    if (month > 0) out = iso(Number(m[3]), month, Number(m[1]));
  }
  return out && isCalendarDate(out) ? out : null;
}

/** Indonesian messages of the import that no field rule words. */
export const IMPORT_MESSAGES = {
  notXlsx: 'File bukan file Excel (.xlsx) yang dapat dibaca',
  noFile: 'Pilih file Excel (.xlsx) untuk diimpor',
  noHeader: 'Baris judul kolom (baris 1) tidak ditemukan pada sheet pertama',
  missingColumns: (headers: string[]) => `Kolom wajib tidak ada: ${headers.join(', ')}`,
  duplicateColumn: (header: string) => `Kolom '${header}' muncul lebih dari sekali`,
  tooManyRows: (max: number) => `File berisi lebih dari ${max.toLocaleString('id-ID')} baris data`,
  tooLarge: (mib: number) => `Ukuran file melebihi batas (maksimal ${mib} MB)`,
  unpacksTooLarge: 'Isi file terlalu besar setelah dibuka (arsip tidak wajar)',
  noRows: 'File tidak berisi baris data',
  invalid: 'Beberapa sel tidak valid; tidak ada data yang disimpan',
  formulaNoResult: 'Rumus tanpa hasil tersimpan; simpan file di Excel agar hasilnya ikut tersimpan',
  cellError: 'Sel berisi kesalahan rumus',
  date: (label: string) =>
    `${label} harus berupa tanggal (sel tanggal, atau teks ${IMPORT_DATE_FORMS.join(', ')})`,
  typeNotFound: 'Sertifikat tidak ditemukan di perusahaan ini (isi nama atau kode)',
  bodyNotFound: 'Akreditasi tidak ditemukan di perusahaan ini',
  sectors: 'Kode Sektor IAF harus berupa angka 1 sampai 39 dipisah koma (mis. 28, 33)',
  otherCompany: 'Nomor sertifikat sudah digunakan oleh perusahaan lain',
  otherClient: 'Nomor sertifikat sudah digunakan oleh klien lain',
  repeated: (row: number) => `Nomor sertifikat sama dengan baris ${row}`,
  disagrees: (row: number) => `Berbeda dengan baris ${row} untuk klien yang sama`,
  needsEdit: 'File mengubah data yang sudah ada: diperlukan akses ubah',
  /** The dialog's progress line while an import job applies its file. */
  progress: (done: number, total: number) =>
    `Mengimpor ${done.toLocaleString('id-ID')} dari ${total.toLocaleString('id-ID')} baris`,
  queued: 'Menunggu giliran impor...',
  history: 'Riwayat Impor',
  historyEmpty: 'Belum ada impor',
  /** A job stopped on a row: which one, and how many rows went in before it. */
  stoppedAt: (row: number, applied: number) =>
    `Impor berhenti di baris ${row}; ${applied.toLocaleString('id-ID')} baris sebelumnya sudah diimpor. ` +
    'Perbaiki file lalu impor lagi untuk menyelesaikannya',
  /** A job the file check refused when it ran (the register changed since the request). */
  changedMeanwhile: (applied: number) =>
    `Data berubah sejak file diperiksa; ${applied.toLocaleString('id-ID')} baris sudah diimpor. ` +
    'Perbaiki file lalu impor lagi untuk menyelesaikannya',
  failed: 'Impor gagal karena kesalahan sistem; coba impor file yang sama lagi',
  /** A job that never finished: every attempt of it stopped (a process that died or stayed down). */
  retriesExhausted: (attempts: number, applied: number) =>
    `Impor dihentikan setelah ${attempts} kali percobaan tidak selesai; ` +
    `${applied.toLocaleString('id-ID')} baris sudah diimpor. Impor file yang sama lagi untuk menyelesaikannya`,
  done: (rows: number) => `Impor selesai: ${rows.toLocaleString('id-ID')} baris`,
} as const;

/** The states of an import job (`GET /api/import/jobs/{id}`). */
export const IMPORT_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ImportJobState = (typeof IMPORT_JOB_STATES)[number];
/** Labels of the job states in 'Riwayat Impor'. */
export const IMPORT_JOB_STATE_LABELS: Record<ImportJobState, string> = {
  queued: 'Menunggu',
  running: 'Berjalan',
  done: 'Selesai',
  failed: 'Gagal',
};
/** Labels of the import kinds in 'Riwayat Impor'. */
export const IMPORT_KIND_LABELS: Record<ImportKind, string> = {
  'company-certificate': 'Sertifikasi Perusahaan',
  'training-certificate': 'Sertifikasi Pelatihan',
};

/** One invalid cell: the sheet's row number (header = row 1), the column header, its value as text. */
export const importCellErrorSchema = yup.object({
  row: yup.number().defined(),
  column: yup.string().defined(),
  value: yup.string().defined(),
  message: yup.string().defined(),
});
export type ImportCellError = yup.InferType<typeof importCellErrorSchema>;

/** `422` of a file with invalid cells (nothing written). */
export interface ImportInvalidAnswer {
  code: 'validation';
  message: string;
  rows: ImportCellError[];
}

const clientSchemeCounts = () =>
  yup.object({ clients: yup.number().defined(), schemes: yup.number().defined() }).defined();

export const companyImportResultSchema = yup.object({
  mode: yup
    .string()
    .oneOf([...IMPORT_MODES])
    .defined(),
  rows: yup.number().defined(),
  created: clientSchemeCounts(),
  updated: clientSchemeCounts(),
  unchanged: clientSchemeCounts(),
});
export type CompanyImportResult = yup.InferType<typeof companyImportResultSchema>;

export const trainingImportResultSchema = yup.object({
  mode: yup
    .string()
    .oneOf([...IMPORT_MODES])
    .defined(),
  rows: yup.number().defined(),
  created: yup.number().defined(),
  updated: yup.number().defined(),
  unchanged: yup.number().defined(),
});
export type TrainingImportResult = yup.InferType<typeof trainingImportResultSchema>;
export type ImportResult = CompanyImportResult | TrainingImportResult;

interface TestDescription {
  name?: string;
  params?: Record<string, unknown>;
}

/** The 'Petunjuk' text of a column: required or not, then the field's rule as the forms hold it. */
export function importColumnHelp(kind: ImportKind, column: ImportColumn): [string, string, string] {
  const schema: yup.AnyObjectSchema = IMPORT_SCHEMAS[column.entity];
  const described = schema.fields[column.field]?.describe() as
    { tests?: TestDescription[]; meta?: { multiline?: boolean } } | undefined;
  const param = (name: string) => described?.tests?.find((t) => t.name === name)?.params?.[name] as number;
  const required =
    column.required === 'column'
      ? 'Wajib'
      : column.required === 'new'
        ? kind === 'company-certificate'
          ? 'Wajib untuk skema baru (kosongkan semua kolom skema untuk klien saja)'
          : 'Wajib untuk data baru'
        : 'Opsional';
  let rule: string;
  switch (column.kind) {
    case 'date':
      rule = `Tanggal: sel tanggal, atau teks ${IMPORT_DATE_FORMS.join(', ')} (tidak pernah bulan di depan)`;
      break;
    case 'integer':
      rule = `Bilangan bulat ${param('min')} sampai ${param('max')}`;
      break;
    case 'status':
      rule = `Salah satu: ${SCHEME_STATUSES.join(', ')}, atau NOT ACTIVE`;
      break;
    case 'validForType':
      rule = `Salah satu: ${VALID_FOR_TYPES.map((t) => VALID_FOR_TYPE_LABELS[t]).join(', ')} atau ${VALID_FOR_TYPES.join(', ')}`;
      break;
    case 'type':
      rule = 'Nama atau kode sertifikat yang sudah ada di perusahaan ini';
      break;
    case 'body':
      rule = 'Nama badan akreditasi perusahaan ini; kosong = tidak terakreditasi';
      break;
    case 'sectors':
      rule = 'Kode sektor IAF 1 sampai 39, dipisah koma (mis. 28, 33; boleh diawali EA); kosong = tidak ada';
      break;
    case 'country':
      rule = 'Kode negara ISO 3166-1 alpha-2 (mis. ID, MY, SG); kosong = ID (Indonesia)';
      break;
    default: {
      const email = described?.tests?.some((t) => t.name === 'email') ? ', alamat email' : '';
      const url = described?.tests?.some((t) => t.name === 'url') ? ', URL (https://...)' : '';
      const lines = described?.meta?.multiline ? ', boleh beberapa baris' : '';
      rule = `Teks maksimal ${param('max')} karakter${email}${url}${lines}; teks diawali '=' disimpan apa adanya`;
    }
  }
  const key =
    column.field === 'certificate_number' || column.field === 'cert_number'
      ? ' Kunci pencocokan: data dengan nomor yang sama diperbarui.'
      : '';
  return [column.header, required, rule + '.' + key];
}

/** Why an import job stopped: the code, a message, and the cells that stopped it when a row did. */
export const importJobErrorSchema = yup.object({
  code: yup.string().defined(),
  message: yup.string().defined(),
  rows: yup.array(importCellErrorSchema.defined()).optional(),
});
export type ImportJobError = yup.InferType<typeof importJobErrorSchema>;

/**
 * An import job (`202` of an apply, `GET /api/import/jobs/{id}`, the items of `GET /api/import/jobs`):
 * who started it and when, the file, its state and progress in rows; `result` (the check's answer,
 * mode `apply`) once done, `error` once failed.
 */
export interface ImportJob {
  id: string;
  company_id: string;
  kind: ImportKind;
  file_name: string;
  state: ImportJobState;
  done: number;
  total: number;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result: ImportResult | null;
  error: ImportJobError | null;
}

/** `202` of an apply: the job, to be followed at `Location` (`/api/import/jobs/{id}`). */
export interface ImportJobAccepted {
  job: ImportJob;
}

/** The query of `GET /api/import/jobs`: the company (one in scope) and the page. */
export const importJobListQuerySchema = yup
  .object({
    company_id: yup
      .string()
      .trim()
      .lowercase()
      .uuid('Perusahaan tidak valid')
      .required('Perusahaan wajib diisi'),
    page: yup.number().typeError('Halaman harus berupa angka').integer().min(1).max(1_000_000).default(1),
    paginate: yup
      .number()
      .typeError('Jumlah per halaman harus berupa angka')
      .integer()
      .min(1)
      .max(100)
      .default(10),
  })
  .noUnknown('Parameter tidak dikenal: ${unknown}');
export type ImportJobListQuery = yup.InferType<typeof importJobListQuerySchema>;

/** The path a job is followed at. */
export const importJobPath = (id: string) => `/api/import/jobs/${id}`;
