/**
 * Date range parameters of the reports' filters (docs/rules.md#wire-formats): `a,b` from a to b
 * inclusive, each end a `YYYY-MM-DD` or an ISO 8601 timestamp read as the calendar date it falls
 * on in the deployment's time zone; one value is that day; an empty side is open.
 */
import * as yup from 'yup';
import { isCalendarDate, todayIn } from './dates';
import { trimString } from './fields';

const ISO_TIMESTAMP_RE =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** True for one end of a date range: a bare `YYYY-MM-DD` or an ISO 8601 timestamp. */
export function isDateRangeEnd(value: string): boolean {
  if (isCalendarDate(value)) return true;
  const m = ISO_TIMESTAMP_RE.exec(value);
  if (!m || !isCalendarDate(m[1])) return false;
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59) return false;
  return !m[5] || !Number.isNaN(Date.parse(value));
}

/**
 * One end of a range as the calendar date it stands for in `timeZone` (docs/rules.md#wire-formats):
 * a timestamp with an offset is the date it falls on there (`2024-03-16T17:00:00.000Z` is the
 * 17th in Jakarta); a bare date, or a timestamp without offset, is its own date.
 */
export function dateRangeEndToDate(value: string, timeZone: string): string {
  if (isCalendarDate(value)) return value;
  const m = ISO_TIMESTAMP_RE.exec(value);
  if (!m) throw new Error('not a date or timestamp: ' + String(value));
  if (!m[5]) return m[1]!;
  return todayIn(timeZone, new Date(value));
}

/** An inclusive range of calendar dates; either end may be open (null). */
export interface DateRange {
  from: string | null;
  to: string | null;
}

/**
 * Reads a date range parameter: empty means no filter (null); `a,b` from a to b inclusive; one
 * value without a comma is that one day; an empty side (`a,` or `,b`) is open. Throws on a value
 * that isDateRangeParam refuses.
 */
export function parseDateRange(value: string | null | undefined, timeZone: string): DateRange | null {
  const text = (value ?? '').trim();
  if (!text) return null;
  const parts = text.split(',').map((p) => p.trim());
  const [a, b] = parts.length === 1 ? [parts[0]!, parts[0]!] : [parts[0]!, parts[1]!];
  const range = {
    from: a ? dateRangeEndToDate(a, timeZone) : null,
    to: b ? dateRangeEndToDate(b, timeZone) : null,
  };
  return range.from || range.to ? range : null;
}

/** True when a date range parameter is readable (format only; the order is checked with the time zone). */
export function isDateRangeParam(value: string): boolean {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length > 2) return false;
  return parts.every((p) => p === '' || isDateRangeEnd(p));
}

/** Writes a range the way it travels: each end a Date (sent as its ISO timestamp) or `YYYY-MM-DD`. */
export function dateRangeParam(
  from: Date | string | null | undefined,
  to: Date | string | null | undefined,
): string {
  const end = (v: Date | string | null | undefined) =>
    v == null ? '' : v instanceof Date ? v.toISOString() : v;
  const [a, b] = [end(from), end(to)];
  return a || b ? `${a},${b}` : '';
}

export const DATE_RANGE_ORDER_MESSAGE = (label: string) =>
  `${label}: tanggal akhir tidak boleh sebelum tanggal awal`;

/** A date range query parameter (format checked here; the API converts it with its time zone). */
export const dateRangeParamField = (label: string) =>
  yup
    .string()
    .typeError(`${label} tidak valid`)
    .transform(trimString)
    .max(100, `${label} tidak valid`)
    .test(
      'date-range',
      `${label} harus berupa dua tanggal dipisah koma (YYYY-MM-DD atau ISO 8601)`,
      (v) => v == null || v === '' || isDateRangeParam(v),
    )
    .default('');
