import dayjs, { type Dayjs } from 'dayjs';
import * as yup from 'yup';
import {
  bucketCount,
  CHART_GRANULARITIES,
  CHART_MAX_BUCKETS,
  CHART_PRESETS,
  CHART_STATUS_OPTIONS,
  CHART_TOO_MANY_BUCKETS,
  chartRange,
  DEFAULT_CHART_GRANULARITY,
  DEFAULT_CHART_PRESET,
  joinListParam,
  type ChartGranularity,
  type ChartPreset,
  type ChartStatusOption,
} from '@sertifikasi/shared-contracts';
import { API_DATE_FORMAT } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

/** The two charts of the dashboard. */
export type ChartKind = 'company' | 'training';

/** What a chart's settings modal edits (and what the chart was last asked for). */
export interface ChartSettings {
  /** Company chart only: the stored statuses counted. */
  status: ChartStatusOption[];
  date_type: ChartPreset;
  /** With 'custom': the first and last day (inclusive). */
  start: Dayjs | null;
  end: Dayjs | null;
  chart: ChartGranularity;
}

/** docs/rules.md#dashboard-and-reports: all four statuses, the last week, per day, start and end today. */
export function defaultChartSettings(): ChartSettings {
  const today = dayjs().startOf('day');
  return {
    status: [...CHART_STATUS_OPTIONS],
    date_type: DEFAULT_CHART_PRESET,
    start: today,
    end: today,
    chart: DEFAULT_CHART_GRANULARITY,
  };
}

const ymd = (d: Dayjs) => d.format(API_DATE_FORMAT);

/**
 * The chart call's query (docs/rules.md#calls and #wire-formats): date_type, chart (the
 * granularity), start_date/end_date (`YYYY-MM-DD`) with 'Pilih Tanggal' only (a preset ignores
 * them), and for the company chart the statuses, comma-separated.
 */
export function chartParams(kind: ChartKind, s: ChartSettings): Record<string, string> {
  const params: Record<string, string> = { date_type: s.date_type, chart: s.chart };
  if (s.date_type === 'custom' && s.start && s.end) {
    params.start_date = ymd(s.start);
    params.end_date = ymd(s.end);
  }
  if (kind === 'company') params.status = joinListParam(s.status);
  return params;
}

const validDay = (d: Dayjs | null | undefined): d is Dayjs => Boolean(d?.isValid());

/**
 * The settings form's checks: at least one status (company chart), both dates of a custom range, the
 * end not before the start, and no more points than the API draws (the API's own message).
 */
export function chartSettingsSchema(kind: ChartKind) {
  return yup
    .object({
      status:
        kind === 'company'
          ? yup.array(yup.string().oneOf([...CHART_STATUS_OPTIONS])).min(1, t.dashboard.statusRequired)
          : yup.array(),
      date_type: yup.string().oneOf([...CHART_PRESETS]),
      chart: yup.string().oneOf([...CHART_GRANULARITIES]),
      start: yup.mixed<Dayjs>().when('date_type', {
        is: 'custom',
        then: (s) => s.test('start', t.dashboard.dateRequired, validDay),
      }),
      end: yup.mixed<Dayjs>().when('date_type', {
        is: 'custom',
        then: (s) =>
          s
            .test('end', t.dashboard.dateRequired, validDay)
            .test('order', t.dashboard.dateOrder, function order(end) {
              const { start } = this.parent as ChartSettings;
              return !validDay(start) || !validDay(end) || !end.isBefore(start, 'day');
            }),
      }),
    })
    .test('buckets', function buckets(value) {
      const s = value as unknown as ChartSettings;
      const count = pointCount(s);
      return count <= CHART_MAX_BUCKETS
        ? true
        : this.createError({ path: 'chart', message: CHART_TOO_MANY_BUCKETS(count) });
    });
}

/** How many points the chart would draw for these settings (0 while a custom range is incomplete). */
export function pointCount(s: ChartSettings): number {
  if (s.date_type === 'custom' && (!validDay(s.start) || !validDay(s.end))) return 0;
  const today = ymd(dayjs());
  const range = chartRange(s.date_type, today, {
    start_date: s.start ? ymd(s.start) : null,
    end_date: s.end ? ymd(s.end) : null,
  });
  return bucketCount(range.start, range.end, s.chart);
}

/** The x axis label of a bucket (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`): short under the axis, long in the tooltip. */
export function bucketLabel(key: string, granularity: ChartGranularity, long = false): string {
  if (granularity === 'YEAR') return key;
  if (granularity === 'MONTH')
    return dayjs(`${key}-01`)
      .locale('id')
      .format(long ? 'MMMM YYYY' : 'MMM YYYY');
  return dayjs(key)
    .locale('id')
    .format(long ? 'DD MMMM YYYY' : 'D MMM');
}
