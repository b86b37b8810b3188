/** The company certification report: clients, sorted by name (reports.repository.ts). */
import { and, asc, count, eq, exists, inArray, type SQL, sql } from 'drizzle-orm';
import {
  type CompanyCertificationReportQuery,
  type CompanyCertificationReportRow,
  COMPANY_CERTIFICATION_REPORT_COLUMNS,
  type CompanyScope,
  type ReportColumn,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { clientCertificates, companies, schemes } from '../../db/schema';
import { clientSearch } from '../../db/search-documents';
import { jsonRows, keysetBatches } from '../../db/keyset';
import { inCompanies, matchesSearch } from '../../lib/list';

export function companyReportWhere(q: CompanyCertificationReportQuery, scope: CompanyScope): SQL | undefined {
  const withScheme = (condition: SQL) =>
    exists(
      sql`(select 1 from ${schemes} where ${schemes.certificate_id} = ${clientCertificates.id} and ${condition})`,
    );
  return and(
    inCompanies(clientCertificates.company_id, scope),
    matchesSearch(clientSearch, q.search),
    q.certification.length ? withScheme(inArray(schemes.certification_id, q.certification)) : undefined,
    q.accredited.length ? withScheme(inArray(schemes.accredited_id, q.accredited)) : undefined,
  );
}

const clientSortName = sql<string>`lower(${clientCertificates.name})`;

const companyReportFields = {
  id: clientCertificates.id,
  company_id: clientCertificates.company_id,
  company_name: companies.name,
  name: clientCertificates.name,
  logo: clientCertificates.logo,
  certificate_number: clientCertificates.certificate_number,
  ea_code: clientCertificates.ea_code,
  nace_code: clientCertificates.nace_code,
  region: clientCertificates.region,
  phone: clientCertificates.phone,
  handphone: clientCertificates.handphone,
  email: clientCertificates.email,
  sort_name: clientSortName,
};

function companyReportSelect(db: Executor, where: SQL | undefined) {
  return db
    .select(companyReportFields)
    .from(clientCertificates)
    .innerJoin(companies, eq(companies.id, clientCertificates.company_id))
    .where(where)
    .orderBy(asc(clientSortName), asc(clientCertificates.id));
}

type WithSort<T> = T & { sort_name?: string };
const withoutSort = <T extends object>(row: WithSort<T>): T => {
  const { sort_name: _, ...rest } = row;
  return rest as T;
};

/** A client row of the export: what its columns show, and its id. */
export type CompanyExportRow = Omit<CompanyCertificationReportRow, 'company_id' | 'logo'>;
/** The company report's columns, as fields of the export's rows (each one is: export.test.ts). */
export const companyExportColumns = COMPANY_CERTIFICATION_REPORT_COLUMNS as readonly ReportColumn<
  keyof CompanyExportRow
>[];
const companyExportKeys = [
  'id',
  'company_name',
  'name',
  'certificate_number',
  'ea_code',
  'nace_code',
  'region',
  'phone',
  'handphone',
  'email',
  'sort_name',
] as const;

export async function companyReportCount(db: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(clientCertificates).where(where);
  return Number(row?.n ?? 0);
}

export async function companyReportPage(
  db: Executor,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<CompanyCertificationReportRow[]> {
  const rows = await companyReportSelect(db, where).limit(limit).offset(offset);
  return rows.map(withoutSort);
}

export function companyReportBatches(
  db: Executor,
  where: SQL | undefined,
  batchSize: number,
): AsyncGenerator<CompanyExportRow[]> {
  return keysetBatches(
    batchSize,
    (after: (CompanyExportRow & { sort_name: string }) | null) =>
      jsonRows(
        db,
        companyReportFields,
        companyReportSelect(
          db,
          and(
            where,
            after
              ? sql`${clientSortName} >= ${after.sort_name} and (${clientSortName}, ${clientCertificates.id}) > (${after.sort_name}, ${after.id})`
              : undefined,
          ),
        ).limit(batchSize),
        companyExportKeys,
      ),
    (rows) => rows.map(withoutSort),
  );
}
