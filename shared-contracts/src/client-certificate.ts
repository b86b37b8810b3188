import * as yup from 'yup';
import {
  imageFileField,
  imageNameField,
  methodOverrideField,
  optionalEmail,
  optionalInteger,
  optionalText,
  optionalUuid,
  outId,
  outText,
  refSchema,
  requiredInteger,
  requiredOneOf,
  requiredText,
  uuidField,
} from './fields';
import { optionalDate, requiredDate } from './dates';
import { V } from './messages';
import { EFFECTIVE_STATUSES, FLAG_VALUES, SCHEME_STATUSES, VALID_FOR_TYPES } from './statuses';
import {
  addressFields,
  addressOut,
  schemeSiteSchema,
  schemeSitesField,
  sectorCodesField,
} from './client-site';

/**
 * Client certificates ('Sertifikasi Perusahaan', docs/rules.md#entities): a certified client company of
 * a certification body, with its schemes. `certificate_number` is unique within its company
 * (ignoring case). Multipart bodies (logo).
 */
export const CLIENT_CERTIFICATE_IMAGE_LABELS = { logo: 'Logo' } as const;

const optionalUrl = (label: string) => optionalText(label, 500).url(V.url(label));

export const SEND_REMINDERS_LABEL = 'Kirim pengingat ke klien';

/** A 'true'/'false' flag (booleans accepted); absent stays absent (an update keeps the stored value). */
const optionalFlag = (label: string) =>
  yup
    .string()
    .typeError(V.oneOf(label))
    .transform((v: unknown) => (typeof v === 'boolean' ? String(v) : v))
    .oneOf([...FLAG_VALUES], V.oneOf(label))
    .optional();

export const clientCertificateInputSchema = yup
  .object({
    company_id: uuidField('Perusahaan'),
    name: requiredText('Nama Klien', 200),
    name_en: optionalText('Nama (Inggris)', 200),
    certificate_number: requiredText('Nomor Sertifikat', 100),
    region: requiredText('Region', 100),
    logo: imageNameField('Logo'),
    logo_file: imageFileField('Logo'),
    address: optionalText('Alamat', 1000, { multiline: true }),
    ...addressFields(),
    scope: optionalText('Ruang Lingkup', 3000, { multiline: true }),
    ea_code: optionalText('Kode EA', 100),
    nace_code: optionalText('Kode NACE', 100),
    president: optionalText('Pimpinan', 200),
    management_representative: optionalText('Wakil Manajemen', 200),
    foundation_day: optionalDate('Tanggal Berdiri'),
    employees_number: optionalInteger('Jumlah Karyawan', 0, 10_000_000),
    employees_active: optionalInteger('Jumlah Karyawan Aktif', 0, 10_000_000),
    phone: optionalText('Telepon', 50),
    handphone: optionalText('Handphone', 50),
    fax: optionalText('Fax', 50),
    email: optionalEmail(),
    website: optionalUrl('Website'),
    /** 'Kirim pengingat ke klien' (on unless turned off); absent on an update keeps it. */
    send_reminders: optionalFlag(SEND_REMINDERS_LABEL),
    _method: methodOverrideField(),
  })
  .noUnknown(V.unknown);
export type ClientCertificateInput = yup.InferType<typeof clientCertificateInputSchema>;

