import type { FastifyInstance } from 'fastify';
import {
  type CompanyScope,
  companyCertificationReportQuerySchema,
  companyCertificationReportRowSchema,
  DATE_RANGE_ORDER_MESSAGE,
  type DateRange,
  EFFECTIVE_STATUS_LABELS,
  parseDateRange,
  pickerDate,
  REPORTS,
  schemeReportQuerySchema,
  schemeReportRowSchema,
  trainingReportQuerySchema,
  trainingReportRowSchema,
} from '@sertifikasi/shared-contracts';
import { accreditationBodies, certificationTypes, clientCertificates } from '../../db/schema';
import { invalid } from '../../lib/errors';
import {
  companyExportColumns,
  companyReportBatches,
  companyReportCount,
  companyReportPage,
  companyReportWhere,
} from './company-report.repository';
import { defineReportRoute } from './report-route';
import { namesOf } from './reports.repository';
import {
  schemeExportColumns,
  schemeReportBatches,
  schemeReportCount,
  schemeReportCountFromCounts,
  schemeReportPage,
  schemeReportPageAndTotal,
  schemeReportPlain,
  schemeReportWhere,
} from './scheme-report.repository';
import {
  trainingExportColumns,
  trainingReportBatches,
  trainingReportCount,
  trainingReportPage,
  trainingReportWhere,
} from './training-report.repository';

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

/** The three reports (docs/rules.md#dashboard-and-reports and #wire-formats): `type=table` a page, `type=export` an .xlsx. */
export default async function reportRoutes(app: FastifyInstance) {
  const tag = 'reports';
  const tz = app.clock.timeZone;
  const names = async (table: Parameters<typeof namesOf>[1], ids: readonly string[], scope: CompanyScope) =>
    listText(await namesOf(app.db, table, ids, scope));

  const company = REPORTS.company.filters;
  defineReportRoute(app, {
    kind: 'company',
    report: REPORTS.company,
    tag,
    summary: `Clients, by name (type=table: a page; type=export: ${REPORTS.company.fileName})`,
    query: companyCertificationReportQuerySchema,
    row: companyCertificationReportRowSchema,
    filter: (q, scope) => companyReportWhere(q, scope),
    count: (where) => companyReportCount(app.db, where),
    page: (where, limit, offset) => companyReportPage(app.db, where, limit, offset),
    exported: async (where, q, scope, batchSize) => ({
      columns: companyExportColumns,
      filters: [
        [company.search, q.search],
        [company.certification, await names(certificationTypes, q.certification, scope)],
        [company.accredited, await names(accreditationBodies, q.accredited, scope)],
      ],
      batches: companyReportBatches(app.db, where, batchSize),
    }),
  });

  const scheme = REPORTS.scheme.filters;
  defineReportRoute(app, {
    kind: 'scheme',
    report: REPORTS.scheme,
    tag,
    summary: `Schemes, newest issue date first (type=table: a page; type=export: ${REPORTS.scheme.fileName})`,
    query: schemeReportQuerySchema,
    row: schemeReportRowSchema,
    filter: (q, scope) => {
      const filter = {
        query: q,
        scope,
        today: app.clock.today(),
        issue: dateRange(q.issue_date, 'issue_date', scheme.issue_date, tz),
        expired: dateRange(q.expired_date, 'expired_date', scheme.expired_date, tz),
      };
      return { filter, where: schemeReportWhere(filter) };
    },
    count: async ({ filter, where }) =>
      (await schemeReportCountFromCounts(app.db, filter)) ??
      schemeReportCount(app.db, where, filter.query.search !== ''),
    page: ({ filter, where }, limit, offset) => schemeReportPage(app.db, filter, where, limit, offset),
    pageAndTotal: ({ filter }, limit, offset) =>
      schemeReportPlain(filter) ? schemeReportPageAndTotal(app.db, filter, limit, offset) : undefined,
    // A page shows each scheme with its company's, client's, type's and accreditation body's names.
    kept: ['scheme', 'company', 'client-certificate', 'certification-type', 'accreditation-body'],
    exported: async ({ filter, where }, q, scope, batchSize) => ({
      columns: schemeExportColumns,
      filters: [
        [scheme.search, q.search],
        [scheme.issue_date, rangeText(filter.issue)],
        [scheme.expired_date, rangeText(filter.expired)],
        [scheme.status, listText(q.status.map((s) => EFFECTIVE_STATUS_LABELS[s]))],
        [scheme.client, await names(clientCertificates, q.client, scope)],
        [scheme.certification, await names(certificationTypes, q.certification, scope)],
        [scheme.accredited, await names(accreditationBodies, q.accredited, scope)],
      ],
      batches: schemeReportBatches(app.db, filter, where, batchSize),
    }),
  });

  const training = REPORTS.training.filters;
  defineReportRoute(app, {
    kind: 'training',
    report: REPORTS.training,
    tag,
    summary: `Training certificates, newest first (type=table: a page; type=export: ${REPORTS.training.fileName})`,
    query: trainingReportQuerySchema,
    row: trainingReportRowSchema,
    filter: (q, scope) => {
      const range = dateRange(q.issue_date, 'issue_date', training.issue_date, tz);
      return { range, where: trainingReportWhere(q, scope, range) };
    },
    count: ({ where }) => trainingReportCount(app.db, where),
    page: ({ where }, limit, offset) => trainingReportPage(app.db, where, limit, offset),
    exported: async ({ range, where }, q, _scope, batchSize) => ({
      columns: trainingExportColumns,
      filters: [
        [training.search, q.search],
        [training.issue_date, rangeText(range)],
      ],
      batches: trainingReportBatches(app.db, where, batchSize),
    }),
  });
}
