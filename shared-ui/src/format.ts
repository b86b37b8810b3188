import dayjs from 'dayjs';
import 'dayjs/locale/id';
import { UI_TEXT } from './i18n/id';

/** How dates are shown everywhere (docs/rules.md#constants). */
export const DATE_FORMAT = 'DD MMMM YYYY';
/** How date pickers read and write dates (docs/rules.md#constants). */
export const PICKER_DATE_FORMAT = 'DD/MM/YYYY';
/** How dates without time travel (docs/rules.md#data). */
export const API_DATE_FORMAT = 'YYYY-MM-DD';

const LOCALE = 'id-ID';
const numberFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const rupiahFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });

type DateInput = string | number | Date | dayjs.Dayjs | null | undefined;
type NumberInput = number | string | null | undefined;

const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

function toNumber(value: NumberInput): number | null {
  if (isEmpty(value)) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * A date as 'DD MMMM YYYY' in Indonesian ('05 Januari 2026'), or '-' when empty or unreadable.
 * `YYYY-MM-DD` strings are read as that calendar day, whatever the time zone.
 */
export function formatDate(value: DateInput, format: string = DATE_FORMAT): string {
  if (isEmpty(value)) return UI_TEXT.dash;
  const date = dayjs(value);
  return date.isValid() ? date.locale('id').format(format) : UI_TEXT.dash;
}

/** A number with id-ID separators ('1.234.567,5'), or '-' when empty or not a number. */
export function formatNumber(value: NumberInput): string {
  const n = toNumber(value);
  return n === null ? UI_TEXT.dash : numberFormat.format(n);
}

/** Rupiah: 'Rp ' and dot thousands separators ('Rp 1.500.000'), or '-' when empty or not a number. */
export function formatRupiah(value: NumberInput): string {
  const n = toNumber(value);
  if (n === null) return UI_TEXT.dash;
  const text = rupiahFormat.format(Math.abs(n));
  return n < 0 ? `-Rp ${text}` : `Rp ${text}`;
}

/** Text for display: '-' when empty. */
export function orDash(value: string | number | null | undefined): string {
  return isEmpty(value) ? UI_TEXT.dash : String(value);
}

/** Where an uploaded image is served (docs/rules.md#running-system), or null when there is none. */
export function imageUrl(name: string | null | undefined): string | null {
  if (isEmpty(name)) return null;
  return `/images/${encodeURIComponent(String(name))}`;
}

/** A moment as 'DD MMMM YYYY HH:mm' in Indonesian ('05 Januari 2026 14:30'), or '-'. */
export function formatDateTime(value: DateInput): string {
  return formatDate(value, `${DATE_FORMAT} HH:mm`);
}

/**
 * Whole calendar days from `from` (today by default) to `to`: 0 on the day itself, negative once
 * past; null when `to` is empty or unreadable. `YYYY-MM-DD` strings are read as calendar days.
 */
export function daysUntil(to: DateInput, from: DateInput = dayjs()): number | null {
  if (isEmpty(to) || isEmpty(from)) return null;
  const end = dayjs(to);
  const start = dayjs(from);
  if (!end.isValid() || !start.isValid()) return null;
  return end.startOf('day').diff(start.startOf('day'), 'day');
}
