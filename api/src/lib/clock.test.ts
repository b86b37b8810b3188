import { createClock } from './clock';

describe('createClock', () => {
  it('tells today, its month and the wall time in its own time zone', () => {
    const jakarta = createClock('Asia/Jakarta');
    const utc = createClock('UTC');
    const instant = new Date('2026-02-28T17:30:00Z'); // 00:30 on 1 March in Jakarta
    jakarta.set(instant);
    utc.set(instant);
    expect(jakarta.today()).toBe('2026-03-01');
    expect(utc.today()).toBe('2026-02-28');
    expect(jakarta.calendar()).toEqual({
      today: '2026-03-01',
      monthStart: '2026-03-01',
      monthEnd: '2026-03-31',
    });
    expect(utc.calendar()).toEqual({ today: '2026-02-28', monthStart: '2026-02-01', monthEnd: '2026-02-28' });
    expect(jakarta.wallTime()).toEqual({ date: '2026-03-01', hour: 0, minute: 30, second: 0 });
    expect(jakarta.today(new Date('2026-02-28T16:59:59Z'))).toBe('2026-02-28');
  });

  it('finds the instant a wall clock shows, across a change to summer time', () => {
    expect(createClock('Asia/Jakarta').instantAt('2026-03-17', 8, 30).toISOString()).toBe(
      '2026-03-17T01:30:00.000Z',
    );
    const berlin = createClock('Europe/Berlin');
    expect(berlin.instantAt('2026-03-28', 9, 0).toISOString()).toBe('2026-03-28T08:00:00.000Z');
    expect(berlin.instantAt('2026-03-30', 9, 0).toISOString()).toBe('2026-03-30T07:00:00.000Z');
  });

  it('stays where it is set, apart from other clocks, and returns to the system time', () => {
    const a = createClock('UTC');
    const b = createClock('UTC');
    a.set(new Date('2020-01-01T00:00:00Z'));
    const now = a.now();
    now.setFullYear(1999); // the answer is a copy: changing it does not move the clock
    expect(a.now().toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(Math.abs(b.now().getTime() - Date.now())).toBeLessThan(5_000);
    a.set(null);
    expect(Math.abs(a.now().getTime() - Date.now())).toBeLessThan(5_000);
  });
});
