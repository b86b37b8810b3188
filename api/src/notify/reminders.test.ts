/** Which reminder steps are due on a day: at the edges of each step's window. */
import { addDays } from '@sertifikasi/shared-contracts';
import { dedupeKey } from './mail';
import { type DueItem, LATE_WINDOW_DAYS, reminderStepOf, reminderSteps } from './reminders';

const item = (kind: DueItem['kind'], due: string): DueItem => ({
  kind,
  due,
  schemeId: 'skema-1',
  clientId: 'klien-1',
  companyId: 'lsp-1',
});
const stepOn = (i: DueItem, today: string) => reminderStepOf(i, today)?.step ?? null;

describe('an audit due on 2026-06-30', () => {
  const audit = item('SURVEILLANCE', '2026-06-30');
  it.each([
    [91, null],
    [90, '90'],
    [31, '90'],
    [30, '30'],
    [8, '30'],
    [7, '7'],
    [1, '7'],
    [0, null],
    [-1, 'late'],
    [-LATE_WINDOW_DAYS, 'late'],
    [-LATE_WINDOW_DAYS - 1, null],
  ])('%i days before: %s', (daysBefore, step) => {
    expect(stepOn(audit, addDays(audit.due, -daysBefore))).toBe(step);
  });

  it('keys each step apart, and one step the same on every day of its window', () => {
    const first = reminderStepOf(audit, '2026-04-01')!;
    const later = reminderStepOf(audit, '2026-05-30')!;
    expect(first.dedupe).toEqual(later.dedupe);
    expect(first).toMatchObject({
      step: '90',
      sendOn: '2026-04-01',
      daysLeft: 90,
      mailKind: 'audit-reminder',
    });
    expect(later.daysLeft).toBe(31);
    const keys = ['2026-04-01', '2026-06-01', '2026-06-23', '2026-07-01'].map((d) =>
      dedupeKey(reminderStepOf(audit, d)!.dedupe),
    );
    expect(new Set(keys).size).toBe(4);
    // A new due date (after the audit was recorded) starts its own steps.
    expect(dedupeKey(reminderStepOf(item('SURVEILLANCE', '2027-06-30'), '2027-04-01')!.dedupe)).not.toBe(
      keys[0],
    );
  });
});

describe('an expiry on 2026-02-28 (across a short month)', () => {
  const expiry = item('EXPIRY', '2026-02-28');
  it.each([
    ['2025-11-29', null],
    ['2025-11-30', '90'],
    ['2025-12-29', '90'],
    ['2025-12-30', '60'],
    ['2026-01-28', '60'],
    ['2026-01-29', '30'],
    ['2026-02-27', '30'],
    ['2026-02-28', null],
    ['2026-03-01', null],
  ])('on %s: %s', (today, step) => {
    expect(stepOn(expiry, today)).toBe(step);
  });

  it('is an expiry reminder, apart from the recertification due the same day', () => {
    const expiryStep = reminderStepOf(expiry, '2026-02-01')!;
    const recert = reminderStepOf(item('RECERTIFICATION', '2026-02-28'), '2026-02-01')!;
    expect(expiryStep.mailKind).toBe('expiry-reminder');
    expect(recert.mailKind).toBe('audit-reminder');
    expect(dedupeKey(expiryStep.dedupe)).not.toBe(dedupeKey(recert.dedupe));
  });
});

it('answers the items with a step due today, one step each', () => {
  const items = [
    item('SURVEILLANCE', '2026-03-08'),
    item('SUSPENSION_LIMIT', '2026-03-01'),
    item('EXPIRY', '2027-01-01'),
    item('RECERTIFICATION', '2026-02-27'),
  ];
  expect(reminderSteps(items, '2026-03-01').map((s) => [s.item.kind, s.step, s.daysLeft])).toEqual([
    ['SURVEILLANCE', '7', 7],
    ['RECERTIFICATION', 'late', -2],
  ]);
});
