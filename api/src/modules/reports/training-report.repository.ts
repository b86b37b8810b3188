/** The training report: training certificates, newest date first (reports.repository.ts). */
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import {
  type CompanyScope,
  type DateRange,
  type ReportColumn,
  TRAINING_REPORT_COLUMNS,
  type TrainingReportQuery,
  type TrainingReportRow,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { companies, trainingCertificates } from '../../db/schema';
import { trainingSearch } from '../../db/search-documents';
import { jsonRows, keysetBatches } from '../../db/keyset';
import { inCompanies, matchesSearch } from '../../lib/list';
import { inDateRange } from './reports.repository';

export function trainingReportWhere(
  q: TrainingReportQuery,
  scope: CompanyScope,
  range: DateRange | null,
): SQL | undefined {
  return and(
    inCompanies(trainingCertificates.company_id, scope),
    matchesSearch(trainingSearch, q.search),
    inDateRange(trainingCertificates.date, range),
  );
}

const trainingReportFields = {
  id: trainingCertificates.id,
  company_id: trainingCertificates.company_id,
  company_name: companies.name,
  name: trainingCertificates.name,
  certificate_number: trainingCertificates.certificate_number,
  date: trainingCertificates.date,
  training: trainingCertificates.training,
  location: trainingCertificates.location,
};

function trainingReportSelect(db: Executor, where: SQL | undefined) {
  return db
    .select(trainingReportFields)
    .from(trainingCertificates)
    .innerJoin(companies, eq(companies.id, trainingCertificates.company_id))
    .where(where)
    .orderBy(desc(trainingCertificates.date), desc(trainingCertificates.id));
}

export async function trainingReportCount(db: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(trainingCertificates).where(where);
  return Number(row?.n ?? 0);
}

export async function trainingReportPage(
  db: Executor,
  where: SQL | undefined,
  limit: number,
  offset: number,
): Promise<TrainingReportRow[]> {
  return trainingReportSelect(db, where).limit(limit).offset(offset);
}

/** A training row of the export: what its columns show, and its id. */
export type TrainingExportRow = Omit<TrainingReportRow, 'company_id'>;
/** The training report's columns, as fields of the export's rows (each one is: export.test.ts). */
export const trainingExportColumns = TRAINING_REPORT_COLUMNS as readonly ReportColumn<
  keyof TrainingExportRow
>[];
const trainingExportKeys = [
  'id',
  'company_name',
  'name',
  'certificate_number',
  'date',
  'training',
  'location',
] as const;

export function trainingReportBatches(
  db: Executor,
  where: SQL | undefined,
  batchSize: number,
): AsyncGenerator<TrainingExportRow[]> {
  return keysetBatches(
    batchSize,
    (after: TrainingExportRow | null) =>
      jsonRows(
        db,
        trainingReportFields,
        trainingReportSelect(
          db,
          and(
            where,
            after
              ? sql`${trainingCertificates.date} <= ${after.date} and (${trainingCertificates.date}, ${trainingCertificates.id}) < (${after.date}, ${after.id})`
              : undefined,
          ),
        ).limit(batchSize),
        trainingExportKeys,
      ),
    (rows) => rows,
  );
}
