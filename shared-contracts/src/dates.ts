import * as yup from 'yup';
import type { ValidForType } from './statuses';
import { trimString } from './fields';
import { V } from './messages';

/**
 * Dates without time (docs/rules.md#data) travel as `YYYY-MM-DD`. Arithmetic on them is
 * calendar arithmetic in UTC, so no time zone can shift a day.
 */
export const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

const daysInMonth = (year: number, month1: number): number =>
  new Date(Date.UTC(year, month1, 0)).getUTCDate();

/** True for a real calendar date written `YYYY-MM-DD` (`2023-02-29` is not one). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = ISO_DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return y >= 1900 && y <= 2999 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

const parts = (date: string): [number, number, number] => {
  const m = ISO_DATE_RE.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const fromUtc = (d: Date) =>
  `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** `date` plus a number of days (negative goes back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  return fromUtc(new Date(Date.UTC(y, m - 1, d + days)));
}

/** `date` plus whole months; the day is kept, or the month's last day when it has fewer days. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month1 = (index % 12) + 1;
  return `${pad(year, 4)}-${pad(month1)}-${pad(Math.min(d, daysInMonth(year, month1)))}`;
}

/**
 * A scheme's expiry (docs/rules.md#records): `issue_date + valid_for valid_for_type`. A month after
 * 31 January is the last day of February; a year after 29 February is 28 February.
 */
export function addValidity(issueDate: string, validFor: number, type: ValidForType): string {
  if (type === 'DAY') return addDays(issueDate, validFor);
  return addMonths(issueDate, type === 'YEAR' ? validFor * 12 : validFor);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [a, b] = [parts(from), parts(to)];
  return Math.round((Date.UTC(b[0], b[1] - 1, b[2]) - Date.UTC(a[0], a[1] - 1, a[2])) / 86_400_000);
}

/** Month names, January first: English (the certificate PDF) and Indonesian (the screens). */
export const MONTH_NAMES = {
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  id: [
    'Januari',
    'Februari',
    'Maret',
    'April',
    'Mei',
    'Juni',
    'Juli',
    'Agustus',
    'September',
    'Oktober',
    'November',
    'Desember',
  ],
} as const;

/**
 * A date `YYYY-MM-DD` written out, `DD MMMM YYYY` (docs/rules.md#constants): `2024-03-05` is
 * `05 March 2024` in English, `05 Maret 2024` in Indonesian. No time zone involved; a value that is
 * not such a date is returned as it is.
 */
export function longDate(date: string, language: keyof typeof MONTH_NAMES): string {
  const m = ISO_DATE_RE.exec(date);
  const month = m ? MONTH_NAMES[language][Number(m[2]) - 1] : undefined;
  return m && month ? `${m[3]} ${month} ${m[1]}` : date;
}

/** A date `YYYY-MM-DD` as the pickers write it, `dd/MM/yyyy` (`2024-03-05` is `05/03/2024`). */
export function pickerDate(date: string): string {
  const m = ISO_DATE_RE.exec(date);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : date;
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date in a time zone (the deployment's `TZ`, docs/rules.md#running-system). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(now);
}

const dateBase = (label: string) =>
  yup
    .string()
    .typeError(V.date(label))
    .transform(trimString)
    .test('calendar-date', V.date(label), (value) => value == null || value === '' || isCalendarDate(value));

/** A required date `YYYY-MM-DD`. */
export const requiredDate = (label: string) => dateBase(label).required(V.required(label));

/** An optional date `YYYY-MM-DD`; empty becomes null. */
export const optionalDate = (label: string) =>
  dateBase(label)
    .transform((v: unknown) => (v === '' ? null : v))
    .nullable()
    .optional();
