import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SQL } from 'drizzle-orm';
import {
  ALL,
  companyCertificationReportQuerySchema,
  companyCertificationReportRowSchema,
  DATE_RANGE_ORDER_MESSAGE,
  type DateRange,
  EFFECTIVE_STATUS_LABELS,
  parseDateRange,
  pickerDate,
  REPORT_FILTER_WORDS,
  type ReportColumn,
  reportColumns,
  REPORTS,
  schemeReportQuerySchema,
  schemeReportRowSchema,
  toListResponse,
  trainingReportQuerySchema,
  trainingReportRowSchema,
  XLSX_CONTENT_TYPE,
} from '@sertifikasi/shared-contracts';
import { accreditedBodies, certificationTypes, clientCertificates } from '../../db/schema';
import { invalid } from '../../lib/errors';
import { listJsonSchema } from '../../lib/list';
import { scopeParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import {
  companyExportColumns,
  companyName,
  companyReportBatches,
  companyReportCount,
  companyReportPage,
  companyReportWhere,
  namesOf,
  schemeExportColumns,
  schemeReportBatches,
  schemeReportCount,
  schemeReportCountFromCounts,
  schemeReportPage,
  schemeReportWhere,
  trainingExportColumns,
  trainingReportBatches,
  trainingReportCount,
  trainingReportPage,
  trainingReportWhere,
} from './reports.repository';
import { exportBatchSize } from './export-state';
import { ExportAborted, writeReportWorkbook } from './workbook';

/** A date range parameter as calendar dates in the deployment's time zone; 422 when it ends before it starts. */
function dateRange(value: string, field: string, label: string, timeZone: string): DateRange | null {
  const range = parseDateRange(value, timeZone);
  if (range?.from && range.to && range.to < range.from) {
    throw invalid({ [field]: DATE_RANGE_ORDER_MESSAGE(label) });
  }
  return range;
}

const rangeText = (range: DateRange | null) =>
  range ? `${range.from ? pickerDate(range.from) : '...'} - ${range.to ? pickerDate(range.to) : '...'}` : '';
const listText = (values: readonly string[]) => values.join(', ');

interface ExportSpec<Row> {
  kind: keyof typeof REPORTS;
  columns: readonly ReportColumn<keyof Row & string>[];
  /** Filter label -> what was chosen ('' when the filter was not used). */
  filters: [string, string][];
  batches: AsyncIterable<Row[]>;
}

/**
 * Streams a report's workbook: headers first, then the bytes as exceljs writes them, rows read in
 * batches. A client that goes away (the socket closes before the end) aborts the export: no more
 * rows are read. Not compressed: an .xlsx is already a zip (plugins/compress.ts passes streams).
 */
async function sendExport<Row>(
  app: FastifyInstance,
  req: FastifyRequest<{ Params: { company_id: string } }>,
  reply: FastifyReply,
  spec: ExportSpec<Row>,
) {
  const report = REPORTS[spec.kind];
  const all = req.params.company_id.trim().toUpperCase() === ALL;
  const company = all
    ? REPORT_FILTER_WORDS.all
    : ((await companyName(app.db, req.params.company_id.toLowerCase())) ?? '');
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const aborter = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) aborter.abort();
  };
  reply.raw.on('close', onClose);
  req.raw.on('aborted', onClose);

  const { stats } = app.reportExports;
  stats.running++;
  void writeReportWorkbook<Row>(
    out,
    {
      sheetName: report.sheetName,
      title: report.title,
      columns: reportColumns(spec.columns, { all }),
      filters: [
        [REPORT_FILTER_WORDS.company, company],
        ...spec.filters.map(([label, value]): [string, string] => [label, value || REPORT_FILTER_WORDS.all]),
      ],
      clock: app.clock,
    },
    spec.batches,
    aborter.signal,
  ).then(
    (rows) => {
      stats.running--;
      stats.completed++;
      req.log.info({ report: spec.kind, rows }, 'report exported');
    },
    (err: unknown) => {
      stats.running--;
      if (err instanceof ExportAborted) {
        stats.aborted++;
        req.log.info({ report: spec.kind }, 'report export stopped: client went away');
      } else {
        stats.failed++;
        req.log.error({ err, report: spec.kind }, 'report export failed');
      }
      out.destroy();
    },
  );

  return reply
    .header('content-type', XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${report.fileName}"`)
    .header('cache-control', 'no-store')
    .send(out);
}

