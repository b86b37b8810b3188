import type { FastifyInstance } from 'fastify';
import {
  bucketCount,
  bucketKeys,
  bucketOf,
  CHART_MAX_BUCKETS,
  CHART_TOO_MANY_BUCKETS,
  type ChartGranularity,
  chartGranularity,
  chartRange,
  companyChartQuerySchema,
  companyChartSchema,
  DASHBOARD_ENDPOINTS,
  dashboardTotalsSchema,
  DEFAULT_CHART_STATUSES,
  ERROR_CODES,
  type SchemeStatus,
  trainingChartQuerySchema,
  trainingChartSchema,
} from '@sertifikasi/shared-contracts';
import { companyFilter } from '../../plugins/auth';
import { AppError } from '../../lib/errors';
import { scopeParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { type DayCount, dashboardTotals, schemeIssuesPerDay, trainingsPerDay } from './dashboard.repository';

/** The range and its buckets, or 422 when there would be more than CHART_MAX_BUCKETS. */
function chartPlan(
  query: {
    date_type: Parameters<typeof chartRange>[0];
    start_date?: string | undefined;
    end_date?: string | undefined;
  },
  granularity: ChartGranularity,
  today: string,
) {
  const range = chartRange(query.date_type, today, query);
  const n = bucketCount(range.start, range.end, granularity);
  if (n > CHART_MAX_BUCKETS) {
    const message = CHART_TOO_MANY_BUCKETS(n);
    throw new AppError(422, ERROR_CODES.validation, message, { chart: message });
  }
  return { range, keys: bucketKeys(range.start, range.end, granularity) };
}

/** Sums the days into their buckets; every bucket present, zeros included, oldest first. */
function fillBuckets(keys: string[], days: DayCount[], granularity: ChartGranularity): [string, number][] {
  const totals = new Map(keys.map((k) => [k, 0]));
  for (const { day, total } of days) {
    const key = bucketOf(day, granularity);
    totals.set(key, (totals.get(key) ?? 0) + total);
  }
  return keys.map((k) => [k, totals.get(k) ?? 0]);
}

/** The dashboard (`/statistik`): totals and the two charts (docs/rules.md#dashboard-and-reports and #wire-formats). */
export default async function dashboardRoutes(app: FastifyInstance) {
  const tags = ['dashboard'];

  defineRoute(app, {
    method: 'GET',
    url: `/api/${DASHBOARD_ENDPOINTS.totals}/:company_id`,
    summary: 'Dashboard totals, schemes per status and the schemes expiring this month (at most 100)',
    tags,
    access: { permission: 'statistik' },
    params: scopeParams,
    response: { 200: dashboardTotalsSchema },
    handler: async (req) =>
      dashboardTotals(app.db, companyFilter(req, req.params.company_id), app.clock.calendar()),
  });

  defineRoute(app, {
    method: 'GET',
    url: `/api/${DASHBOARD_ENDPOINTS.companyChart}/:company_id`,
    summary: 'Schemes issued per day, month or year (by stored status; default the four chart statuses)',
    tags,
    access: { permission: 'statistik' },
    params: scopeParams,
    query: companyChartQuerySchema,
    response: { 200: companyChartSchema },
    handler: async (req) => {
      const scope = companyFilter(req, req.params.company_id);
      const granularity = chartGranularity(req.query);
      const { range, keys } = chartPlan(req.query, granularity, app.clock.today());
      const statuses: readonly SchemeStatus[] = req.query.status.length
        ? req.query.status
        : DEFAULT_CHART_STATUSES;
      const days = await schemeIssuesPerDay(app.db, scope, range, statuses);
      return fillBuckets(keys, days, granularity).map(([date, total]) => ({ date, total }));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `/api/${DASHBOARD_ENDPOINTS.trainingChart}/:company_id`,
    summary: 'Training certificates per day, month or year (by their date)',
    tags,
    access: { permission: 'statistik' },
    params: scopeParams,
    query: trainingChartQuerySchema,
    response: { 200: trainingChartSchema },
    handler: async (req) => {
      const scope = companyFilter(req, req.params.company_id);
      const granularity = chartGranularity(req.query);
      const { range, keys } = chartPlan(req.query, granularity, app.clock.today());
      const days = await trainingsPerDay(app.db, scope, range);
      return fillBuckets(keys, days, granularity).map(([date_f, total]) => ({ date_f, total }));
    },
  });
}
