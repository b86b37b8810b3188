import * as yup from 'yup';
import { addDays, addMonths, isCalendarDate } from './dates';
import { trimString } from './fields';
import { V } from './messages';
import { EFFECTIVE_STATUSES, type EffectiveStatus, normaliseStatus, SCHEME_STATUSES } from './statuses';

/**
 * The dashboard (`/statistik`): totals, the list of schemes expiring this month and the two charts
 * (docs/rules.md#screens, #entities, #status, #calls, #dashboard-and-reports and #wire-formats). Every figure is over the caller's
 * scope and the path's company (`ALL` = every company in scope); "today", "this month" and every
 * bucket are in the deployment's time zone (TZ, default Asia/Jakarta).
 */

/** Paths under the API root; `{company_id}` is a company id or ALL. */
export const DASHBOARD_ENDPOINTS = {
  totals: 'dashboard-total',
  companyChart: 'grafic-certification-company',
  trainingChart: 'grafic-certification-training',
} as const;

// ---------------------------------------------------------------------------------------------
// Query helpers shared with the reports
// ---------------------------------------------------------------------------------------------

/**
 * A list filter as it travels (docs/rules.md#wire-formats): one parameter holding comma-separated
 * values (`status=ACTIVE,SUSPENDED`), or the parameter repeated, or an array (forms). Empty parts
 * are dropped; an empty value means no filter ([]). Anything else (a number, an object) is left for
 * the type check to refuse.
 */