/** The three reports (docs/rules.md#dashboard-and-reports and #wire-formats): `type=table` a page, `type=export` an .xlsx. */
export default async function reportRoutes(app: FastifyInstance) {
  const tags = ['reports'];
  const tz = app.clock.timeZone;

  defineRoute(app, {
    method: 'GET',
    url: `/api/${REPORTS.company.endpoint}/:company_id`,
    summary: `Clients, by name (type=table: a page; type=export: ${REPORTS.company.fileName})`,
    tags,
    access: { permission: REPORTS.company.permission },
    params: scopeParams,
    query: companyCertificationReportQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(companyCertificationReportRowSchema)) },
    handler: async (req, reply) => {
      const q = req.query;
      const scope = companyFilter(req, req.params.company_id);
      const where = companyReportWhere(q, scope);
      if (q.type === 'export') {
        const labels = REPORTS.company.filters;
        return sendExport(app, req, reply, {
          kind: 'company',
          columns: companyExportColumns,
          filters: [
            [labels.search, q.search],
            [
              labels.certification,
              listText(await namesOf(app.db, certificationTypes, q.certification, scope)),
            ],
            [labels.accredited, listText(await namesOf(app.db, accreditedBodies, q.accredited, scope))],
          ],
          batches: companyReportBatches(app.db, where, exportBatchSize(app)),
        });
      }
      const [total, rows] = await Promise.all([
        companyReportCount(app.db, where),
        companyReportPage(app.db, where, q.paginate, (q.page - 1) * q.paginate),
      ]);
      return toListResponse(rows, total, q.page, q.paginate);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `/api/${REPORTS.scheme.endpoint}/:company_id`,
    summary: `Schemes, newest issue date first (type=table: a page; type=export: ${REPORTS.scheme.fileName})`,
    tags,
    access: { permission: REPORTS.scheme.permission },
    params: scopeParams,
    query: schemeReportQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(schemeReportRowSchema)) },
    handler: async (req, reply) => {
      const q = req.query;
      const scope = companyFilter(req, req.params.company_id);
      const labels = REPORTS.scheme.filters;
      const filter = {
        query: q,
        scope,
        today: app.clock.today(),
        issue: dateRange(q.issue_date, 'issue_date', labels.issue_date, tz),
        expired: dateRange(q.expired_date, 'expired_date', labels.expired_date, tz),
      };
      const where: SQL | undefined = schemeReportWhere(filter);
      if (q.type === 'export') {
        return sendExport(app, req, reply, {
          kind: 'scheme',
          columns: schemeExportColumns,
          filters: [
            [labels.search, q.search],
            [labels.issue_date, rangeText(filter.issue)],
            [labels.expired_date, rangeText(filter.expired)],
            [labels.status, listText(q.status.map((s) => EFFECTIVE_STATUS_LABELS[s]))],
            [labels.client, listText(await namesOf(app.db, clientCertificates, q.client, scope))],
            [
              labels.certification,
              listText(await namesOf(app.db, certificationTypes, q.certification, scope)),
            ],
            [labels.accredited, listText(await namesOf(app.db, accreditedBodies, q.accredited, scope))],
          ],
          batches: schemeReportBatches(app.db, filter, where, exportBatchSize(app)),
        });
      }
      const [total, rows] = await Promise.all([
        schemeReportCountFromCounts(app.db, filter).then(
          (kept) => kept ?? schemeReportCount(app.db, where, q.search !== ''),
        ),
        schemeReportPage(app.db, filter, where, q.paginate, (q.page - 1) * q.paginate),
      ]);
      return toListResponse(rows, total, q.page, q.paginate);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `/api/${REPORTS.training.endpoint}/:company_id`,
    summary: `Training certificates, newest first (type=table: a page; type=export: ${REPORTS.training.fileName})`,
    tags,
    access: { permission: REPORTS.training.permission },
    params: scopeParams,
    query: trainingReportQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(trainingReportRowSchema)) },
    handler: async (req, reply) => {
      const q = req.query;
      const scope = companyFilter(req, req.params.company_id);
      const labels = REPORTS.training.filters;
      const range = dateRange(q.issue_date, 'issue_date', labels.issue_date, tz);
      const where = trainingReportWhere(q, scope, range);
      if (q.type === 'export') {
        return sendExport(app, req, reply, {
          kind: 'training',
          columns: trainingExportColumns,
          filters: [
            [labels.search, q.search],
            [labels.issue_date, rangeText(range)],
          ],
          batches: trainingReportBatches(app.db, where, exportBatchSize(app)),
        });
      }
      const [total, rows] = await Promise.all([
        trainingReportCount(app.db, where),
        trainingReportPage(app.db, where, q.paginate, (q.page - 1) * q.paginate),
      ]);
      return toListResponse(rows, total, q.page, q.paginate);
    },
  });
}
