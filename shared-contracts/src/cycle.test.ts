import {
  auditScheduleQuerySchema,
  cycleDue,
  type CycleScheme,
  cycleState,
  daysLeft,
  todayOfItem,
  isCycleListed,
  schemeAuditInputSchema,
  suspendedSince,
  windowEnd,
} from './cycle';

/** An ACTIVE three-year certificate issued 2024-03-15 (expires 2027-03-15). */
const scheme = (over: Partial<CycleScheme> = {}): CycleScheme => ({
  status: 'ACTIVE',
  issue_date: '2024-03-15',
  decision_date: null,
  expired_date: '2027-03-15',
  ...over,
});

describe('what is due next', () => {
  it('the first surveillance is due 12 months after the decision date', () => {
    expect(cycleDue(scheme({ decision_date: '2024-03-01' }), [], [])).toEqual({
      kind: 'SURVEILLANCE',
      due_date: '2025-03-01',
    });
  });

  it('without a decision date, 12 months after the issue date', () => {
    expect(cycleDue(scheme(), [], [])).toEqual({ kind: 'SURVEILLANCE', due_date: '2025-03-15' });
  });

  it('12 months after the last surveillance or recertification audit; special audits do not count', () => {
    const audits = [
      { kind: 'SURVEILLANCE', date: '2025-02-20' },
      { kind: 'SPECIAL', date: '2025-06-01' },
    ];
    expect(cycleDue(scheme({ decision_date: '2024-03-01' }), audits, [])).toEqual({
      kind: 'SURVEILLANCE',
      due_date: '2026-02-20',
    });
    // Order of the list does not matter: the latest date wins.
    const more = [{ kind: 'RECERTIFICATION', date: '2025-04-30' }, ...audits];
    expect(cycleDue(scheme(), more, [])?.due_date).toBe('2026-04-30');
  });

  it('a month after the 29th of February keeps to the calendar', () => {
    expect(cycleDue(scheme({ decision_date: '2024-02-29' }), [], [])?.due_date).toBe('2025-02-28');
  });

  it('switches to the recertification, due on the expiry, when the surveillance falls within 90 days of it', () => {
    const expiry = '2027-03-15';
    // 90 days before the expiry is 2026-12-15: a surveillance due that day gives way.
    const atEdge = [{ kind: 'SURVEILLANCE', date: '2025-12-15' }];
    expect(cycleDue(scheme({ expired_date: expiry }), atEdge, [])).toEqual({
      kind: 'RECERTIFICATION',
      due_date: expiry,
    });
    // One day earlier it is still a surveillance.
    const dayBefore = [{ kind: 'SURVEILLANCE', date: '2025-12-14' }];
    expect(cycleDue(scheme({ expired_date: expiry }), dayBefore, [])).toEqual({
      kind: 'SURVEILLANCE',
      due_date: '2026-12-14',
    });
    // A surveillance that would fall after the expiry is the recertification too.
    expect(cycleDue(scheme({ issue_date: '2026-08-01', expired_date: '2027-03-01' }), [], [])).toEqual({
      kind: 'RECERTIFICATION',
      due_date: '2027-03-01',
    });
  });

  it('a SUSPENDED scheme has its suspension limit, six months after it became SUSPENDED', () => {
    const history = [
      { to: 'ACTIVE', effective_from: '2024-03-15' },
      { to: 'SUSPENDED', effective_from: '2025-08-31' },
    ];
    expect(cycleDue(scheme({ status: 'SUSPENDED' }), [], history)).toEqual({
      kind: 'SUSPENSION_LIMIT',
      due_date: '2026-02-28',
    });
  });

  it('the suspension counts from the start of the last stretch of SUSPENDED', () => {
    const history = [
      { to: 'SUSPENDED', effective_from: '2024-05-01' },
      { to: 'ACTIVE', effective_from: '2024-06-01' },
      { to: 'SUSPENDED', effective_from: '2025-01-10' },
    ];
    expect(suspendedSince(history, '2024-03-15')).toBe('2025-01-10');
    // Without a history, the issue date.
    expect(suspendedSince([], '2024-03-15')).toBe('2024-03-15');
  });

  it('other statuses have nothing due', () => {
    for (const status of ['DRAFT', 'WITHDRAWN', 'NOACTIVE']) {
      expect(cycleDue(scheme({ status }), [], [])).toBeNull();
    }
  });
});

