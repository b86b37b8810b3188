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
  /** What a wall clock in the time zone shows at an instant (default: now). */
  wallTime(at?: Date): WallTime;
  /** The instant a wall clock in the time zone shows `date` (`YYYY-MM-DD`) at hour:minute. */
  instantAt(date: string, hour: number, minute: number): Date;
  /** The zone's offset from UTC on a date, as in a timestamp: `+07:00`, or `Z` for none. */
  zoneOffset(date: string): string;
}

/** A wall-clock reading: the calendar date and the time of day (24 h). */
export interface WallTime {
  date: string;
  hour: number;
  minute: number;
  second: number;
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
  const wall = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  let fixed: Date | null = null;
  const now = () => (fixed ? new Date(fixed.getTime()) : new Date());
  // The date of the last second asked about: every request asks for today, and formatting costs
  // more than the rest of a public check's own work. Exact: every zone's offset is whole seconds, so
  // two instants within one second of UTC fall on one calendar date.
  let lastSecond = Number.NaN;
  let lastDate = '';
  const today = (at?: Date) => {
    const instant = at ?? now();
    const second = Math.floor(instant.getTime() / 1000);
    if (second !== lastSecond) {
      lastDate = format.format(instant);
      lastSecond = second;
    }
    return lastDate;
  };
  const wallTime = (at?: Date): WallTime => {
    const p = Object.fromEntries(wall.formatToParts(at ?? now()).map((x) => [x.type, x.value]));
    const date = `${p.year!.padStart(4, '0')}-${p.month!.padStart(2, '0')}-${p.day!.padStart(2, '0')}`;
    return { date, hour: Number(p.hour), minute: Number(p.minute), second: Number(p.second) };
  };
  // The zone's offset from UTC by date, read at noon UTC: enough for office hours (a DST jump may
  // shift an early-morning instant by an hour), and read once per date (the demo asks thousands).
  const offsets = new Map<string, number>();
  const offsetOn = (date: string): number => {
    let offset = offsets.get(date);
    if (offset === undefined) {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      const noon = Date.UTC(y, m - 1, d, 12);
      const w = wallTime(new Date(noon));
      const [wy, wm, wd] = w.date.split('-').map(Number) as [number, number, number];
      offset = Date.UTC(wy, wm - 1, wd, w.hour, w.minute, w.second) - noon;
      offsets.set(date, offset);
    }
    return offset;
  };
  return {
    timeZone,
    now,
    today,
    calendar() {
      const day = today();
      const monthStart = `${day.slice(0, 7)}-01`;
      return { today: day, monthStart, monthEnd: addDays(addMonths(monthStart, 1), -1) };
    },
    wallTime,
    instantAt(date, hour, minute) {
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      return new Date(Date.UTC(y, m - 1, d, hour, minute) - offsetOn(date));
    },
    zoneOffset(date) {
      const minutes = Math.round(offsetOn(date) / 60_000);
      if (minutes === 0) return 'Z';
      const abs = Math.abs(minutes);
      const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      return `${minutes < 0 ? '-' : '+'}${hhmm}`;
    },
    set(instant) {
      fixed = instant ? new Date(instant.getTime()) : null;
    },
  };
}
