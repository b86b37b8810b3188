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
import { sendKeptAnswer } from '../../plugins/kept-answer';
import type { ListedEntity } from '../../services/list-versions';
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

/*
 * The kinds of record each answer shows (services/list-cache.ts `answer`): an answer is kept, for
 * its day (its expiries and ranges count from today), until a write of one of them in a company of
 * the scope. The figures and the expiring list: the schemes (counts, statuses, expiries, numbers),
 * their clients (certified, names, logos), types (names) and the training certificates (persons).
 */
const TOTALS_SHOW = [
  'scheme',
  'client-certificate',
  'certification-type',
  'training-certificate',
] as const satisfies readonly ListedEntity[];
const COMPANY_CHART_SHOWS = ['scheme'] as const satisfies readonly ListedEntity[];
const TRAINING_CHART_SHOWS = ['training-certificate'] as const satisfies readonly ListedEntity[];

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
    handler: async (req, reply) => {
      const scope = companyFilter(req, req.params.company_id);
      const dates = app.clock.calendar();
      const key = `dashboard-totals\n${dates.today}`;
      return sendKeptAnswer(app, req, reply, { kinds: TOTALS_SHOW, scope, key }, () =>
        dashboardTotals(app.db, scope, dates),
      );
    },
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
    handler: async (req, reply) => {
      const scope = companyFilter(req, req.params.company_id);
      const granularity = chartGranularity(req.query);
      const today = app.clock.today();
      const { range, keys } = chartPlan(req.query, granularity, today);
      const statuses: readonly SchemeStatus[] = req.query.status.length
        ? req.query.status
        : DEFAULT_CHART_STATUSES;
      const key = `company-chart\n${today}\n${JSON.stringify(req.query)}`;
      return sendKeptAnswer(app, req, reply, { kinds: COMPANY_CHART_SHOWS, scope, key }, async () => {
        const days = await schemeIssuesPerDay(app.db, scope, range, statuses);
        return fillBuckets(keys, days, granularity).map(([date, total]) => ({ date, total }));
      });
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
    handler: async (req, reply) => {
      const scope = companyFilter(req, req.params.company_id);
      const granularity = chartGranularity(req.query);
      const today = app.clock.today();
      const { range, keys } = chartPlan(req.query, granularity, today);
      const key = `training-chart\n${today}\n${JSON.stringify(req.query)}`;
      return sendKeptAnswer(app, req, reply, { kinds: TRAINING_CHART_SHOWS, scope, key }, async () => {
        const days = await trainingsPerDay(app.db, scope, range);
        return fillBuckets(keys, days, granularity).map(([date_f, total]) => ({ date_f, total }));
      });
    },
  });
}