describe('state on a day (the clock moved)', () => {
  it('an item due today is Segera; the next morning it is Terlambat', () => {
    expect(cycleState('2025-03-15', '2025-03-15')).toBe('SOON');
    expect(daysLeft('2025-03-15', '2025-03-15')).toBe(0);
    expect(cycleState('2025-03-15', '2025-03-16')).toBe('LATE');
    expect(daysLeft('2025-03-15', '2025-03-16')).toBe(-1);
  });

  it("an answered item tells the day it was counted on, across a month's end", () => {
    expect(todayOfItem({ due_date: '2025-03-15', days_left: -1 })).toBe('2025-03-16');
    expect(todayOfItem({ due_date: '2025-03-02', days_left: 30 })).toBe('2025-01-31');
  });

  it('Segera within 30 days, Mendatang within 90, later beyond', () => {
    const today = '2025-01-01';
    expect(cycleState('2025-01-31', today)).toBe('SOON');
    expect(cycleState('2025-02-01', today)).toBe('UPCOMING');
    expect(cycleState('2025-04-01', today)).toBe('UPCOMING');
    expect(cycleState('2025-04-02', today)).toBe('LATER');
    expect(daysLeft('2025-04-02', today)).toBe(91);
  });

  it('an ACTIVE scheme is listed until its expiry day; SUSPENDED always; others never', () => {
    expect(isCycleListed('ACTIVE', '2025-03-15', '2025-03-15')).toBe(true);
    expect(isCycleListed('ACTIVE', '2025-03-15', '2025-03-16')).toBe(false);
    expect(isCycleListed('SUSPENDED', '2025-03-15', '2025-12-01')).toBe(true);
    expect(isCycleListed('DRAFT', '2030-01-01', '2025-12-01')).toBe(false);
  });

  it('the windows: late before today; 30 and 90 days through a date; all unbounded', () => {
    expect(windowEnd('late', '2025-01-01')).toEqual({ before: '2025-01-01' });
    expect(windowEnd('30', '2025-01-01')).toEqual({ through: '2025-01-31' });
    expect(windowEnd('90', '2025-01-01')).toEqual({ through: '2025-04-01' });
    expect(windowEnd('all', '2025-01-01')).toEqual({});
  });
});

describe('wire shapes', () => {
  it('an audit needs a known kind and a real date; notes are optional', () => {
    expect(schemeAuditInputSchema.validateSync({ kind: 'SURVEILLANCE', date: '2025-02-01' })).toMatchObject({
      kind: 'SURVEILLANCE',
      date: '2025-02-01',
    });
    expect(() => schemeAuditInputSchema.validateSync({ kind: 'OTHER', date: '2025-02-01' })).toThrow();
    expect(() => schemeAuditInputSchema.validateSync({ kind: 'SPECIAL', date: '2025-02-30' })).toThrow();
  });

  it('the schedule query takes a window and a list of types; unknown parameters are refused', () => {
    const id = '0b8f5a52-8b9c-4b8e-9f3a-2a1d8d5c7e11';
    expect(auditScheduleQuerySchema.validateSync({ window: '30', certification: id })).toMatchObject({
      window: '30',
      certification: [id],
      type: 'table',
      page: 1,
    });
    expect(() => auditScheduleQuerySchema.validateSync({ window: '7' })).toThrow();
    expect(() =>
      auditScheduleQuerySchema.validateSync({ status: 'ACTIVE' }, { stripUnknown: false }),
    ).toThrow();
  });
});
