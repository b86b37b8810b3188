/**
 * IAF CertSearch ('IAF CertSearch', permission `iaf-certsearch`; docs/rules.md#iaf-certsearch): what
 * the readiness check answers, the settings of a company's account and the uploads' log. Used by the
 * API, the screen and the tests.
 */
import * as yup from 'yup';
import { noControlChars, outId, outText, trimString, uuidField } from './fields';
import { V } from './messages';

/** The refusals the API answers and the screen shows before asking. */
export const IAF_MESSAGES = {
  /** Switching on, or an upload, without any key stored. */
  noKey: 'Kunci API IAF CertSearch belum diatur',
} as const;

/** `?company_id=` of every IAF CertSearch read. */
export const iafCompanyQuerySchema = yup.object({ company_id: uuidField('Perusahaan') }).noUnknown(V.unknown);
export type IafCompanyQuery = yup.InferType<typeof iafCompanyQuerySchema>;

/** What a scheme may miss before it can go to IAF CertSearch, with the words the screen shows. */
export const IAF_MISSING_FIELDS = [
  'cert_number',
  'scope',
  'address',
  'city',
  'country',
  'sector_codes',
  'accreditation_body_acronym',
  'expiry_date',
] as const;
export type IafMissingField = (typeof IAF_MISSING_FIELDS)[number];
export const IAF_MISSING_LABELS: Record<IafMissingField, string> = {
  cert_number: 'Nomor Sertifikat',
  scope: 'Lingkup',
  address: 'Alamat',
  city: 'Kota/Kabupaten',
  country: 'Negara',
  sector_codes: 'Kode Sektor IAF',
  accreditation_body_acronym: 'Singkatan Badan Akreditasi',
  expiry_date: 'Tanggal Kadaluarsa',
};

/** One scheme that cannot go yet, with the record it belongs to (for the link on screen). */
export const iafIncompleteSchema = yup.object({
  scheme_id: outId(),
  client_id: outId(),
  client_name: yup.string().defined(),
  cert_number: outText(),
  missing: yup.array(yup.string<IafMissingField>().defined()).defined(),
});
export type IafIncomplete = yup.InferType<typeof iafIncompleteSchema>;

/** `GET /api/iaf-certsearch`: how many of the company's schemes go, and what the rest miss. */
export const iafReadinessSchema = yup.object({
  company_id: outId(),
  /** Accredited schemes that are not DRAFT. */
  total: yup.number().defined(),
  ready: yup.number().defined(),
  incomplete: yup.array(iafIncompleteSchema).defined(),
});
export type IafReadiness = yup.InferType<typeof iafReadinessSchema>;

/** `PUT /api/iaf-certsearch/settings`: an empty or absent key keeps the one stored. */
export const iafSettingsInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    api_key: yup
      .string()
      .typeError(V.oneOf('Kunci API'))
      .transform(trimString)
      .max(500, V.max('Kunci API', 500))
      .test(noControlChars('Kunci API'))
      .optional(),
    enabled: yup.boolean().typeError(V.oneOf('Aktif')).required(V.required('Aktif')),
  })
  .noUnknown(V.unknown);
export type IafSettingsInput = yup.InferType<typeof iafSettingsInputSchema>;

/** The settings as any read answers them: never the key, only whether one is stored. */
export const iafSettingsSchema = yup.object({
  enabled: yup.boolean().defined(),
  has_key: yup.boolean().defined(),
});
export type IafSettings = yup.InferType<typeof iafSettingsSchema>;

/** 'Unggah Sekarang' (`all`: 'Unggah Semua', every ready scheme, changed or not). */
export const iafUploadInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    all: yup.boolean().typeError(V.oneOf('Semua')).default(false),
  })
  .noUnknown(V.unknown);
export type IafUploadInput = yup.InferType<typeof iafUploadInputSchema>;

export const IAF_UPLOAD_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type IafUploadState = (typeof IAF_UPLOAD_STATES)[number];
export const IAF_UPLOAD_STATE_LABELS: Record<IafUploadState, string> = {
  queued: 'Menunggu',
  running: 'Berjalan',
  done: 'Selesai',
  failed: 'Gagal',
};

/** A record IAF CertSearch refused: its certificate number and the API's reason. */
export const iafRefusalSchema = yup.object({
  cert_number: yup.string().defined(),
  reason: yup.string().defined(),
});
export type IafRefusal = yup.InferType<typeof iafRefusalSchema>;

/** One upload, as 'Riwayat Unggah' lists it. */
export const iafUploadSchema = yup.object({
  id: outId(),
  company_id: outId(),
  /** `manual` ('Unggah Sekarang') or `schedule`. */
  trigger: yup.string().oneOf(['manual', 'schedule']).defined(),
  all: yup.boolean().defined(),
  state: yup
    .string<IafUploadState>()
    .oneOf([...IAF_UPLOAD_STATES])
    .defined(),
  created_at: yup.string().defined(),
  finished_at: outText(),
  sent: yup.number().defined(),
  accepted: yup.number().defined(),
  refused: yup.array(iafRefusalSchema).defined(),
  /** Why a failed upload stopped. */
  error: outText(),
});
export type IafUpload = yup.InferType<typeof iafUploadSchema>;

export const iafUploadListSchema = yup.object({ data: yup.array(iafUploadSchema).defined() });
export type IafUploadList = yup.InferType<typeof iafUploadListSchema>;

/** The Excel upload workbook's file name. */
export const IAF_EXPORT_FILE = 'iaf-certsearch.xlsx';
