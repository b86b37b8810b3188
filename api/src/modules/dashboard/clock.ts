import { addDays, addMonths, todayIn } from '@sertifikasi/shared-contracts';

/**
 * Where the dashboard and reports read "now": one object, so tests can set the instant (a date
 * boundary in Jakarta) without faking the timers every other part of the app runs on.
 */
export const clock = { now: (): Date => new Date() };

/** Today in the deployment's time zone, with the first and last day of its month. */
export function calendarToday(timeZone: string): { today: string; monthStart: string; monthEnd: string } {
  const today = todayIn(timeZone, clock.now());
  const monthStart = `${today.slice(0, 7)}-01`;
  return { today, monthStart, monthEnd: addDays(addMonths(monthStart, 1), -1) };
}
