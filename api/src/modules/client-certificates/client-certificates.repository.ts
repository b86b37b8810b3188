import { and, eq, sql } from 'drizzle-orm';
import {
  ALL,
  type ClientCertificate,
  type ClientCertificateDetail,
  type CompanyScope,
  toFlag,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  accreditationBodies,
  certificationTypes,
  clientCertificates,
  clientSites,
  companies,
  schemes,
} from '../../db/schema';
import { preparedShapes, prepared } from '../../db/prepared';
import { isAnyOf, scopeIds } from '../../lib/list';
import { type SchemeRow, toSchemeDto } from '../schemes/schemes.repository';

export type ClientRow = typeof clientCertificates.$inferSelect;

/** A client as lists and writes answer it (clientCertificateSchema). */
export function toClientCertificateDto(
  row: ClientRow,
  company: { id: string; name: string },
): ClientCertificate {
  return {
    id: row.id,
    company_id: row.company_id,
    company: { id: company.id, name: company.name },
    name: row.name,
    name_en: row.name_en,
    certificate_number: row.certificate_number,
    region: row.region,
    logo: row.logo,
    address: row.address,
    city: row.city,
    province: row.province,
    postcode: row.postcode,
    country: row.country,
    scope: row.scope,
    ea_code: row.ea_code,
    nace_code: row.nace_code,
    president: row.president,
    management_representative: row.management_representative,
    foundation_day: row.foundation_day,
    employees_number: row.employees_number,
    employees_active: row.employees_active,
    phone: row.phone,
    handphone: row.handphone,
    fax: row.fax,
    email: row.email,
    website: row.website,
    send_reminders: toFlag(row.send_reminders),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A scheme row as json_agg writes it: timestamps as text. */
type SchemeJson = Omit<SchemeRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };
interface SchemeJoinedJson {
  s: SchemeJson;
  cert_name: string;
  accredited: string | null;
}

/**
 * The client's schemes with their type's and body's names, as one JSON array (a correlated
 * subquery, so the detail is one statement and one round trip). `s` is written with its column
 * names, which are the schema's property names for schemes (the detail test compares a scheme here
 * with the one the create route answers). The names are scalar subqueries (a primary-key probe
 * each, where joins hashed both tables on every call) and the array is not ordered here (an
 * ordered aggregate sorts on every call): findClientDetail orders the few schemes.
 */
const schemesJson = sql<SchemeJoinedJson[] | string | null>`(
  select json_agg(json_build_object('s', s,
    'cert_name', (select t.name from ${certificationTypes} t where t.id = s.certification_id),
    'accredited', (select a.name from ${accreditationBodies} a where a.id = s.accredited_id)))
  from ${schemes} s
  where s.certificate_id = ${clientCertificates}.id
)`;

/** A timestamp as json writes it, to the microsecond (`2025-01-15T03:02:00.123456+00:00`). */
function microseconds(text: string): number {
  const fraction = /\.(\d+)/.exec(text)?.[1] ?? '';
  return Date.parse(text) * 1000 + Number(fraction.padEnd(6, '0').slice(3, 6));
}

/** Newest issue first, then the latest written, then by id: the order the detail shows. */
const newestIssueFirst = (a: SchemeJoinedJson, b: SchemeJoinedJson): number =>
  a.s.issue_date !== b.s.issue_date
    ? a.s.issue_date < b.s.issue_date
      ? 1
      : -1
    : microseconds(b.s.created_at) - microseconds(a.s.created_at) ||
      (a.s.id < b.s.id ? -1 : a.s.id > b.s.id ? 1 : 0);

const clientDetail = preparedShapes(
  'client.detail',
  ['scoped', 'company'],
  ['id', 'scope', 'company'],
  (db, p, on, name) =>
    db
      .select({
        client: clientCertificates,
        company: {
          id: companies.id,
          name: companies.name,
          simple_dates: companies.simple_dates,
          public_certificate_download: companies.public_certificate_download,
        },
        schemes: schemesJson,
      })
      .from(clientCertificates)
      .innerJoin(companies, eq(companies.id, clientCertificates.company_id))
      .where(
        and(
          eq(clientCertificates.id, p.id),
          on.scoped ? isAnyOf(clientCertificates.company_id, p.scope) : undefined,
          on.company ? eq(clientCertificates.company_id, p.company) : undefined,
        ),
      )
      .limit(1)
      .prepare(name),
);

/**
 * `GET company-certificate/{company_id}/{id}`: the client with its company's settings and its
 * schemes (newest issue first); null when absent, outside the scope or not of `companyId` (ALL:
 * any company). One prepared statement: the client, its company and its schemes as JSON.
 */
export async function findClientDetail(
  db: Executor,
  id: string,
  companyId: string,
  scope: CompanyScope,
  today: string,
): Promise<ClientCertificateDetail | null> {
  const byCompany = companyId !== ALL;
  const [row] = await clientDetail(
    db,
    { scoped: scope !== ALL, company: byCompany },
    { id, scope: scopeIds(scope), company: byCompany ? companyId : null },
  );
  if (!row) return null;
  const { client, company } = row;
  const ref = { name: client.name, certificate_number: client.certificate_number };
  // node-postgres parses json columns; a text value (a driver that does not) is parsed here.
  const joined = (
    typeof row.schemes === 'string' ? (JSON.parse(row.schemes) as SchemeJoinedJson[]) : (row.schemes ?? [])
  ).sort(newestIssueFirst);
  return {
    ...toClientCertificateDto(client, company),
    company: {
      id: company.id,
      name: company.name,
      simple_dates: toFlag(company.simple_dates),
      public_certificate_download: toFlag(company.public_certificate_download),
    },
    schema: joined.map(({ s, cert_name, accredited }) =>
      toSchemeDto(
        {
          scheme: { ...s, created_at: new Date(s.created_at), updated_at: new Date(s.updated_at) },
          client: ref,
          cert_name,
          accredited,
        },
        today,
      ),
    ),
  };
}

const hasSchemes = prepared('client.has-schemes', ['id'], (db, p, name) =>
  db
    .select({ x: sql`1` })
    .from(schemes)
    .where(eq(schemes.certificate_id, p.id))
    .limit(1)
    .prepare(name),
);

const hasSites = prepared('client.has-sites', ['id'], (db, p, name) =>
  db
    .select({ x: sql`1` })
    .from(clientSites)
    .where(eq(clientSites.client_id, p.id))
    .limit(1)
    .prepare(name),
);

/**
 * True when the client has schemes or sites (docs/rules.md#register-data): its delete is refused,
 * its company cannot change.
 */
export async function clientCertificateInUse(db: Executor, id: string): Promise<boolean> {
  return (await hasSchemes(db, { id })).length > 0 || (await hasSites(db, { id })).length > 0;
}
