/** The scheme report: schemes, newest issue_date first (reports.repository.ts). */
import { and, count, desc, eq, gte, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  ALL,
  type CompanyScope,
  type DateRange,
  EFFECTIVE_STATUSES,
  type EffectiveStatus,
  effectiveStatus,
  formatSectorCodes,
  type ReportColumn,
  SCHEME_REPORT_COLUMNS,
  type SchemeReportQuery,
  type SchemeReportRow,
  type SchemeStatus,
  toFlag,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import {
  accreditationBodies,
  certificationTypes,
  clientCertificates,
  companies,
  schemeCounts,
  schemes,
} from '../../db/schema';
import { clientSearch, schemeSearch } from '../../db/search-documents';
import { jsonRows, keysetBatches } from '../../db/keyset';
import { inCompanies, matchesSearch, scopeIds } from '../../lib/list';
import { preparedShapes } from '../../db/prepared';
import { inDateRange } from './reports.repository';

export interface SchemeReportFilter {
  query: SchemeReportQuery;
  scope: CompanyScope;
  today: string;
  issue: DateRange | null;
  expired: DateRange | null;
}

/** The columns a status filter reads: of the schemes, or of the register counts (schemeCounts). */
type StatusColumns = { status: AnyPgColumn; expired_date: AnyPgColumn };

/** One status of the filter: EXPIRED is ACTIVE past its expiry; ACTIVE is ACTIVE not yet expired. */
function statusCondition(status: string, today: string, t: StatusColumns = schemes): SQL {
  if (status === 'EXPIRED') return and(eq(t.status, 'ACTIVE'), sql`${t.expired_date} < ${today}`)!;
  if (status === 'ACTIVE') return and(eq(t.status, 'ACTIVE'), gte(t.expired_date, today))!;
  return eq(t.status, status);
}

/**
 * The scheme report's total from the register counts (services/register-counts.ts), when the
 * filter only names what they are kept by (companies, statuses, an expiry range); null when it
 * needs the schemes themselves (a search, clients, types, bodies, an issue range).
 */
export async function schemeReportCountFromCounts(
  db: Executor,
  f: SchemeReportFilter,
): Promise<number | null> {
  const q = f.query;
  if (q.search || q.client.length || q.certification.length || q.accredited.length || f.issue) return null;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${schemeCounts.n}), 0)`.mapWith(Number) })
    .from(schemeCounts)
    .where(
      and(
        inCompanies(schemeCounts.company_id, f.scope),
        q.status.length ? or(...q.status.map((s) => statusCondition(s, f.today, schemeCounts))) : undefined,
        inDateRange(schemeCounts.expired_date, f.expired),
      ),
    );
  return row?.n ?? 0;
}

export function schemeReportWhere(f: SchemeReportFilter): SQL | undefined {
  const q = f.query;
  const search = q.search
    ? or(matchesSearch(schemeSearch, q.search), matchesSearch(clientSearch, q.search))
    : undefined;
  return and(
    inCompanies(schemes.company_id, f.scope),
    search,
    q.status.length ? or(...q.status.map((s) => statusCondition(s, f.today))) : undefined,
    q.client.length ? inArray(schemes.certificate_id, q.client) : undefined,
    q.certification.length ? inArray(schemes.certification_id, q.certification) : undefined,
    q.accredited.length ? inArray(schemes.accredited_id, q.accredited) : undefined,
    inDateRange(schemes.issue_date, f.issue),
    inDateRange(schemes.expired_date, f.expired),
  );
}

const schemeReportFields = {
  id: schemes.id,
  company_id: schemes.company_id,
  company_name: companies.name,
  certificate_id: schemes.certificate_id,
  client_name: clientCertificates.name,
  client_logo: clientCertificates.logo,
  client_certificate_number: clientCertificates.certificate_number,
  certification_id: schemes.certification_id,
  cert_name: certificationTypes.name,
  cert_number: schemes.cert_number,
  status: schemes.status,
  issue_date: schemes.issue_date,
  expired_date: schemes.expired_date,
  is_accredited: schemes.is_accredited,
  accredited_id: schemes.accredited_id,
  accredited_name: accreditationBodies.name,
  original_issue_date: schemes.original_issue_date,
  scope: sql<string | null>`coalesce(${schemes.scope}, ${clientCertificates.scope})`,
  sector_codes: schemes.sector_codes,
  revision: schemes.revision,
  client_city: clientCertificates.city,
  client_province: clientCertificates.province,
  client_country: clientCertificates.country,
};

function schemeReportSelect(db: Executor, where: SQL | undefined) {
  return db
    .select(schemeReportFields)
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .leftJoin(accreditationBodies, eq(accreditationBodies.id, schemes.accredited_id))
    .where(where)
    .orderBy(desc(schemes.issue_date), desc(schemes.id));
}

type SchemeSelectRow = Awaited<ReturnType<ReturnType<typeof schemeReportSelect>['execute']>>[number];

/**
 * What the scheme export reads of a row: the fields its columns are written from (the status and
 * the accreditation derived as for the table) and the keyset's (issue_date, id); not the ids and
 * logo the table links with (on the embedded database every field read costs the export's thread).
 */
const schemeExportKeys = [
  'id',
  'company_name',
  'client_name',
  'client_certificate_number',
  'cert_name',
  'cert_number',
  'status',
  'issue_date',
  'expired_date',
  'is_accredited',
  'accredited_name',
  'original_issue_date',
  'scope',
  'sector_codes',
  'revision',
  'client_city',
  'client_province',
  'client_country',
] as const;
type SchemeExportSelectRow = Pick<SchemeSelectRow, (typeof schemeExportKeys)[number]>;

/** A scheme row of the export: what its columns show, and its id. */
export type SchemeExportRow = Omit<
  SchemeReportRow,
  'company_id' | 'certificate_id' | 'client_logo' | 'certification_id' | 'is_accredited' | 'accredited_id'
>;
/** The scheme report's columns, as fields of the export's rows (each one is: export.test.ts). */
export const schemeExportColumns = SCHEME_REPORT_COLUMNS as readonly ReportColumn<keyof SchemeExportRow>[];

/** The row's fields shown alike by the table and the export: status, effective status, accreditation. */
function schemeShown(r: SchemeExportSelectRow, today: string) {
  const status = r.status as SchemeStatus;
  return {
    status,
    effective_status: effectiveStatus(status, r.expired_date, today),
    accredited: r.is_accredited ? r.accredited_name : null,
    original_issue_date: r.original_issue_date,
    scope: r.scope,
    sector_codes: formatSectorCodes(r.sector_codes),
    revision: r.revision,
    client_city: r.client_city,
    client_province: r.client_province,
    client_country: r.client_country,
  };
}

function toSchemeExportRow(r: SchemeExportSelectRow, today: string): SchemeExportRow {
  return {
    id: r.id,
    company_name: r.company_name,
    client_name: r.client_name,
    client_certificate_number: r.client_certificate_number,
    cert_name: r.cert_name,
    cert_number: r.cert_number,
    issue_date: r.issue_date,
    expired_date: r.expired_date,
    ...schemeShown(r, today),
  };
}

function toSchemeRow(r: SchemeSelectRow, today: string): SchemeReportRow {
  const shown = schemeShown(r, today);
  return {
    id: r.id,
    company_id: r.company_id,
    company_name: r.company_name,
    certificate_id: r.certificate_id,
    client_name: r.client_name,
    client_logo: r.client_logo,
    client_certificate_number: r.client_certificate_number,
    certification_id: r.certification_id,
    cert_name: r.cert_name,
    cert_number: r.cert_number,
    issue_date: r.issue_date,
    expired_date: r.expired_date,
    is_accredited: toFlag(r.is_accredited),
    accredited_id: r.accredited_id,
    ...shown,
  };
}

export async function schemeReportCount(
  db: Executor,
  where: SQL | undefined,
  search: boolean,
): Promise<number> {
  // The search looks at the client too; without it no join is needed to count.
  const base = db.select({ n: count() }).from(schemes);
  const [row] = search
    ? await base.innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id)).where(where)
    : await base.where(where);
  return Number(row?.n ?? 0);
}

export async function schemeReportPage(
  db: Executor,
  f: SchemeReportFilter,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<SchemeReportRow[]> {
  const rows = await schemeReportSelect(db, where).limit(limit).offset(offset);
  return rows.map((r) => toSchemeRow(r, f.today));
}

/**
 * The filter the report opens with and most pages have: companies and statuses only (no search,
 * client, type, body or date range). Such a page and its total are one prepared statement
 * (`schemeReportPageAndTotal`).
 */
export function schemeReportPlain(f: SchemeReportFilter): boolean {
  const q = f.query;
  return (
    !q.search && !q.client.length && !q.certification.length && !q.accredited.length && !f.issue && !f.expired
  );
}

/** A status of the filter as SQL, its stored status written in (a partial index on ACTIVE can serve it). */
function statusLiteral(status: EffectiveStatus, today: SQL, t: StatusColumns): SQL {
  if (status === 'EXPIRED') return sql`(${t.status} = 'ACTIVE' and ${t.expired_date} < ${today})`;
  if (status === 'ACTIVE') return sql`(${t.status} = 'ACTIVE' and ${t.expired_date} >= ${today})`;
  return sql`${t.status} = ${sql.raw(`'${status}'`)}`;
}

/**
 * A page of the plain filter and its total in one round trip: the total summed from the register
 * counts (scheme_counts), the page walked along the issue-date index, joined to its client, type,
 * company and body. One statement per shape (scope or ALL, and which statuses), the statuses written
 * into it so the planner sees them.
 */
const pageAndTotalOf = preparedShapes(
  'scheme-report.page-total',
  ['scoped', ...EFFECTIVE_STATUSES],
  ['scope', 'today', 'limit', 'offset'],
  (db, p, on, name) => {
    const today = sql`${p.today}::date`;
    const statuses = EFFECTIVE_STATUSES.filter((s) => on[s]);
    const statusOf = (t: StatusColumns) =>
      statuses.length
        ? sql` and (${sql.join(
            statuses.map((s) => statusLiteral(s, today, t)),
            sql` or `,
          )})`
        : sql``;
    const scoped = (column: AnyPgColumn) => (on.scoped ? sql` and ${column} = any(${p.scope})` : sql``);
    const page = sql`select ${schemes.id} as id, ${schemes.company_id} as company_id,
        ${companies.name} as company_name, ${schemes.certificate_id} as certificate_id,
        ${clientCertificates.name} as client_name, ${clientCertificates.logo} as client_logo,
        ${clientCertificates.certificate_number} as client_certificate_number,
        ${schemes.certification_id} as certification_id, ${certificationTypes.name} as cert_name,
        ${schemes.cert_number} as cert_number, ${schemes.status} as status, ${schemes.issue_date} as issue_date,
        ${schemes.expired_date} as expired_date, ${schemes.is_accredited} as is_accredited,
        ${schemes.accredited_id} as accredited_id, ${accreditationBodies.name} as accredited_name,
        ${schemes.original_issue_date} as original_issue_date,
        coalesce(${schemes.scope}, ${clientCertificates.scope}) as scope, ${schemes.sector_codes} as sector_codes,
        ${schemes.revision} as revision, ${clientCertificates.city} as client_city,
        ${clientCertificates.province} as client_province, ${clientCertificates.country} as client_country
      from ${schemes}
      join ${clientCertificates} on ${clientCertificates.id} = ${schemes.certificate_id}
      join ${certificationTypes} on ${certificationTypes.id} = ${schemes.certification_id}
      join ${companies} on ${companies.id} = ${schemes.company_id}
      left join ${accreditationBodies} on ${accreditationBodies.id} = ${schemes.accredited_id}
      where true${scoped(schemes.company_id)}${statusOf(schemes)}
      order by ${schemes.issue_date} desc, ${schemes.id} desc
      limit ${p.limit} offset ${p.offset}`;
    const total = sql`select coalesce(sum(${schemeCounts.n}), 0) as total from ${schemeCounts}
      where true${scoped(schemeCounts.company_id)}${statusOf(schemeCounts)}`;
    const field = <T>(column: string) => sql<T>`${sql.identifier('p')}.${sql.identifier(column)}`;
    return db
      .select({
        total: sql<string>`t.total`,
        id: field<string | null>('id'),
        company_id: field<string>('company_id'),
        company_name: field<string>('company_name'),
        certificate_id: field<string>('certificate_id'),
        client_name: field<string>('client_name'),
        client_logo: field<string | null>('client_logo'),
        client_certificate_number: field<string>('client_certificate_number'),
        certification_id: field<string>('certification_id'),
        cert_name: field<string>('cert_name'),
        cert_number: field<string>('cert_number'),
        status: field<string>('status'),
        issue_date: field<string>('issue_date'),
        expired_date: field<string>('expired_date'),
        is_accredited: field<boolean>('is_accredited'),
        accredited_id: field<string | null>('accredited_id'),
        accredited_name: field<string | null>('accredited_name'),
        original_issue_date: field<string | null>('original_issue_date'),
        scope: field<string | null>('scope'),
        sector_codes: field<SchemeSelectRow['sector_codes']>('sector_codes'),
        revision: field<SchemeSelectRow['revision']>('revision'),
        client_city: field<string | null>('client_city'),
        client_province: field<string | null>('client_province'),
        client_country: field<string | null>('client_country'),
      })
      .from(sql`(${total}) t left join lateral (${page}) p on true`)
      .orderBy(sql`p.issue_date desc, p.id desc`)
      .prepare(name);
  },
);

/** A page of the plain filter (schemeReportPlain) and its total, in one statement. */
export async function schemeReportPageAndTotal(
  db: Executor,
  f: SchemeReportFilter,
  limit: number,
  offset: number,
): Promise<{ rows: SchemeReportRow[]; total: number }> {
  const on = {
    scoped: f.scope !== ALL,
    ...Object.fromEntries(EFFECTIVE_STATUSES.map((s) => [s, f.query.status.includes(s)])),
  } as Record<'scoped' | EffectiveStatus, boolean>;
  if (f.scope !== ALL && f.scope.length === 0) return { rows: [], total: 0 };
  const rows = await pageAndTotalOf(db, on, { scope: scopeIds(f.scope), today: f.today, limit, offset });
  const total = Number(rows[0]?.total ?? 0);
  return {
    rows: rows.filter((r) => r.id !== null).map((r) => toSchemeRow(r as SchemeSelectRow, f.today)),
    total,
  };
}

export function schemeReportBatches(
  db: Executor,
  f: SchemeReportFilter,
  where: SQL | undefined,
  batchSize: number,
): AsyncGenerator<SchemeExportRow[]> {
  return keysetBatches(
    batchSize,
    (after: SchemeExportSelectRow | null) =>
      jsonRows(
        db,
        schemeReportFields,
        schemeReportSelect(
          db,
          and(
            where,
            after
              ? sql`${schemes.issue_date} <= ${after.issue_date} and (${schemes.issue_date}, ${schemes.id}) < (${after.issue_date}, ${after.id})`
              : undefined,
          ),
        ).limit(batchSize),
        schemeExportKeys,
      ),
    (rows) => rows.map((r) => toSchemeExportRow(r, f.today)),
  );
}
