/**
 * The one clock of the app (docs/architecture.md): "now", and "today" as a calendar date
 * (`YYYY-MM-DD`) in the deployment's time zone. Every part that asks what day or time it is (the
 * dashboard, reports, public checks, schemes, client certificates, the PDF, the status history, the
 * demo generator, sessions) asks the app's clock (`app.clock`, or the `clock` of a service context),
 * never `new Date()` or `todayIn` of its own. Tests set it (`clock.set(instant)`) and so move the
 * whole system to another day at once; `clock.set(null)` goes back to real time.
 */
import { addDays, addMonths } from '@sertifikasi/shared-contracts';

export interface Clock {
  /** The deployment's time zone (IANA name, `TZ`). */
  readonly timeZone: string;
  /** The current instant. */
  now(): Date;
  /** The calendar date of an instant (default: now) in the deployment's time zone, `YYYY-MM-DD`. */
  today(at?: Date): string;
  /** Today with the first and last day of its month. */
  calendar(): { today: string; monthStart: string; monthEnd: string };
}

export interface SettableClock extends Clock {
  /** Fixes "now" at an instant (tests); `null` returns to the system time. */
  set(instant: Date | null): void;
}

/** A clock for a time zone, reading the system time unless set. */
export function createClock(timeZone: string): SettableClock {
  // Made once: building an Intl formatter costs more than the rest of a public check.
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  let fixed: Date | null = null;
  const now = () => (fixed ? new Date(fixed.getTime()) : new Date());
  const today = (at?: Date) => format.format(at ?? now());
  return {
    timeZone,
    now,
    today,
    calendar() {
      const day = today();
      const monthStart = `${day.slice(0, 7)}-01`;
      return { today: day, monthStart, monthEnd: addDays(addMonths(monthStart, 1), -1) };
    },
    set(instant) {
      fixed = instant ? new Date(instant.getTime()) : null;
    },
  };
}
