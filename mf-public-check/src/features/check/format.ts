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
