/**
 * Calendar dates as `YYYY-MM-DD` strings, with no time zone involved (DECISIONS.md section 4), and
 * the few conversions to the deployment's time zone the demo needs ("today", a wall-clock time).
 */
import type { ValidForType } from '@sertifikasi/shared-contracts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function parts(date: string): [number, number, number] {
  return [+date.slice(0, 4), +date.slice(5, 7), +date.slice(8, 10)];
}

const fromUtc = (ms: number): string => {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** The last day of a month (month 1-12). */
export const lastDayOfMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * `date` plus `n` years, months or days (n may be negative). A month or year that lands past the end
 * of its month lands on its last day: 31 January + 1 month = 28 or 29 February; 29 February + 1 year
 * = 28 February. This is how a scheme's expired_date is computed from issue_date + valid_for.
 */
export function addPeriod(date: string, n: number, unit: ValidForType): string {
  const [y, m, d] = parts(date);
  if (unit === 'DAY') return fromUtc(Date.UTC(y, m - 1, d + n));
  const months = m - 1 + (unit === 'YEAR' ? n * 12 : n);
  const year = y + Math.floor(months / 12);
  const month = (((months % 12) + 12) % 12) + 1;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, lastDayOfMonth(year, month)))}`;
}

export const addDays = (date: string, n: number): string => addPeriod(date, n, 'DAY');

/** Whole days from `a` to `b` (positive when b is later). */
export const daysBetween = (a: string, b: string): number => {
  const [ay, am, ad] = parts(a);
  const [by, bm, bd] = parts(b);
  return Math.round((Date.UTC(by, bm - 1, bd) - Date.UTC(ay, am - 1, ad)) / 86_400_000);
};

/** Intl formatters are costly to make (tens of microseconds): one per time zone and kind. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'date' | 'wall', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f =
      kind === 'date'
        ? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone,
            hourCycle: 'h23',
            year: 'numeric',
            month: 'numeric',
            day: 'numeric',
            hour: 'numeric',
            minute: 'numeric',
            second: 'numeric',
          });
    formatters.set(key, f);
  }
  return f;
}

/** The calendar date of an instant in a time zone. */
export function dateInZone(at: Date, timeZone: string): string {
  return formatter('date', timeZone).format(at);
}

/** Offset of a time zone from UTC at an instant, in milliseconds (Jakarta: +7 h). */
function zoneOffset(at: number, timeZone: string): number {
  const p = Object.fromEntries(
    formatter('wall', timeZone)
      .formatToParts(new Date(at))
      .map((x) => [x.type, x.value]),
  );
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/** Offsets by zone and date at noon UTC: enough for office hours, and read once per day. */
const offsets = new Map<string, number>();

/** The instant a wall clock in `timeZone` shows `date` at hour:minute (a DST jump may shift it an hour). */
export function zonedInstant(date: string, hour: number, minute: number, timeZone: string): Date {
  const [y, m, d] = parts(date);
  const key = `${timeZone}|${date}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = zoneOffset(Date.UTC(y, m - 1, d, 12), timeZone);
    offsets.set(key, offset);
  }
  return new Date(Date.UTC(y, m - 1, d, hour, minute) - offset);
}

export const yearOf = (date: string): number => parts(date)[0];
export const monthOf = (date: string): string => date.slice(0, 7);
export const dayOf = (date: string): number => parts(date)[2];
