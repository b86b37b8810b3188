/**
 * The route of a report-like list (the three reports, docs/rules.md#dashboard-and-reports, and the
 * audit schedule): `GET /api/<endpoint>/:company_id`, `type=table` a page of rows with its total,
 * `type=export` the workbook of every matching row, streamed. A report says how its query becomes a
 * filter and how the filter is counted, paged and exported; the rest is here, once. Another list
 * with `type=export` ('Rencana Audit') streams its workbook through `sendExport`.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as yup from 'yup';
import {
  ALL,
  type CompanyScope,
  LIST_TOTAL_CAP,
  type PermissionKey,
  REPORT_FILTER_WORDS,
  type ReportColumn,
  reportColumns,
  toListResponse,
  XLSX_CONTENT_TYPE,
} from '@sertifikasi/shared-contracts';
import { listJsonSchema } from '../../lib/list';
import { scopeParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { sendKeptAnswer } from '../../plugins/kept-answer';
import type { ListedEntity } from '../../services/list-versions';
import { exportBatchSize } from './export-state';
import { companyName } from './reports.repository';
import { ExportAborted, writeReportWorkbook } from './workbook';

/** A report's entry in shared-contracts (REPORTS.<report>, AUDIT_SCHEDULE). */
export interface ReportEntry {
  endpoint: string;
  permission: PermissionKey;
  /** Title, file and sheet name of the workbook. */
  title: string;
  fileName: string;
  sheetName: string;
}

export interface ExportSpec<Row> {
  /** The export's name in the logs: a report of REPORTS, or another list's (the audit schedule). */
  kind: string;
  workbook: Pick<ReportEntry, 'title' | 'fileName' | 'sheetName'>;
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
export async function sendExport<Row>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  spec: ExportSpec<Row>,
  /** The company chosen (a checked id, or ALL / none: every company in scope). */
  companyId: string | undefined,
) {
  const report = spec.workbook;
  const all = !companyId || companyId.trim().toUpperCase() === ALL;
  const company = all
    ? REPORT_FILTER_WORDS.all
    : ((await companyName(app.db, companyId.toLowerCase())) ?? '');
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

/** What every report's query has: the table's page, or the export. */
interface ReportQuery {
  type: 'table' | 'export';
  page: number;
  paginate: number;
}

export interface ReportRouteDef<Q extends yup.AnyObjectSchema, F, Row> {
  /** The report's name in the export's logs. */
  kind: string;
  report: ReportEntry;
  /** The OpenAPI tag. */
  tag: string;
  summary: string;
  query: Q;
  /** A row of the table. */
  row: yup.AnyObjectSchema;
  /** The report's filter from the query and the caller's scope (a 422 for a bad one). */
  filter: (q: yup.InferType<Q>, scope: CompanyScope) => F;
  count: (f: F) => Promise<number>;
  page: (f: F, limit: number, offset: number) => Promise<unknown[]>;
  /**
   * A page and its total in one statement, where the filter allows it; undefined: `count` and `page`
   * apart (two statements on two connections).
   */
  pageAndTotal?: (
    f: F,
    limit: number,
    offset: number,
  ) => Promise<{ rows: unknown[]; total: number }> | undefined;
  /** The total is counted up to LIST_TOTAL_CAP rows: one above answers a capped total. */
  capped?: boolean;
  /**
   * The kinds of record a table page shows (services/list-cache.ts `answer`): a page without a
   * search is then kept, for its day, until a write of one of them in a company of the scope.
   * Undefined: read every time.
   */
  kept?: readonly ListedEntity[];
  /** The export's columns, its Filter sheet (label, what was chosen) and its rows in batches of `batchSize`. */
  exported: (
    f: F,
    q: yup.InferType<Q>,
    scope: CompanyScope,
    batchSize: number,
  ) => Promise<Pick<ExportSpec<Row>, 'columns' | 'filters' | 'batches'>>;
}

/** `GET /api/<endpoint>/:company_id` of a report: a page and its total, or the workbook (`type=export`). */
export function defineReportRoute<Q extends yup.AnyObjectSchema, F, Row>(
  app: FastifyInstance,
  def: ReportRouteDef<Q, F, Row>,
): void {
  const { report } = def;
  defineRoute(app, {
    method: 'GET',
    url: `/api/${report.endpoint}/:company_id`,
    summary: def.summary,
    tags: [def.tag],
    access: { permission: report.permission },
    params: scopeParams,
    query: def.query,
    response: { 200: listJsonSchema(toJsonSchema(def.row)) },
    handler: async (req, reply) => {
      const query: unknown = req.query;
      const q = query as yup.InferType<Q>;
      const { type, page, paginate } = query as ReportQuery;
      const scope = companyFilter(req, req.params.company_id);
      // Read before the filter (which may read today too): at midnight a page made for the new day
      // can then only be kept under the old day's key, never the reverse.
      const today = app.clock.today();
      const f = def.filter(q, scope);
      if (type === 'export') {
        const spec = await def.exported(f, q, scope, exportBatchSize(app));
        return sendExport(
          app,
          req,
          reply,
          { kind: def.kind, workbook: report, ...spec },
          req.params.company_id,
        );
      }
      const table = async () => {
        const offset = (page - 1) * paginate;
        const both = def.pageAndTotal?.(f, paginate, offset);
        const { total, rows } = both
          ? await both
          : await Promise.all([def.count(f), def.page(f, paginate, offset)]).then(([n, r]) => ({
              total: n,
              rows: r,
            }));
        return toListResponse(rows, total, page, paginate, def.capped === true && total > LIST_TOTAL_CAP);
      };
      if (!def.kept || (query as { search?: string }).search) return table();
      const key = `${report.endpoint}\n${today}\n${JSON.stringify(query)}`;
      return sendKeptAnswer(app, req, reply, { kinds: def.kept, scope, key }, table);
    },
  });
}
