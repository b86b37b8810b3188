/**
 * Every unique constraint and unique index of db/schema.ts, in one place: a duplicate is answered by
 * the database (no pre-check per route, no race between check and write) and turned by
 * plugins/errors.ts into `422 {code, message, errors: {field: message}}` (docs/rules.md#sign-in and #records
 * and 8) with the field and message below. `null` marks the ones no client input can break (ids and
 * hashes the API makes itself): a violation of those is a fault, answered 500. A test holds this
 * table to the schema, so a new unique index must be listed.
 */
export const UNIQUE_CONSTRAINTS: Record<string, readonly [field: string, message: string] | null> = {
  permissions_name_uq: null,
  roles_name_lower_uq: ['name', 'Nama akses sudah digunakan'],
  companies_name_lower_uq: ['name', 'Nama perusahaan sudah digunakan'],
  users_username_lower_uq: ['username', 'Username sudah digunakan'],
  users_email_lower_uq: ['email', 'Email sudah digunakan'],
  mail_outbox_dedupe_uq: null,
  sessions_token_hash_uq: null,
  images_name_uq: null,
  certification_types_id_company_uq: null,
  accredited_bodies_id_company_uq: null,
  client_certificates_id_company_uq: null,
  client_certificates_number_uq: ['certificate_number', 'Nomor sertifikat sudah digunakan'],
  schemes_cert_number_uq: ['cert_number', 'Nomor sertifikat sudah digunakan'],
  training_certificates_number_uq: ['certificate_number', 'Nomor sertifikat sudah digunakan'],
  // Two processes making the first key at once: ON CONFLICT DO NOTHING keeps the first (services/signing.ts).
  signing_keys_one_active_uq: null,
  auditors_email_uq: ['email', 'Email auditor sudah digunakan'],
  // What the team rows' foreign key points to; the id alone is already the primary key.
  planned_audits_id_dates_uq: null,
};
