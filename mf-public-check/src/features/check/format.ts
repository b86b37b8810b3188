/** `2024-03-05` as `05 Maret 2024` / `05 March 2024` (DD MMMM YYYY), with no time zone involved. */
export function formatDate(date: string | null | undefined, locale: string): string {
  if (!date) return '-';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))));
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A date as a reader types it into the page's date field: day first in both languages, like every
 * date the page writes (`21/11/2025`; `-`, `.` or a space between the parts; one-digit day and
 * month; `21112025` without separators), or `2025-11-21`. The
 * calendar date as `YYYY-MM-DD`, or null when the text is no date (31/02, 11/21/2025).
 */
export function parseTypedDate(text: string): string | null {
  const s = text.trim();
  let day: number, month: number, year: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const dayFirst = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{4})$/.exec(s) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(s);
  if (iso) [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dayFirst) [day, month, year] = [Number(dayFirst[1]), Number(dayFirst[2]), Number(dayFirst[3])];
  else return null;
  if (year < 1000 || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}
