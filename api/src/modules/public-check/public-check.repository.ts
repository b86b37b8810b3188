import { and, eq, inArray, ne, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db';
import { prepared } from '../../db/prepared';
import { SCHEME_AUDIT_ENTITY, type SchemeAuditRow } from '../../services/scheme-history';
import {
  accreditationBodies,
  auditLog,
  certificationTypes,
  clientCertificates,
  clientSites,
  companies,
  schemes,
  trainingCertificates,
} from '../../db/schema';

/**
 * The two spellings a number from a check path may mean: `+` stands for `/` (docs/rules.md#calls),
 * but a number may also hold a `+` of its own. The first is preferred when both exist.
 */
export function numberVariants(raw: string): { slash: string; literal: string } {
  return { slash: raw.replace(/\+/g, '/'), literal: raw };
}

/** Matches the unique index `lower(trim(number))`, so the lookup is one index probe per spelling. */
const matches = (column: SQLWrapper, a: unknown, b: unknown) =>
  sql`lower(trim(${column})) in (lower(trim(${a})), lower(trim(${b})))`;

/** Whether a row's number is the `/` spelling (preferred when both spellings exist). */
const isSlash = (column: SQLWrapper, slash: unknown) =>
  sql<boolean>`lower(trim(${column})) = lower(trim(${slash}))`;

/** Of the (at most two) rows the two spellings found, the `/` one, else the other. */
const preferred = <R extends { slash: boolean }>(rows: readonly R[]): R | undefined =>
  rows.find((r) => r.slash) ?? rows[0];

/**
 * A scheme as the public check reads it: public fields, plus what deciding them needs. Every public
 * check runs it, so it is shaped for the database's work per call (a few tens of microseconds): the
 * type's and body's names as scalar subqueries (one primary-key probe each, where joins built hash
 * tables of those tables on every call), and no sort at all: the number index finds at most two
 * rows (one per spelling) and the caller picks; the audit rows are ordered by the caller too.
 */
const schemeByNumber = prepared('public-check.scheme', ['slash', 'literal'], (db, p, name) =>
  db
    .select({
      id: schemes.id,
      cert_number: schemes.cert_number,
      status: schemes.status,
      issue_date: schemes.issue_date,
      original_issue_date: schemes.original_issue_date,
      expired_date: schemes.expired_date,
      surveillance_date: schemes.surveillance_date,
      is_accredited: schemes.is_accredited,
      description: schemes.description,
      name: clientCertificates.name,
      address: clientCertificates.address,
      // The scheme's own scope, else the client's (docs/rules.md#register-data).
      scope: sql<string | null>`coalesce(${schemes.scope}, ${clientCertificates.scope})`,
      ea_code: clientCertificates.ea_code,
      standard: sql<string>`(select ${certificationTypes.name} from ${certificationTypes}
        where ${certificationTypes.id} = ${schemes.certification_id})`,
      accreditation: sql<string | null>`(select ${accreditationBodies.name} from ${accreditationBodies}
        where ${accreditationBodies.id} = ${schemes.accredited_id})`,
      simple_dates: companies.simple_dates,
      public_certificate_download: companies.public_certificate_download,
      created_at: schemes.created_at,
      slash: isSlash(schemes.cert_number, p.slash),
      // The scheme's audit rows in the same round trip (scheme-history's deriveStatusHistory turns
      // them into the history), in index order: findSchemeByNumber sorts them as it reads them.
      audit: sql<AuditJson[] | string | null>`(select json_agg(json_build_object(
          'action', a.action, 'at', a.at, 'by', a.actor_username,
          'beforeStatus', a.before ->> 'status', 'afterStatus', a.after ->> 'status',
          'afterIssueDate', a.after ->> 'issue_date'))
        from ${auditLog} a where a.entity = ${SCHEME_AUDIT_ENTITY} and a.entity_id = ${schemes.id})`,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .where(and(matches(schemes.cert_number, p.slash, p.literal), ne(schemes.status, 'DRAFT')))
    .limit(2)
    .prepare(name),
);

/** An audit row as json_build_object writes it (`at` as text). */
interface AuditJson extends Omit<SchemeAuditRow, 'at'> {
  at: string;
}

export type PublicSchemeRow = Omit<Awaited<ReturnType<typeof schemeByNumber>>[number], 'audit' | 'slash'> & {
  audit: SchemeAuditRow[];
};

/** The order scheme-history reads audit rows in: by time, a creation before an update at the same instant. */
const ACTION_ORDER: Record<string, number> = { create: 0, update: 1 };
const byTimeThenAction = (a: SchemeAuditRow, b: SchemeAuditRow) =>
  a.at.getTime() - b.at.getTime() || (ACTION_ORDER[a.action] ?? 2) - (ACTION_ORDER[b.action] ?? 2);

/**
 * The scheme (never a DRAFT) whose number is `raw` (a check path's number, decoded), with its audit
 * rows for the status history (in scheme-history's order), in one query; or null.
 */
export async function findSchemeByNumber(db: Executor, raw: string): Promise<PublicSchemeRow | null> {
  const found = preferred(await schemeByNumber(db, numberVariants(raw)));
  if (!found) return null;
  const { slash: _slash, audit: json, ...row } = found;
  // node-postgres parses json columns; a text value (a driver that does not) is parsed here.
  const audit = (typeof json === 'string' ? (JSON.parse(json) as AuditJson[]) : (json ?? []))
    .map((a) => ({ ...a, at: new Date(a.at) }))
    .sort(byTimeThenAction);
  return { ...row, audit };
}

const trainingByNumber = prepared('public-check.training', ['slash', 'literal'], (db, p, name) =>
  db
    .select({
      name: trainingCertificates.name,
      certificate_number: trainingCertificates.certificate_number,
      training: trainingCertificates.training,
      location: trainingCertificates.location,
      date: trainingCertificates.date,
      slash: isSlash(trainingCertificates.certificate_number, p.slash),
    })
    .from(trainingCertificates)
    .where(matches(trainingCertificates.certificate_number, p.slash, p.literal))
    .limit(2)
    .prepare(name),
);

export type PublicTrainingRow = Omit<Awaited<ReturnType<typeof trainingByNumber>>[number], 'slash'>;

export async function findTrainingByNumber(db: Executor, raw: string): Promise<PublicTrainingRow | null> {
  const found = preferred(await trainingByNumber(db, numberVariants(raw)));
  if (!found) return null;
  const { slash: _slash, ...row } = found;
  return row;
}

/** Everything the certificate PDF shows, by scheme id (any status: the route decides who may see it). */
const schemeForPdf = prepared('public-check.pdf', ['id'], (db, p, name) =>
  db
    .select({
      id: schemes.id,
      company_id: schemes.company_id,
      cert_number: schemes.cert_number,
      status: schemes.status,
      revision: schemes.revision,
      issue_date: schemes.issue_date,
      original_issue_date: schemes.original_issue_date,
      latest_issue_date: schemes.issue_date2,
      expired_date: schemes.expired_date,
      surveillance_date: schemes.surveillance_date,
      name: clientCertificates.name,
      address: clientCertificates.address,
      city: clientCertificates.city,
      province: clientCertificates.province,
      postcode: clientCertificates.postcode,
      country: clientCertificates.country,
      // The scheme's own scope, else the client's (docs/rules.md#register-data).
      scope: sql<string | null>`coalesce(${schemes.scope}, ${clientCertificates.scope})`,
      ea_code: clientCertificates.ea_code,
      sector_codes: schemes.sector_codes,
      sites: schemes.sites,
      standard: certificationTypes.name,
      accreditation: accreditationBodies.name,
      accreditation_acronym: accreditationBodies.acronym,
      accreditation_icon: accreditationBodies.icon,
      is_accredited: schemes.is_accredited,
      company_name: companies.name,
      company_address: companies.address,
      logo_cert: companies.logo_cert,
      ttd_cert: companies.ttd_cert,
      simple_dates: companies.simple_dates,
      public_certificate_download: companies.public_certificate_download,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .leftJoin(accreditationBodies, eq(accreditationBodies.id, schemes.accredited_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .where(eq(schemes.id, p.id))
    .limit(1)
    .prepare(name),
);

export type PdfSchemeRow = Awaited<ReturnType<typeof schemeForPdf>>[number];

export async function findSchemeForPdf(db: Executor, id: string): Promise<PdfSchemeRow | null> {
  const [row] = await schemeForPdf(db, { id });
  return row ?? null;
}

/** A site the certificate covers, with the scope it shows there (docs/rules.md#register-data). */
export interface PdfSiteRow {
  name: string;
  address: string | null;
  city: string | null;
  province: string | null;
  postcode: string | null;
  country: string;
  scope: string | null;
}

/**
 * The sites a scheme covers, in the scheme's order, each with its own scope or else the scheme's
 * (the scheme's, else the client's: `row.scope`). Sites of the scheme's own client only.
 */
export async function findSitesForPdf(db: Executor, row: PdfSchemeRow): Promise<PdfSiteRow[]> {
  const ids = row.sites.map((s) => s.site_id);
  if (ids.length === 0) return [];
  const found = await db
    .select({
      id: clientSites.id,
      name: clientSites.name,
      address: clientSites.address,
      city: clientSites.city,
      province: clientSites.province,
      postcode: clientSites.postcode,
      country: clientSites.country,
    })
    .from(clientSites)
    .where(and(inArray(clientSites.id, ids), eq(clientSites.company_id, row.company_id)));
  const byId = new Map(found.map((s) => [s.id, s]));
  return row.sites.flatMap(({ site_id, scope }) => {
    const site = byId.get(site_id);
    if (!site) return [];
    const { id: _id, ...rest } = site;
    return [{ ...rest, scope: scope ?? row.scope }];
  });
}
