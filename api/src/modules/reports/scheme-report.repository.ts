/** The scheme report: schemes, newest issue_date first (reports.repository.ts). */
import { and, count, desc, eq, gte, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  type CompanyScope,
  type DateRange,
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
import { inCompanies, matchesSearch } from '../../lib/list';
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
