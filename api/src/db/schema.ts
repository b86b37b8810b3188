/**
 * The whole data model (docs/rules.md#entities, #records and #data). Portable SQL: UUID keys
 * made by the app, text + CHECK instead of enums, no triggers. Case-insensitive uniqueness uses
 * unique indexes on lower(...). Every company-owned row carries company_id; schemes carry their
 * parent's, enforced by composite foreign keys.
 *
 * Long file: drizzle-kit reads the schema from this one module (drizzle.config.ts), and the tables
 * refer to each other by foreign key, so every table, check and index of the model stays here.
 */
import { type AnyColumn, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { searchIndex } from './search';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** The IAF sector codes 1-39, for the check of `schemes.sector_codes`. */
const SECTOR_CODE_LIST = Array.from({ length: 39 }, (_, i) => i + 1).join(',');

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const timestamps = {
  created_at: ts('created_at').notNull().defaultNow(),
  updated_at: ts('updated_at').notNull().defaultNow(),
};

export const permissions = pgTable('permissions', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull().unique('permissions_name_uq'),
});

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_name_lower_uq').on(sql`lower(${t.name})`)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    role_id: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission_id: uuid('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.role_id, t.permission_id] }),
    index('role_permissions_perm_idx').on(t.permission_id),
  ],
);

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    address: text('address'),
    website: text('website'),
    logo: text('logo'),
    logo_cert: text('logo_cert'),
    ttd_cert: text('ttd_cert'),
    simple_dates: boolean('simple_dates').notNull().default(false),
    public_certificate_download: boolean('public_certificate_download').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`),
    searchIndex('companies_search_idx', [t.name, t.email, t.phone, t.website]),
    index('companies_name_sort_idx').on(sql`lower(${t.name})`, t.id),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    username: text('username').notNull(),
    /** Optional; unique ignoring case when given (the weekly digest goes here). */
    email: text('email'),
    password_hash: text('password_hash').notNull(),
    roles_id: uuid('roles_id').references(() => roles.id, { onDelete: 'restrict' }),
    /** Scope ALL; otherwise the companies in user_companies. */
    scope_all: boolean('scope_all').notNull().default(false),
    is_active: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_roles_idx').on(t.roles_id),
    searchIndex('users_search_idx', [t.name, t.username]),
    index('users_name_sort_idx').on(sql`lower(${t.name})`, t.id),
  ],
);

export const userCompanies = pgTable(
  'user_companies',
  {
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.company_id] }),
    index('user_companies_company_idx').on(t.company_id),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull().unique('sessions_token_hash_uq'),
    created_at: ts('created_at').notNull().defaultNow(),
    last_used_at: ts('last_used_at').notNull().defaultNow(),
    /** Absolute end (7 days after sign-in). */
    expires_at: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.user_id), index('sessions_expires_idx').on(t.expires_at)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [
    index('login_failures_username_idx').on(t.username, t.at),
    index('login_failures_ip_idx').on(t.ip, t.at),
  ],
);

/**
 * One row per username (`u:<name>`) and per address (`a:<ip>`) that signs in: locked (FOR UPDATE)
 * while an attempt is checked and counted, so concurrent attempts cannot all pass the check.
 */
export const loginThrottleKeys = pgTable(
  'login_throttle_keys',
  {
    key: text('key').primaryKey(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('login_throttle_keys_at_idx').on(t.at)],
);

export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull().unique('images_name_uq'),
    content_type: text('content_type').notNull(),
    data: bytea('data').notNull(),
    /** sha256 of `data` (hex), computed once at upload: the ETag /images/<name> answers with. */
    etag: text('etag').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    created_at: ts('created_at').notNull().defaultNow(),
  },
  (t) => [check('images_content_type_ck', sql`${t.content_type} in ('image/jpeg', 'image/png')`)],
);

export const certificationTypes = pgTable(
  'certification_types',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    category: text('category').notNull(),
    code: text('code').notNull(),
    position: integer('position').notNull().default(0),
    valid_for: integer('valid_for'),
    valid_for_type: text('valid_for_type'),
    icon: text('icon'),
    ...timestamps,
  },
  (t) => [
    unique('certification_types_id_company_uq').on(t.id, t.company_id),
    index('certification_types_company_idx').on(t.company_id, t.position),
    searchIndex('certification_types_search_idx', [t.name, t.code, t.category]),
    check(
      'certification_types_vft_ck',
      sql`${t.valid_for_type} is null or ${t.valid_for_type} in ('YEAR', 'MONTH', 'DAY')`,
    ),
  ],
);

export const accreditationBodies = pgTable(
  'accredited_bodies',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** 'Singkatan' (e.g. KAN). */
    acronym: text('acronym'),
    icon: text('icon'),
    ...timestamps,
  },
  (t) => [
    unique('accredited_bodies_id_company_uq').on(t.id, t.company_id),
    /** The list's order (name, any case) within a company; also serves lookups by company. */
    index('accredited_bodies_company_name_idx').on(t.company_id, sql`lower(${t.name})`),
    searchIndex('accredited_bodies_search_idx', [t.name]),
  ],
);

export const clientCertificates = pgTable(
  'client_certificates',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    certificate_number: text('certificate_number').notNull(),
    region: text('region').notNull(),
    name: text('name').notNull(),
    /** 'Nama (Inggris)' (docs/rules.md#register-data). */
    name_en: text('name_en'),
    logo: text('logo'),
    /** The street line; the rest of the address in the columns after it. */
    address: text('address'),
    city: text('city'),
    province: text('province'),
    postcode: text('postcode'),
    /** ISO 3166-1 alpha-2. */
    country: text('country').notNull().default('ID'),
    scope: text('scope'),
    ea_code: text('ea_code'),
    nace_code: text('nace_code'),
    president: text('president'),
    management_representative: text('management_representative'),
    foundation_day: date('foundation_day', { mode: 'string' }),
    employees_number: integer('employees_number'),
    employees_active: integer('employees_active'),
    phone: text('phone'),
    handphone: text('handphone'),
    fax: text('fax'),
    email: text('email'),
    website: text('website'),
    qrcode: text('qrcode'),
    /** 'Kirim pengingat ke klien': reminders go to `email` unless off. */
    send_reminders: boolean('send_reminders').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    unique('client_certificates_id_company_uq').on(t.id, t.company_id),
    uniqueIndex('client_certificates_number_uq').on(t.company_id, sql`lower(${t.certificate_number})`),
    index('client_certificates_company_name_idx').on(t.company_id, sql`lower(${t.name})`),
    // The list's orders over every company in scope (name by default; CLIENT_CERTIFICATE_SORTS), served by an index.
    index('client_certificates_name_sort_idx').on(sql`lower(${t.name})`, t.id),
    index('client_certificates_number_sort_idx').on(sql`lower(${t.certificate_number})`, t.id),
    index('client_certificates_region_sort_idx').on(sql`lower(${t.region})`, t.id),
    searchIndex('client_certificates_search_idx', [t.name, t.certificate_number, t.region]),
  ],
);

export const schemes = pgTable(
  'schemes',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id').notNull(),
    certificate_id: uuid('certificate_id').notNull(),
    certification_id: uuid('certification_id').notNull(),
    accredited_id: uuid('accredited_id'),
    cert_number: text('cert_number'),
    status: text('status').notNull(),
    issue_date: date('issue_date', { mode: 'string' }).notNull(),
    /** 'Tanggal Terbit Awal' (optional; the issue date stands in). */
    original_issue_date: date('original_issue_date', { mode: 'string' }),
    issue_date2: date('issue_date2', { mode: 'string' }),
    valid_for: integer('valid_for').notNull(),
    valid_for_type: text('valid_for_type').notNull(),
    valid_date: date('valid_date', { mode: 'string' }),
    /** issue_date + valid_for valid_for_type, computed by the API. */
    expired_date: date('expired_date', { mode: 'string' }).notNull(),
    surveillance_date: date('surveillance_date', { mode: 'string' }),
    /** The certification decision (optional; the issue date stands in for it in the cycle). */
    decision_date: date('decision_date', { mode: 'string' }),
    is_accredited: boolean('is_accredited').notNull().default(false),
    description: text('description'),
    /** 'Lingkup' of this certificate (optional; the client's scope stands). */
    scope: text('scope'),
    /** 'Kode Sektor IAF': IAF sector codes 1-39, ascending, no repeats (docs/rules.md#register-data). */
    sector_codes: integer('sector_codes')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    /** The client's sites the certificate covers: `[{site_id, scope}]` (docs/rules.md#register-data). */
    sites: jsonb('sites').$type<{ site_id: string; scope: string | null }[]>().notNull().default([]),
    /** 0 at creation, one more on every save that changes what the certificate shows. */
    revision: integer('revision').notNull().default(0),
    qrcode: text('qrcode'),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      name: 'schemes_certificate_fk',
      columns: [t.certificate_id, t.company_id],
      foreignColumns: [clientCertificates.id, clientCertificates.company_id],
    }).onDelete('restrict'),
    foreignKey({
      name: 'schemes_certification_fk',
      columns: [t.certification_id, t.company_id],
      foreignColumns: [certificationTypes.id, certificationTypes.company_id],
    }).onDelete('restrict'),
    foreignKey({
      name: 'schemes_accredited_fk',
      columns: [t.accredited_id, t.company_id],
      foreignColumns: [accreditationBodies.id, accreditationBodies.company_id],
    }).onDelete('restrict'),
    uniqueIndex('schemes_cert_number_uq').on(sql`lower(trim(${t.cert_number}))`),
    index('schemes_certificate_idx').on(t.certificate_id),
    index('schemes_company_status_idx').on(t.company_id, t.status),
    index('schemes_company_expired_idx').on(t.company_id, t.expired_date),
    index('schemes_company_issue_idx').on(t.company_id, t.issue_date),
    /** The dashboard's expiring list (ACTIVE, soonest first) over every company: its first rows only. */
    index('schemes_active_expiry_idx')
      .on(t.expired_date, t.id)
      .where(sql`${t.status} = 'ACTIVE'`),
    /** The scheme report's order (newest issue first, id breaking ties) over every company (ALL). */
    index('schemes_issue_id_idx').on(t.issue_date, t.id),
    /** The same order for its usual filter, status ACTIVE: the newest drafts are not walked past. */
    index('schemes_active_issue_idx')
      .on(t.issue_date, t.id)
      .where(sql`${t.status} = 'ACTIVE'`),
    index('schemes_certification_idx').on(t.certification_id),
    index('schemes_accredited_idx').on(t.accredited_id),
    searchIndex('schemes_search_idx', [t.cert_number]),
    check('schemes_status_ck', sql`${t.status} in ('ACTIVE', 'SUSPENDED', 'WITHDRAWN', 'DRAFT', 'NOACTIVE')`),
    check('schemes_vft_ck', sql`${t.valid_for_type} in ('YEAR', 'MONTH', 'DAY')`),
    check('schemes_valid_for_ck', sql`${t.valid_for} > 0`),
    check('schemes_accredited_ck', sql`${t.is_accredited} = false or ${t.accredited_id} is not null`),
    check(
      'schemes_sector_codes_ck',
      sql`${t.sector_codes} <@ array[${sql.raw(SECTOR_CODE_LIST)}]::integer[]`,
    ),
    check('schemes_revision_ck', sql`${t.revision} >= 0`),
  ],
);

/**
 * The sites ('Lokasi') of a client (docs/rules.md#register-data): name and address. A scheme of the
 * client names the ones it covers (`schemes.sites`); a site a scheme covers is not deleted.
 */
export const clientSites = pgTable(
  'client_sites',
  {
    id: uuid('id').primaryKey(),
    /** The client's company (every company-owned row carries it). */
    company_id: uuid('company_id').notNull(),
    client_id: uuid('client_id').notNull(),
    name: text('name').notNull(),
    address: text('address'),
    city: text('city'),
    province: text('province'),
    postcode: text('postcode'),
    country: text('country').notNull().default('ID'),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      name: 'client_sites_client_fk',
      columns: [t.client_id, t.company_id],
      foreignColumns: [clientCertificates.id, clientCertificates.company_id],
    }).onDelete('restrict'),
    index('client_sites_client_idx').on(t.client_id, sql`lower(${t.name})`),
  ],
);

/**
 * The audits done on a scheme ('Riwayat Audit'; docs/product.md, "The certification cycle"): written
 * through the schemes' service (modules/schemes/scheme-audits.service.ts), audited like any write.
 * They go with their scheme.
 */
export const schemeAudits = pgTable(
  'scheme_audits',
  {
    id: uuid('id').primaryKey(),
    scheme_id: uuid('scheme_id')
      .notNull()
      .references(() => schemes.id, { onDelete: 'cascade' }),
    /** The scheme's company (every company-owned row carries it). */
    company_id: uuid('company_id').notNull(),
    kind: text('kind').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    notes: text('notes'),
    ...timestamps,
  },
  (t) => [
    index('scheme_audits_scheme_idx').on(t.scheme_id, t.date),
    check('scheme_audits_kind_ck', sql`${t.kind} in ('SURVEILLANCE', 'RECERTIFICATION', 'SPECIAL')`),
  ],
);

export const trainingCertificates = pgTable(
  'training_certificates',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    certification_id: uuid('certification_id'),
    certificate_number: text('certificate_number').notNull(),
    name: text('name').notNull(),
    training: text('training').notNull(),
    location: text('location').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    description: text('description'),
    qrcode: text('qrcode'),
    ...timestamps,
  },
  (t) => [
    foreignKey({
      name: 'training_certification_fk',
      columns: [t.certification_id, t.company_id],
      foreignColumns: [certificationTypes.id, certificationTypes.company_id],
    }).onDelete('restrict'),
    uniqueIndex('training_certificates_number_uq').on(sql`lower(trim(${t.certificate_number}))`),
    index('training_certificates_company_date_idx').on(t.company_id, t.date),
    /** The list's default order (newest first) over every company (ALL). */
    index('training_certificates_date_idx').on(t.date),
    index('training_certificates_certification_idx').on(t.certification_id),
    searchIndex('training_certificates_search_idx', [t.name, t.certificate_number, t.training, t.location]),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey(),
    at: ts('at').notNull().defaultNow(),
    /** No foreign key: the trail outlives the users it names. */
    actor_id: uuid('actor_id'),
    actor_username: text('actor_username'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entity_id: uuid('entity_id').notNull(),
    company_id: uuid('company_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    request_id: text('request_id'),
    /** Where the write came from (services/context.ts WriteSource); null on rows older than the column. */
    source: text('source'),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entity, t.entity_id, t.at),
    index('audit_log_at_idx').on(t.at),
    check('audit_log_action_ck', sql`${t.action} in ('create', 'update', 'delete')`),
  ],
);

/**
 * The Ed25519 keys certificates are signed with (docs/rules.md#signed-certificates; services/signing.ts). Kept
 * here so a backup holds them. One key signs (retired_at null, at most one: the partial unique
 * index); retired keys stay, published, so what they signed still verifies. The private key never
 * leaves services/signing.ts.
 */
export const signingKeys = pgTable(
  'signing_keys',
  {
    /** Key id: base64url, no dot (the part before the dot of a QR code's `vc`). */
    kid: text('kid').primaryKey(),
    /** The public key, base64url (a JWK's `x`). */
    public_key: text('public_key').notNull(),
    /** The private key, PKCS #8 DER, base64. */
    private_key: text('private_key').notNull(),
    created_at: ts('created_at').notNull().defaultNow(),
    retired_at: ts('retired_at'),
  },
  (t) => [
    uniqueIndex('signing_keys_one_active_uq')
      .on(sql`(${t.retired_at} is null)`)
      .where(sql`${t.retired_at} is null`),
    check('signing_keys_kid_ck', sql`${t.kid} ~ '^[A-Za-z0-9_-]+$'`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Register counts (docs/rules.md#large-registers): kept by the after-write step
// `services/register-counts.ts` in the writer's transaction, rebuilt from the records after a bulk
// load (`rebuildRegisterCounts`). Counted by date, never by "today": a day passing changes what a
// reader sums (`expired_date < today`), not a stored row, so no job runs at midnight. Rows whose
// count fell to 0 may stay; readers sum them away.
// ---------------------------------------------------------------------------------------------

/** Schemes per company, stored status and expiry date (EXPIRED: ACTIVE rows dated before today). */
export const schemeCounts = pgTable(
  'scheme_counts',
  {
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    expired_date: date('expired_date', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.status, t.expired_date] }),
    // Over every company (ALL): the ACTIVE rows before today (EXPIRED) or within a month, as a range.
    index('scheme_counts_status_expiry_idx').on(t.status, t.expired_date),
  ],
);

/**
 * Schemes per company and stored status, every expiry date together: the dashboard's figures by
 * status read these few rows (EXPIRED is then the ACTIVE rows of scheme_counts dated before today).
 */
export const schemeStatusCounts = pgTable(
  'scheme_status_counts',
  {
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.status] })],
);

/** Schemes per company, stored status and issue date: the company chart's counts per day. */
export const schemeIssueCounts = pgTable(
  'scheme_issue_counts',
  {
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issue_date: date('issue_date', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.issue_date, t.status] })],
);

/**
 * Each client with an ACTIVE scheme, and the last expiry among its ACTIVE schemes: the client is
 * certified until that day (inclusive).
 */
export const clientCertifiedUntil = pgTable('client_certified_until', {
  certificate_id: uuid('certificate_id')
    .primaryKey()
    .references(() => clientCertificates.id, { onDelete: 'cascade' }),
  company_id: uuid('company_id').notNull(),
  until: date('until', { mode: 'string' }).notNull(),
});

/** Clients per company by the day they stay certified until: certified today = sum where until >= today. */
export const certifiedClientCounts = pgTable(
  'certified_client_counts',
  {
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    until: date('until', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.until] })],
);

/** Training certificates per company and person (name trimmed, any case). */
export const trainingPersonCounts = pgTable(
  'training_person_counts',
  {
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    person: text('person').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.company_id, t.person] })],
);

/** Training certificates per person over every company (a person trained by two counts once in ALL). */
export const trainingPersonTotals = pgTable('training_person_totals', {
  person: text('person').primaryKey(),
  n: integer('n').notNull(),
});

/**
 * Per company: its training certificates (the company's student_count) and the distinct persons
 * among them (ALL reads `register_totals`, since persons do not add up across companies).
 */
export const trainingCounts = pgTable('training_counts', {
  company_id: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  certificates: integer('certificates').notNull(),
  persons: integer('persons').notNull(),
});

/** The `register_totals` row holding the distinct persons of training over every company. */
export const TRAINING_PERSONS = 'training_persons';

/** Figures over the whole register, one row each (TRAINING_PERSONS: distinct persons in ALL). */
export const registerTotals = pgTable('register_totals', {
  name: text('name').primaryKey(),
  n: integer('n').notNull(),
});

// ---------------------------------------------------------------------------------------------
// List versions (docs/rules.md#large-registers): a searched or unsearched list of a company-owned record keeps its total
// while nothing it counts has changed (services/list-versions.ts). Every write of such a record
// gives the row of its company a new random version, in the writer's transaction; a reader compares
// the versions of the companies in its scope with the ones its cached total was counted at. Not
// backed up: a restore and a bulk load give every company fresh versions.
// ---------------------------------------------------------------------------------------------

/** The version of each (record kind, company): a new random UUID at every write of such a record. */
export const listVersions = pgTable(
  'list_versions',
  {
    /** The record kind: an after-write entity name (services/list-versions.ts, LISTED_ENTITIES). */
    entity: text('entity').notNull(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    version: uuid('version').notNull(),
  },
  (t) => [primaryKey({ columns: [t.entity, t.company_id] })],
);

// ---------------------------------------------------------------------------------------------
// The certification cycle's stored due items (services/cycle-due.ts): one row per ACTIVE or
// SUSPENDED scheme with what is due next and when, kept by an after-write step and rebuilt after a
// bulk load. Dated, never "today": the schedule compares `due_date` and `expired_date` with today
// when it reads, so a day passing rewrites nothing. Not backed up: a restore rebuilds it.
// ---------------------------------------------------------------------------------------------

export const schemeCycleDue = pgTable(
  'scheme_cycle_due',
  {
    /** The scheme (no foreign key: its delete's after-write step removes the row and its count). */
    scheme_id: uuid('scheme_id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    certification_id: uuid('certification_id').notNull(),
    /** The scheme's stored status: ACTIVE or SUSPENDED. */
    status: text('status').notNull(),
    /** SURVEILLANCE, RECERTIFICATION or SUSPENSION_LIMIT (shared-contracts cycle.ts). */
    kind: text('kind').notNull(),
    due_date: date('due_date', { mode: 'string' }).notNull(),
    expired_date: date('expired_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    /**
     * The schedule over every company (ALL), soonest first, and the dashboard's range count. Status
     * and expiry in the key too: whether a row is listed today is decided in the index (an
     * index-only count; a page walks past expired rows without reading them).
     */
    index('scheme_cycle_due_due_idx').on(t.due_date, t.scheme_id, t.status, t.expired_date),
    /** The same for one company (or a scope of a few). */
    index('scheme_cycle_due_company_idx').on(t.company_id, t.due_date, t.scheme_id, t.status, t.expired_date),
  ],
);

/**
 * The items due per company and due date (what `scheme_cycle_due` holds, counted): the dashboard
 * card and the schedule's totals sum a date range of these few rows. An ACTIVE scheme that has
 * expired still has its row (nothing is rewritten when a day passes); its due date is on or before
 * its expiry, so before today: readers take the ACTIVE schemes expired before today
 * (`scheme_counts`) off the late ones. Rows whose count fell to 0 may stay.
 */
export const schemeCycleDueCounts = pgTable(
  'scheme_cycle_due_counts',
  {
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    due_date: date('due_date', { mode: 'string' }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.company_id, t.due_date] }),
    index('scheme_cycle_due_counts_due_idx').on(t.due_date),
  ],
);
// Who is told (api/src/notify, docs/architecture.md "Notifications"): the mail outbox, the
// webhooks of each company and their deliveries. The outbox and the deliveries share one shape of
// "claim, try, back off" columns (state, attempts, last_error, next_attempt_at, sent_at), which
// notify/retry.ts works on.
// ---------------------------------------------------------------------------------------------

/** Delivery states of a message or a webhook delivery. */
const deliveryState = (name: string, t: { state: AnyColumn }) =>
  check(name, sql`${t.state} in ('queued', 'sent', 'failed')`);

/** Every email the system sends: queued in the writer's transaction, sent by notify/mail.ts. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey(),
    /** The company the message is about (scope of 'Log Notifikasi'); null: about several. */
    company_id: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    /** What the message is (MAIL_KINDS). */
    kind: text('kind').notNull(),
    body_text: text('body_text').notNull(),
    body_html: text('body_html'),
    /** The signed link that stops the message's kind of mail (List-Unsubscribe); null: none. */
    unsubscribe_url: text('unsubscribe_url'),
    /** An iCalendar (RFC 5545) sent with the message as its calendar part (planned audits' invitations). */
    ical: text('ical'),
    /** Record, kind, due date and step: a message is queued at most once for it. */
    dedupe_key: text('dedupe_key').notNull(),
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    next_attempt_at: ts('next_attempt_at').notNull(),
    sent_at: ts('sent_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_uq').on(t.dedupe_key),
    deliveryState('mail_outbox_state_ck', t),
    index('mail_outbox_due_idx').on(t.state, t.next_attempt_at),
    index('mail_outbox_company_idx').on(t.company_id, t.created_at),
  ],
);

/**
 * The reminder steps already decided (notify/remind.ts): one row per record, kind, due date and step
 * (the outbox's dedupe key), written in the transaction that queues the step's mail and webhook
 * deliveries, so a step is acted on once however many processes or runs ask, and a client without
 * an email or with reminders off is not asked about again.
 */
export const remindersSent = pgTable('reminders_sent', {
  key: text('key').primaryKey(),
  company_id: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
  at: ts('at').notNull(),
});

/** A partner's endpoint: where a company's events are POSTed, signed with its secret. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** The event types it wants (WEBHOOK_EVENTS). */
    events: text('events').array().notNull(),
    /** `whsec_<base64>`: signs every delivery (Standard Webhooks); shown once, at creation. */
    secret: text('secret').notNull(),
    is_active: boolean('is_active').notNull().default(true),
    /** Failed tries in a row, of any of its deliveries (0 after a 2xx): the breaker's count. */
    consecutive_failures: integer('consecutive_failures').notNull().default(0),
    /** Its deliveries wait until then (the breaker, docs/rules.md#notifications); null: not paused. */
    paused_until: ts('paused_until'),
    ...timestamps,
  },
  (t) => [index('webhooks_company_idx').on(t.company_id)],
);

/** One event for one webhook: its body as signed, and where its tries stand. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** Also the `webhook-id` header: the same on every try. */
    id: uuid('id').primaryKey(),
    webhook_id: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    event_type: text('event_type').notNull(),
    /** The JSON body `{type, timestamp, data}`, exactly as sent. */
    payload: text('payload').notNull(),
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    last_status: integer('last_status'),
    next_attempt_at: ts('next_attempt_at').notNull(),
    sent_at: ts('sent_at'),
    ...timestamps,
  },
  (t) => [
    deliveryState('webhook_deliveries_state_ck', t),
    index('webhook_deliveries_due_idx').on(t.state, t.next_attempt_at),
    index('webhook_deliveries_webhook_idx').on(t.webhook_id, t.created_at),
  ],
);

/** Each try of a delivery: when, the answer's status (or the error) and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    delivery_id: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    status: integer('status'),
    duration_ms: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.delivery_id, t.at)],
);
/**
 * A company's IAF CertSearch account (docs/rules.md#iaf-certsearch): its API key, kept like a
 * webhook's secret (stored as given, sent as it is, never answered by any read), and the switch of
 * the scheduled upload.
 */
export const iafCertsearchSettings = pgTable('iaf_certsearch_settings', {
  company_id: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  api_key: text('api_key'),
  enabled: boolean('enabled').notNull().default(false),
  ...timestamps,
});

/**
 * One upload to IAF CertSearch ('Riwayat Unggah'): how it started, where it stands, how many records
 * went and were accepted, each refused record with the API's reason. `since`: the changes it looked
 * for (the start of the last successful upload; null: every record).
 */
export const iafCertsearchUploads = pgTable(
  'iaf_certsearch_uploads',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    trigger: text('trigger').notNull(),
    all_records: boolean('all_records').notNull().default(false),
    state: text('state').notNull().default('queued'),
    since: ts('since'),
    sent: integer('sent').notNull().default(0),
    accepted: integer('accepted').notNull().default(0),
    refused: jsonb('refused').$type<{ cert_number: string; reason: string }[]>().notNull().default([]),
    error: text('error'),
    created_at: ts('created_at').notNull(),
    started_at: ts('started_at'),
    finished_at: ts('finished_at'),
  },
  (t) => [
    index('iaf_certsearch_uploads_company_idx').on(t.company_id, t.created_at),
    check('iaf_certsearch_uploads_state_ck', sql`${t.state} in ('queued', 'running', 'done', 'failed')`),
    check('iaf_certsearch_uploads_trigger_ck', sql`${t.trigger} in ('manual', 'schedule')`),
  ],
);

// Long work as jobs (jobs/, docs/rules.md#jobs). The job engine keeps its own tables in
// the `pgboss` schema; these are ours: what a person follows of an import, and when the scheduled
// backup last succeeded. Not backed up: they describe work done on this installation, not the
// register.
// ---------------------------------------------------------------------------------------------

/**
 * One import applied as a job: the file (kept until the job ends: any process of the cluster may
 * run it, and a job that stopped resumes from it), who started it, its state and progress. `done`
 * (rows) and `applied` (planned records) move in the same transaction as each chunk's writes, so a
 * chunk is applied exactly once; `counts` sums what the chunks created, updated and left alone.
 */
export const importJobs = pgTable(
  'import_jobs',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    file_name: text('file_name').notNull(),
    file: bytea('file'),
    state: text('state').notNull().default('queued'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull(),
    applied: integer('applied').notNull().default(0),
    counts: jsonb('counts'),
    result: jsonb('result'),
    error: jsonb('error'),
    /** The acting user as the request saw them (permissions, scope), for the job's writes. */
    actor: jsonb('actor').notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_by_username: text('created_by_username'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull(),
    started_at: timestamp('started_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('import_jobs_company_created_idx').on(t.company_id, t.created_at),
    check('import_jobs_state_ck', sql`${t.state} in ('queued', 'running', 'done', 'failed')`),
  ],
);

/** The last outcome of each scheduled task (the scheduled backup), read by /api/metrics. */
export const scheduledRuns = pgTable('scheduled_runs', {
  name: text('name').primaryKey(),
  last_success_at: timestamp('last_success_at', { withTimezone: true }),
  last_failure_at: timestamp('last_failure_at', { withTimezone: true }),
  last_file: text('last_file'),
});

/**
 * The auditor register ('Auditor', docs/rules.md#auditors-and-planned-audits): a company's auditors,
 * their qualifications and their conflicts of interest with clients. Written by
 * modules/auditors/auditors.service.ts.
 */
export const auditors = pgTable(
  'auditors',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    employment: text('employment').notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('auditors_email_uq')
      .on(t.company_id, sql`lower(${t.email})`)
      .where(sql`${t.email} is not null`),
    index('auditors_company_name_idx').on(t.company_id, sql`lower(${t.name})`),
    check('auditors_employment_ck', sql`${t.employment} in ('INTERNAL', 'EXTERNAL')`),
  ],
);

/** What an auditor may audit: a certification type, a role, sector codes, from and until when. */
export const auditorQualifications = pgTable(
  'auditor_qualifications',
  {
    id: uuid('id').primaryKey(),
    auditor_id: uuid('auditor_id')
      .notNull()
      .references(() => auditors.id, { onDelete: 'cascade' }),
    certification_id: uuid('certification_id')
      .notNull()
      .references(() => certificationTypes.id, { onDelete: 'restrict' }),
    role: text('role').notNull(),
    sector_codes: integer('sector_codes').array().notNull(),
    valid_from: date('valid_from', { mode: 'string' }).notNull(),
    valid_until: date('valid_until', { mode: 'string' }),
    /** Its place in the auditor's list, as written. */
    position: integer('position').notNull(),
  },
  (t) => [
    index('auditor_qualifications_auditor_idx').on(t.auditor_id, t.position),
    index('auditor_qualifications_certification_idx').on(t.certification_id),
    check(
      'auditor_qualifications_role_ck',
      sql`${t.role} in ('LEAD_AUDITOR', 'AUDITOR', 'TECHNICAL_EXPERT')`,
    ),
  ],
);

/** A client an auditor may not audit (impartiality), and until when (open: for good). */
export const auditorConflicts = pgTable(
  'auditor_conflicts',
  {
    id: uuid('id').primaryKey(),
    auditor_id: uuid('auditor_id')
      .notNull()
      .references(() => auditors.id, { onDelete: 'cascade' }),
    client_id: uuid('client_id')
      .notNull()
      .references(() => clientCertificates.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    until: date('until', { mode: 'string' }),
    position: integer('position').notNull(),
  },
  (t) => [
    index('auditor_conflicts_auditor_idx').on(t.auditor_id, t.position),
    index('auditor_conflicts_client_idx').on(t.client_id),
  ],
);

/**
 * A planned audit of a scheme ('Rencana Audit'): its kind, dates, days and team; `sequence` counts
 * its changes (the SEQUENCE of its iCalendar invitations). Written by
 * modules/planned-audits/planned-audits.service.ts.
 */
export const plannedAudits = pgTable(
  'planned_audits',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id').notNull(),
    scheme_id: uuid('scheme_id')
      .notNull()
      .references(() => schemes.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    start_date: date('start_date', { mode: 'string' }).notNull(),
    end_date: date('end_date', { mode: 'string' }).notNull(),
    audit_days: doublePrecision('audit_days').notNull(),
    days_reason: text('days_reason'),
    state: text('state').notNull().default('PLANNED'),
    notes: text('notes'),
    sequence: integer('sequence').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('planned_audits_company_start_idx').on(t.company_id, t.start_date),
    // 'Kalender Auditor' reads a company's audits that overlap a month, and only those (btree_gist).
    index('planned_audits_company_dates_idx').using(
      'gist',
      t.company_id,
      sql`daterange(${t.start_date}, ${t.end_date}, '[]')`,
    ),
    index('planned_audits_scheme_idx').on(t.scheme_id),
    // What the team rows' foreign key points to: each team row holds its audit's dates.
    unique('planned_audits_id_dates_uq').on(t.id, t.start_date, t.end_date),
    // 'Jadwal Audit' reads each item's earliest PLANNED audit.
    index('planned_audits_planned_scheme_idx')
      .on(t.scheme_id, t.start_date)
      .where(sql`${t.state} = 'PLANNED'`),
    check(
      'planned_audits_kind_ck',
      sql`${t.kind} in ('STAGE1', 'STAGE2', 'SURVEILLANCE', 'RECERTIFICATION', 'SPECIAL')`,
    ),
    check('planned_audits_state_ck', sql`${t.state} in ('PLANNED', 'DONE', 'CANCELLED')`),
    check('planned_audits_dates_ck', sql`${t.end_date} >= ${t.start_date}`),
    check(
      'planned_audits_days_ck',
      sql`${t.audit_days} > 0 and ${t.audit_days} * 2 = floor(${t.audit_days} * 2)`,
    ),
  ],
);

/** The team of a planned audit: who, in which role, in the order written, with the audit's dates. */
export const plannedAuditTeam = pgTable(
  'planned_audit_team',
  {
    planned_audit_id: uuid('planned_audit_id').notNull(),
    auditor_id: uuid('auditor_id')
      .notNull()
      .references(() => auditors.id, { onDelete: 'restrict' }),
    role: text('role').notNull(),
    position: integer('position').notNull(),
    /** The audit's dates, kept equal to its own by the foreign key below (ON UPDATE CASCADE). */
    start_date: date('start_date', { mode: 'string' }).notNull(),
    end_date: date('end_date', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.planned_audit_id, t.auditor_id] }),
    // The audit and its dates: a team row with other dates than its audit's is refused, and an
    // audit whose dates change moves its team rows with it.
    foreignKey({
      name: 'planned_audit_team_audit_dates_fk',
      columns: [t.planned_audit_id, t.start_date, t.end_date],
      foreignColumns: [plannedAudits.id, plannedAudits.start_date, plannedAudits.end_date],
    })
      .onDelete('cascade')
      .onUpdate('cascade'),
    index('planned_audit_team_auditor_idx').on(t.auditor_id),
    // 'Kalender Auditor' and the double-booking check read an auditor's team rows that overlap
    // some days, and only those (btree_gist).
    index('planned_audit_team_auditor_dates_idx').using(
      'gist',
      t.auditor_id,
      sql`daterange(${t.start_date}, ${t.end_date}, '[]')`,
    ),
    check(
      'planned_audit_team_role_ck',
      sql`${t.role} in ('LEAD_AUDITOR', 'AUDITOR', 'TECHNICAL_EXPERT', 'TRAINEE')`,
    ),
  ],
);

/**
 * A company's own audit-days table: employee bands to initial audit days (stage 1 + stage 2), for
 * one certification type or (certification_id null) every type. A company without rows uses IAF
 * MD 5's Table QMS 1 (shared-contracts MD5_QMS_BANDS).
 */
export const auditDayBands = pgTable(
  'audit_day_bands',
  {
    id: uuid('id').primaryKey(),
    company_id: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    certification_id: uuid('certification_id').references(() => certificationTypes.id, {
      onDelete: 'cascade',
    }),
    max_employees: integer('max_employees').notNull(),
    days: doublePrecision('days').notNull(),
  },
  (t) => [
    index('audit_day_bands_company_idx').on(t.company_id, t.certification_id),
    check('audit_day_bands_days_ck', sql`${t.days} > 0 and ${t.days} * 2 = floor(${t.days} * 2)`),
  ],
);