/** A client as lists and the detail page show it (the detail adds `schema`, its schemes). */
export const clientCertificateSchema = yup.object({
  id: outId(),
  company_id: outId(),
  company: refSchema().defined(),
  name: yup.string().defined(),
  name_en: outText(),
  certificate_number: yup.string().defined(),
  region: yup.string().defined(),
  logo: outText(),
  address: outText(),
  ...addressOut(),
  scope: outText(),
  ea_code: outText(),
  nace_code: outText(),
  president: outText(),
  management_representative: outText(),
  foundation_day: outText(),
  employees_number: yup.number().nullable().defined(),
  employees_active: yup.number().nullable().defined(),
  phone: outText(),
  handphone: outText(),
  fax: outText(),
  email: outText(),
  website: outText(),
  send_reminders: yup.string().oneOf(['true', 'false']).defined(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type ClientCertificate = yup.InferType<typeof clientCertificateSchema>;

/** A flag that must be given ('true'/'false', booleans accepted). */
const requiredFlag = (label: string) =>
  requiredOneOf(label, FLAG_VALUES).transform((v: unknown) => (typeof v === 'boolean' ? String(v) : v));

/**
 * A scheme (docs/rules.md#entities, #validation and #records): one certification of a client
 * against a certification type. JSON bodies. `expired_date` is never taken from the client: the API
 * computes it (`addValidity`). `cert_number` ('Nomor Sertifikat') is unique across all companies and
 * is what the public checks. `company_id`, when sent, must be the client's.
 */
export const schemeInputSchema = yup
  .object({
    certificate_id: uuidField('Klien'),
    company_id: optionalUuid('Perusahaan'),
    certification_id: uuidField('Sertifikat'),
    cert_number: requiredText('Nomor Sertifikat', 100),
    status: requiredOneOf('Status', SCHEME_STATUSES),
    issue_date: requiredDate('Tanggal Terbit'),
    /** The first issue of the certificate (docs/rules.md#register-data); empty: the issue date stands in. */
    original_issue_date: optionalDate('Tanggal Terbit Awal').test(
      'not-after-issue',
      'Tanggal Terbit Awal tidak boleh setelah Tanggal Terbit',
      function (value) {
        const issue = (this.parent as { issue_date?: unknown }).issue_date;
        return !value || typeof issue !== 'string' || value <= issue;
      },
    ),
    issue_date2: optionalDate('Tanggal Terbit Terakhir'),
    valid_for: requiredInteger('Masa Berlaku', 1, 1000),
    valid_for_type: requiredOneOf('Satuan Masa Berlaku', VALID_FOR_TYPES),
    valid_date: optionalDate('Tanggal Berlaku'),
    surveillance_date: optionalDate('Tanggal Surveilan'),
    /** The certification decision (docs/product.md, "The certification cycle"); empty: the issue date stands in. */
    decision_date: optionalDate('Tanggal Keputusan'),
    is_accredited: requiredFlag('Terakreditasi'),
    accredited_id: optionalUuid('Akreditasi').when('is_accredited', {
      is: 'true',
      then: (s) => s.required(V.required('Akreditasi')),
    }),
    desc: optionalText('Deskripsi', 5000, { multiline: true }),
    /** 'Lingkup' of this certificate; empty: the client's scope stands. */
    scope: optionalText('Lingkup', 3000, { multiline: true }),
    sector_codes: sectorCodesField(),
    sites: schemeSitesField(),
  })
  .noUnknown(V.unknown);
export type SchemeInput = yup.InferType<typeof schemeInputSchema>;

export const schemeSchema = yup.object({
  id: outId(),
  company_id: outId(),
  certificate_id: outId(),
  /** The client's own number and name, for cards and reports. */
  certificate_number: yup.string().defined(),
  client_name: yup.string().defined(),
  certification_id: outId(),
  /** The certification type's name (read, not copied). */
  cert_name: yup.string().defined(),
  accredited_id: outText(),
  /** The accreditation body's name, or null. */
  accredited: outText(),
  cert_number: yup.string().defined(),
  status: yup
    .string()
    .oneOf([...SCHEME_STATUSES])
    .defined(),
  /** `status`, except EXPIRED for an ACTIVE scheme past `expired_date` (today in the deployment's TZ). */
  effective_status: yup
    .string()
    .oneOf([...EFFECTIVE_STATUSES])
    .defined(),
  issue_date: yup.string().defined(),
  /** The first issue, or null (the issue date stands in). */
  original_issue_date: outText(),
  issue_date2: outText(),
  valid_for: yup.number().defined(),
  valid_for_type: yup
    .string()
    .oneOf([...VALID_FOR_TYPES])
    .defined(),
  valid_date: outText(),
  expired_date: yup.string().defined(),
  surveillance_date: outText(),
  /** The certification decision, or null (the issue date stands in for it). */
  decision_date: outText(),
  /** ACTIVE (not expired) with a surveillance date before today. */
  surveillance_overdue: yup.boolean().defined(),
  /** Days from today until `expired_date` while effectively ACTIVE; null otherwise. */
  days_left: yup.number().nullable().defined(),
  is_accredited: yup
    .string()
    .oneOf([...FLAG_VALUES])
    .defined(),
  desc: outText(),
  /** 'Lingkup' of this certificate, or null (the client's scope stands). */
  scope: outText(),
  sector_codes: yup.array(yup.number().defined()).defined(),
  /** The client's sites the certificate covers, each with its own scope or null (the scheme's). */
  sites: yup.array(schemeSiteSchema).defined(),
  /** 0 at creation, one more on every save that changes what the certificate shows. */
  revision: yup.number().defined(),
  /** The QR (PNG, base64, no data: prefix) once generated. */
  qrcode: outText(),
  created_at: yup.string().defined(),
  updated_at: yup.string().defined(),
});
export type Scheme = yup.InferType<typeof schemeSchema>;

/** `GET company-certificate/{company_id}/{id}`: the client with its schemes and company settings. */
export const clientCertificateDetailSchema = clientCertificateSchema.shape({
  company: yup
    .object({
      id: outId(),
      name: yup.string().defined(),
      simple_dates: yup
        .string()
        .oneOf([...FLAG_VALUES])
        .defined(),
      public_certificate_download: yup
        .string()
        .oneOf([...FLAG_VALUES])
        .defined(),
    })
    .defined(),
  schema: yup.array(schemeSchema).defined(),
});
export type ClientCertificateDetail = yup.InferType<typeof clientCertificateDetailSchema>;

/** One change of a scheme's status (`GET company-certificate-scheme/{id}/history`, newest first). */
export const schemeHistoryEntrySchema = yup.object({
  /** The status before (null for the creation). */
  from: yup
    .string()
    .oneOf([...SCHEME_STATUSES])
    .nullable()
    .defined(),
  to: yup
    .string()
    .oneOf([...SCHEME_STATUSES])
    .defined(),
  /** When the change was written (ISO 8601). */
  at: yup.string().defined(),
  /** The date from which the status holds: issue_date for the creation, else the day of the change. */
  effective_from: yup.string().defined(),
  /** Username of who changed it, when known. */
  by: outText(),
});
export type SchemeHistoryEntry = yup.InferType<typeof schemeHistoryEntrySchema>;

/** An option of a look-up (docs/rules.md#calls `select/...`): id, name and owning company. */
export const lookupOptionSchema = yup.object({
  id: outId(),
  name: yup.string().defined(),
  company_id: outId(),
  company: refSchema().defined(),
});
export type LookupOption = yup.InferType<typeof lookupOptionSchema>;

/** `GET select/certification/{company_id}`: certification types and accreditation bodies. */
export const certificationLookupsSchema = yup.object({
  certification: yup.array(lookupOptionSchema).defined(),
  accredited: yup.array(lookupOptionSchema).defined(),
});
export type CertificationLookups = yup.InferType<typeof certificationLookupsSchema>;

/** `GET select/report/{company_id}`: the above plus the clients, for report filters. */
export const reportLookupsSchema = certificationLookupsSchema.shape({
  company_certificate: yup.array(lookupOptionSchema).defined(),
});
export type ReportLookups = yup.InferType<typeof reportLookupsSchema>;

/** Sort keys of the lists (`sort=<key>&order=asc|desc`). */
export const CLIENT_CERTIFICATE_SORTS = ['name', 'certificate_number', 'region'] as const;
export const TRAINING_CERTIFICATE_SORTS = ['name', 'certificate_number', 'date'] as const;