export function splitListParam(value: unknown): unknown {
  if (value == null) return [];
  const parts: unknown[] = Array.isArray(value) ? (value as unknown[]) : [value];
  if (!parts.every((p): p is string => typeof p === 'string')) return value;
  return [
    ...new Set(
      parts
        .flatMap((p) => p.split(','))
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
}

/** Writes a list filter the way it travels: `a,b,c` (empty string for none). */
export const joinListParam = (values: readonly string[] | null | undefined): string =>
  (values ?? []).join(',');

/** A list of ids (uuid) as a query parameter; `[]` means no filter. */
export const idListParam = (label: string) =>
  yup
    .array(yup.string().defined().uuid(V.oneOf(label)))
    .typeError(V.oneOf(label))
    .transform((_value: unknown, original: unknown) => splitListParam(original))
    .max(200, `${label} maksimal 200 pilihan`)
    .default(() => [])
    .defined();

/** A list of statuses from a vocabulary, 'NOTACTIVE' read as NOACTIVE; `[]` means no filter. */
export const statusListParam = <T extends string>(label: string, values: readonly T[]) =>
  yup
    .array(
      yup
        .string<T>()
        .defined()
        .oneOf([...values], V.oneOf(label)),
    )
    .typeError(V.oneOf(label))
    .transform((_value: unknown, original: unknown) => {
      const list = splitListParam(original);
      if (!Array.isArray(list)) return list;
      return [...new Set((list as unknown[]).map((s) => (typeof s === 'string' ? normaliseStatus(s) : s)))];
    })
    .default(() => [])
    .defined();

// ---------------------------------------------------------------------------------------------
// Totals: GET dashboard-total/{company_id}
// ---------------------------------------------------------------------------------------------

/** The schemes expiring this month that the totals list, at most (soonest first). */
export const EXPIRING_LIST_LIMIT = 100;

/** One row of `company_certificate_scheme_bystatus`: every status of EFFECTIVE_STATUSES, zeros included. */
export const statusTotalSchema = yup.object({
  status: yup
    .string<EffectiveStatus>()
    .oneOf([...EFFECTIVE_STATUSES])
    .defined(),
  total: yup.number().integer().defined(),
});
export type StatusTotal = yup.InferType<typeof statusTotalSchema>;

/** A scheme stored ACTIVE whose `expired_date` falls in the current calendar month. */
export const expiringSchemeSchema = yup.object({
  id: yup.string().defined(),
  company_id: yup.string().defined(),
  /** The certification type's name. */
  cert_name: yup.string().defined(),
  /** The scheme's own certificate number (may be null on old rows). */
  cert_number: yup.string().nullable().defined(),
  /** `YYYY-MM-DD`. */
  expired_date: yup.string().defined(),
  /** ACTIVE, or EXPIRED once the date has passed (days of this month already gone). */
  status: yup
    .string<EffectiveStatus>()
    .oneOf([...EFFECTIVE_STATUSES])
    .defined(),
  /** The client (company certificate): Detail links to /company-certificate/{profile.id}. */
  profile: yup
    .object({
      id: yup.string().defined(),
      name: yup.string().defined(),
      /** Image name under /images/, or null (show the default image). */
      logo: yup.string().nullable().defined(),
    })
    .defined(),
});
export type ExpiringScheme = yup.InferType<typeof expiringSchemeSchema>;

/** `GET dashboard-total/{company_id}` (permission statistik). */
export const dashboardTotalsSchema = yup.object({
  /** Clients with at least one ACTIVE, unexpired scheme ("companies certified"). */
  company_certificate: yup.number().integer().defined(),
  /** All schemes, every status. */
  company_certificate_total: yup.number().integer().defined(),
  /** Distinct persons among training certificates (name trimmed, ignoring case). */
  training_certificate: yup.number().integer().defined(),
  /** All training certificates. */
  training_certificate_total: yup.number().integer().defined(),
  /** One row per EFFECTIVE_STATUSES entry, in that order; the totals add up to company_certificate_total. */
  company_certificate_scheme_bystatus: yup.array(statusTotalSchema).defined(),
  /** At most EXPIRING_LIST_LIMIT rows, soonest first. */
  company_certificate_expired_in_amonth: yup.array(expiringSchemeSchema).defined(),
  /** How many schemes expire this month in all (the list above may be capped). */
  company_certificate_expired_in_amonth_total: yup.number().integer().defined(),
});
export type DashboardTotals = yup.InferType<typeof dashboardTotalsSchema>;

// ---------------------------------------------------------------------------------------------
// Charts: GET grafic-certification-company/{company_id}, grafic-certification-training/{company_id}
// ---------------------------------------------------------------------------------------------

/** Presets of the chart settings (docs/rules.md#dashboard-and-reports); `custom` takes start_date and end_date. */
export const CHART_PRESETS = ['6m', '3m', '1m', '2w', '1w', 'custom'] as const;
export type ChartPreset = (typeof CHART_PRESETS)[number];
export const CHART_PRESET_LABELS: Record<ChartPreset, string> = {
  '6m': '6 bulan terakhir',
  '3m': '3 bulan terakhir',
  '1m': '1 bulan terakhir',
  '2w': '2 minggu terakhir',
  '1w': '1 minggu terakhir',
  custom: 'Pilih Tanggal',
};
export const DEFAULT_CHART_PRESET: ChartPreset = '1w';

export const CHART_GRANULARITIES = ['DAY', 'MONTH', 'YEAR'] as const;
export type ChartGranularity = (typeof CHART_GRANULARITIES)[number];
export const CHART_GRANULARITY_LABELS: Record<ChartGranularity, string> = {
  DAY: 'Harian',
  MONTH: 'Bulanan',
  YEAR: 'Tahunan',
};
export const DEFAULT_CHART_GRANULARITY: ChartGranularity = 'DAY';

/**
 * What the company chart's status filter offers, as it travels: 'NOTACTIVE' means NOACTIVE
 * (docs/rules.md#dashboard-and-reports). The API accepts NOACTIVE too and DRAFT when asked for explicitly.
 */
export const CHART_STATUS_OPTIONS = ['ACTIVE', 'SUSPENDED', 'WITHDRAWN', 'NOTACTIVE'] as const;
export type ChartStatusOption = (typeof CHART_STATUS_OPTIONS)[number];
export const CHART_STATUS_LABELS: Record<ChartStatusOption, string> = {
  ACTIVE: 'ACTIVE',
  SUSPENDED: 'SUSPENDED',
  WITHDRAWN: 'WITHDRAWN',
  NOTACTIVE: 'NOT ACTIVE',
};
/** The stored statuses counted when no status is given: the four chart statuses, DRAFT excluded. */
export const DEFAULT_CHART_STATUSES = ['ACTIVE', 'SUSPENDED', 'WITHDRAWN', 'NOACTIVE'] as const;

/** At most this many buckets; a longer range answers 422 with CHART_TOO_MANY_BUCKETS. */
export const CHART_MAX_BUCKETS = 400;
export const CHART_TOO_MANY_BUCKETS = (count: number) =>
  `Rentang tanggal terlalu panjang: ${count} titik, maksimal ${CHART_MAX_BUCKETS}. ` +
  'Pilih satuan yang lebih besar (Bulanan atau Tahunan) atau rentang yang lebih pendek.';

const chartDate = (label: string) =>
  yup
    .string()
    .typeError(V.date(label))
    .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
    .test('calendar-date', V.date(label), (value) => value == null || isCalendarDate(value))
    .optional();

const chartBaseFields = {
  date_type: yup
    .string<ChartPreset>()
    .typeError(V.oneOf('Periode'))
    .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
    .oneOf([...CHART_PRESETS], V.oneOf('Periode'))
    .default(DEFAULT_CHART_PRESET),
  /** `YYYY-MM-DD`, inclusive; required with date_type=custom, ignored with a preset. */
  start_date: chartDate('Tanggal Mulai').when('date_type', {
    is: 'custom',
    then: (s) => s.required(V.required('Tanggal Mulai')),
  }),
  end_date: chartDate('Tanggal Akhir').when('date_type', {
    is: 'custom',
    then: (s) =>
      s
        .required(V.required('Tanggal Akhir'))
        .test('after-start', 'Tanggal Akhir tidak boleh sebelum Tanggal Mulai', function check(value) {
          const start = (this.parent as { start_date?: string }).start_date;
          return !value || !start || !isCalendarDate(start) || value >= start;
        }),
  }),
  /** Granularity (docs/rules.md#wire-formats); `chart_type` is a synonym. */
  chart: yup
    .string<ChartGranularity>()
    .typeError(V.oneOf('Satuan'))
    .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
    .oneOf([...CHART_GRANULARITIES], V.oneOf('Satuan'))
    .optional(),
  chart_type: yup
    .string<ChartGranularity>()
    .typeError(V.oneOf('Satuan'))
    .transform((v: unknown) => (v === '' ? undefined : trimString(v)))
    .oneOf([...CHART_GRANULARITIES], V.oneOf('Satuan'))
    .optional(),
};

/** `GET grafic-certification-training/{company_id}` query. */
export const trainingChartQuerySchema = yup
  .object(chartBaseFields)
  .noUnknown('Parameter tidak dikenal: ${unknown}');
export type TrainingChartQuery = yup.InferType<typeof trainingChartQuerySchema>;

/**
 * `GET grafic-certification-company/{company_id}` query: also `status`, stored statuses counted
 * (comma-separated or repeated; 'NOTACTIVE' = NOACTIVE; none = DEFAULT_CHART_STATUSES).
 */
export const companyChartQuerySchema = yup
  .object({
    ...chartBaseFields,
    status: statusListParam('Status', SCHEME_STATUSES),
  })
  .noUnknown('Parameter tidak dikenal: ${unknown}');
export type CompanyChartQuery = yup.InferType<typeof companyChartQuerySchema>;

/** The granularity a chart query asks for: `chart`, else `chart_type`, else DAY. */
export const chartGranularity = (q: {
  chart?: ChartGranularity | undefined;
  chart_type?: ChartGranularity | undefined;
}) => q.chart ?? q.chart_type ?? DEFAULT_CHART_GRANULARITY;

/** Company chart row: `date` is `YYYY-MM-DD` (DAY), `YYYY-MM` (MONTH) or `YYYY` (YEAR). */
export interface CompanyChartRow {
  date: string;
  total: number;
}
/** Training chart row: `date_f` as `date` above. */
export interface TrainingChartRow {
  date_f: string;
  total: number;
}
export const companyChartRowSchema = yup.object({
  date: yup.string().defined(),
  total: yup.number().integer().defined(),
});
export const trainingChartRowSchema = yup.object({
  date_f: yup.string().defined(),
  total: yup.number().integer().defined(),
});
/** Both charts answer an array of rows, every bucket of the range, oldest first, zeros included. */
export const companyChartSchema = yup.array(companyChartRowSchema).defined();
export const trainingChartSchema = yup.array(trainingChartRowSchema).defined();

/**
 * The inclusive date range of a chart query on `today` (docs/rules.md#dashboard-and-reports): 1w is the 7 days
 * up to today, 2w 14 days; 1m, 3m, 6m start the day after the same date 1, 3 or 6 months earlier.
 */
export function chartRange(
  preset: ChartPreset,
  today: string,
  custom?: { start_date?: string | null | undefined; end_date?: string | null | undefined },
): { start: string; end: string } {
  switch (preset) {
    case '1w':
      return { start: addDays(today, -6), end: today };
    case '2w':
      return { start: addDays(today, -13), end: today };
    case '1m':
      return { start: addDays(addMonths(today, -1), 1), end: today };
    case '3m':
      return { start: addDays(addMonths(today, -3), 1), end: today };
    case '6m':
      return { start: addDays(addMonths(today, -6), 1), end: today };
    case 'custom': {
      const start = custom?.start_date ?? today;
      const end = custom?.end_date ?? today;
      return { start, end };
    }
  }
}

/** The bucket key of a date (`YYYY-MM-DD`) at a granularity. */
export const bucketOf = (date: string, granularity: ChartGranularity): string =>
  granularity === 'DAY' ? date : granularity === 'MONTH' ? date.slice(0, 7) : date.slice(0, 4);

/** How many buckets a range has, without listing them. */
export function bucketCount(start: string, end: string, granularity: ChartGranularity): number {
  if (end < start) return 0;
  const [sy, sm] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
  const [ey, em] = [Number(end.slice(0, 4)), Number(end.slice(5, 7))];
  if (granularity === 'YEAR') return ey - sy + 1;
  if (granularity === 'MONTH') return (ey - sy) * 12 + (em - sm) + 1;
  const ms =
    Date.UTC(ey, em - 1, Number(end.slice(8, 10))) - Date.UTC(sy, sm - 1, Number(start.slice(8, 10)));
  return Math.round(ms / 86_400_000) + 1;
}

/** Every bucket key of an inclusive range, oldest first (call bucketCount first to bound it). */
export function bucketKeys(start: string, end: string, granularity: ChartGranularity): string[] {
  const keys: string[] = [];
  if (end < start) return keys;
  if (granularity === 'DAY') {
    for (let d = start; d <= end; d = addDays(d, 1)) keys.push(d);
  } else if (granularity === 'MONTH') {
    for (let m = `${start.slice(0, 7)}-01`; m.slice(0, 7) <= end.slice(0, 7); m = addMonths(m, 1))
      keys.push(m.slice(0, 7));
  } else {
    for (let y = Number(start.slice(0, 4)); y <= Number(end.slice(0, 4)); y++)
      keys.push(String(y).padStart(4, '0'));
  }
  return keys;
}
