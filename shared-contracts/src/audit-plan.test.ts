import {
  initialAuditDays,
  MD5_QMS_BANDS,
  type RuleAuditor,
  type RuleInput,
  suggestedAuditDays,
  teamProblems,
} from './audit-plan';
import { auditorInputSchema, plannedAuditInputSchema } from './audit-plan-wire';

const TYPE = 'type-iso-9001';
const CLIENT = 'client-1';

const auditor = (id: string, over: Partial<RuleAuditor> = {}): RuleAuditor => ({
  id,
  name: `Auditor ${id}`,
  active: true,
  qualifications: [
    {
      certification_id: TYPE,
      role: 'LEAD_AUDITOR',
      sector_codes: [28],
      valid_from: '2020-01-01',
      valid_until: null,
    },
  ],
  conflicts: [],
  ...over,
});

/** An audit 2026-03-10..12 with lead `a`, for scheme in sector 28, no other audits, 3 days suggested. */
const input = (over: Partial<RuleInput> = {}, plan: Partial<RuleInput['plan']> = {}): RuleInput => ({
  plan: {
    start_date: '2026-03-10',
    end_date: '2026-03-12',
    audit_days: 3,
    days_reason: null,
    team: [{ auditor_id: 'a', role: 'LEAD_AUDITOR' }],
    ...plan,
  },
  scheme: { certification_id: TYPE, client_id: CLIENT, sector_codes: [28] },
  auditors: new Map([['a', auditor('a')]]),
  others: [],
  suggested: 3,
  ...over,
});

describe('audit days (IAF MD 5:2019 Table QMS 1)', () => {
  it('reads the band an employee count falls in, at both edges of a band', () => {
    expect(initialAuditDays(1)).toBe(1.5);
    expect(initialAuditDays(5)).toBe(1.5);
    expect(initialAuditDays(6)).toBe(2);
    expect(initialAuditDays(45)).toBe(4);
    expect(initialAuditDays(46)).toBe(5);
    expect(initialAuditDays(10_700)).toBe(22);
    expect(initialAuditDays(0)).toBe(1.5);
  });

  it('has no suggestion beyond the table (the document asks to follow the progression)', () => {
    expect(initialAuditDays(10_701)).toBeNull();
    expect(MD5_QMS_BANDS).toHaveLength(23);
  });

  it('suggests a third for surveillance and two thirds for recertification, to the nearest half day (IAF MD 5)', () => {
    expect(suggestedAuditDays('SURVEILLANCE', 1.5)).toBe(0.5);
    expect(suggestedAuditDays('RECERTIFICATION', 1.5)).toBe(1);
    expect(suggestedAuditDays('SURVEILLANCE', 2)).toBe(0.5); // 0.67 -> 0.5
    expect(suggestedAuditDays('RECERTIFICATION', 2)).toBe(1.5); // 1.33 -> 1.5
    expect(suggestedAuditDays('SURVEILLANCE', 3)).toBe(1);
    expect(suggestedAuditDays('RECERTIFICATION', 3)).toBe(2);
    expect(suggestedAuditDays('SURVEILLANCE', 4)).toBe(1.5); // 1.33 -> 1.5
    expect(suggestedAuditDays('RECERTIFICATION', 4)).toBe(2.5); // 2.67 -> 2.5
    expect(suggestedAuditDays('SURVEILLANCE', 5)).toBe(1.5); // 1.67 -> 1.5
    expect(suggestedAuditDays('RECERTIFICATION', 5)).toBe(3.5); // 3.33 -> 3.5
    expect(suggestedAuditDays('SURVEILLANCE', 22)).toBe(7.5); // 7.33 -> 7.5
    expect(suggestedAuditDays('RECERTIFICATION', 22)).toBe(14.5); // 14.67 -> 14.5
    // A company's own table may start at half a day: never below half a day.
    expect(suggestedAuditDays('SURVEILLANCE', 0.5)).toBe(0.5); // 0.17 -> 0 -> 0.5
    expect(suggestedAuditDays('STAGE2', 4)).toBe(4);
    expect(suggestedAuditDays('STAGE1', 4)).toBeNull();
    expect(suggestedAuditDays('SPECIAL', 4)).toBeNull();
    expect(suggestedAuditDays('SURVEILLANCE', null)).toBeNull();
  });
});

describe('team rules', () => {
  it('accepts a qualified lead auditor alone', () => {
    expect(teamProblems(input())).toEqual({});
  });

  it('refuses an end before the start, and takes a one-day audit', () => {
    expect(teamProblems(input({}, { end_date: '2026-03-09' }))).toMatchObject({
      end_date: expect.any(String),
    });
    expect(teamProblems(input({}, { end_date: '2026-03-10' }))).toEqual({});
  });

  it('wants exactly one lead auditor', () => {
    const b = auditor('b');
    const auditors = new Map([
      ['a', auditor('a')],
      ['b', b],
    ]);
    const two = input(
      { auditors },
      {
        team: [
          { auditor_id: 'a', role: 'LEAD_AUDITOR' },
          { auditor_id: 'b', role: 'LEAD_AUDITOR' },
        ],
      },
    );
    expect(teamProblems(two).team).toMatch(/tepat satu Lead Auditor/);
    const none = input({}, { team: [{ auditor_id: 'a', role: 'AUDITOR' }] });
    expect(teamProblems(none).team).toMatch(/tepat satu Lead Auditor/);
  });

  it('lets a lead auditor act as auditor, not an auditor as lead', () => {
    const auditors = new Map([
      ['a', auditor('a')],
      ['b', auditor('b')],
    ]);
    const ok = input(
      { auditors },
      {
        team: [
          { auditor_id: 'a', role: 'LEAD_AUDITOR' },
          { auditor_id: 'b', role: 'AUDITOR' },
        ],
      },
    );
    expect(teamProblems(ok)).toEqual({});
    const plain = auditor('a', {
      qualifications: [{ ...auditor('a').qualifications[0]!, role: 'AUDITOR' }],
    });
    expect(teamProblems(input({ auditors: new Map([['a', plain]]) }))['team[0].auditor_id']).toMatch(
      /Lead Auditor/,
    );
  });

  it('wants the qualification valid on every day: ending the day before the last day is refused', () => {
    const q = auditor('a').qualifications[0]!;
    const at = (valid_from: string, valid_until: string | null) =>
      teamProblems(
        input({
          auditors: new Map([['a', auditor('a', { qualifications: [{ ...q, valid_from, valid_until }] })]]),
        }),
      );
    expect(at('2020-01-01', '2026-03-11')['team[0].auditor_id']).toMatch(/kualifikasi/);
    expect(at('2020-01-01', '2026-03-12')).toEqual({});
    expect(at('2026-03-10', null)).toEqual({});
    expect(at('2026-03-11', null)['team[0].auditor_id']).toMatch(/kualifikasi/);
  });

  it('wants the qualification for the scheme’s certification type', () => {
    const q = { ...auditor('a').qualifications[0]!, certification_id: 'other-type' };
    const res = teamProblems(input({ auditors: new Map([['a', auditor('a', { qualifications: [q] })]]) }));
    expect(res['team[0].auditor_id']).toMatch(/kualifikasi/);
  });

  it('wants every sector code of the scheme covered by some member (a technical expert counts, a trainee not)', () => {
    const scheme = { certification_id: TYPE, client_id: CLIENT, sector_codes: [28, 34] };
    expect(teamProblems(input({ scheme })).team).toMatch(/34/);
    const expert = auditor('e', {
      qualifications: [
        {
          certification_id: TYPE,
          role: 'TECHNICAL_EXPERT',
          sector_codes: [34],
          valid_from: '2020-01-01',
          valid_until: null,
        },
      ],
    });
    const auditors = new Map([
      ['a', auditor('a')],
      ['e', expert],
    ]);
    const withExpert = {
      team: [
        { auditor_id: 'a', role: 'LEAD_AUDITOR' as const },
        { auditor_id: 'e', role: 'TECHNICAL_EXPERT' as const },
      ],
    };
    expect(teamProblems(input({ scheme, auditors }, withExpert))).toEqual({});
    const asTrainee = {
      team: [
        { auditor_id: 'a', role: 'LEAD_AUDITOR' as const },
        { auditor_id: 'e', role: 'TRAINEE' as const },
      ],
    };
    expect(teamProblems(input({ scheme, auditors }, asTrainee)).team).toMatch(/34/);
  });

  it('refuses an inactive, unknown or repeated member', () => {
    expect(
      teamProblems(input({ auditors: new Map([['a', auditor('a', { active: false })]]) }))[
        'team[0].auditor_id'
      ],
    ).toMatch(/tidak aktif/);
    expect(teamProblems(input({ auditors: new Map() }))['team[0].auditor_id']).toMatch(/tidak ditemukan/);
    const twice = input(
      {},
      {
        team: [
          { auditor_id: 'a', role: 'LEAD_AUDITOR' },
          { auditor_id: 'a', role: 'TRAINEE' },
        ],
      },
    );
    expect(teamProblems(twice)['team[1].auditor_id']).toMatch(/sudah ada/);
  });

  it('refuses a conflict current on the audit’s dates: ending the day before the start is fine, on it is not', () => {
    const at = (until: string | null) =>
      teamProblems(
        input({
          auditors: new Map([
            ['a', auditor('a', { conflicts: [{ client_id: CLIENT, reason: 'Konsultan', until }] })],
          ]),
        }),
      );
    expect(at('2026-03-09')).toEqual({});
    expect(at('2026-03-10')['team[0].auditor_id']).toMatch(/konflik kepentingan.*Konsultan/);
    expect(at(null)['team[0].auditor_id']).toMatch(/konflik/);
    const elsewhere = auditor('a', { conflicts: [{ client_id: 'client-2', reason: 'X', until: null }] });
    expect(teamProblems(input({ auditors: new Map([['a', elsewhere]]) }))).toEqual({});
  });

  it('refuses overlapping planned audits, naming the other; back-to-back audits are fine', () => {
    const other = (start_date: string, end_date: string, auditor_ids = ['a']) => ({
      others: [{ label: 'Surveilan PT Lain', start_date, end_date, auditor_ids }],
    });
    expect(teamProblems(input(other('2026-03-07', '2026-03-09')))).toEqual({});
    expect(teamProblems(input(other('2026-03-13', '2026-03-14')))).toEqual({});
    expect(teamProblems(input(other('2026-03-07', '2026-03-10')))['team[0].auditor_id']).toMatch(
      /Bentrok jadwal.*Surveilan PT Lain/,
    );
    expect(teamProblems(input(other('2026-03-12', '2026-03-20')))['team[0].auditor_id']).toMatch(
      /Bentrok jadwal/,
    );
    expect(teamProblems(input(other('2026-03-11', '2026-03-11')))['team[0].auditor_id']).toMatch(
      /Bentrok jadwal/,
    );
    expect(teamProblems(input(other('2026-03-10', '2026-03-12', ['b'])))).toEqual({});
  });

  it('refuses days below the suggestion without a reason, at the edge', () => {
    expect(teamProblems(input({}, { audit_days: 2.5 })).audit_days).toMatch(/di bawah saran \(3 hari\)/);
    expect(teamProblems(input({}, { audit_days: 2.5, days_reason: '  ' })).audit_days).toBeDefined();
    expect(teamProblems(input({}, { audit_days: 2.5, days_reason: 'Lingkup kecil' }))).toEqual({});
    expect(teamProblems(input({}, { audit_days: 3 }))).toEqual({});
    expect(teamProblems(input({ suggested: null }, { audit_days: 0.5 }))).toEqual({});
  });
});

describe('wire shapes', () => {
  it('takes audit days in half days only', () => {
    const base = {
      scheme_id: '3f2a1c4e-0000-4000-8000-000000000001',
      kind: 'SURVEILLANCE',
      start_date: '2026-03-10',
      end_date: '2026-03-10',
      team: [{ auditor_id: '3f2a1c4e-0000-4000-8000-000000000002', role: 'LEAD_AUDITOR' }],
    };
    expect(plannedAuditInputSchema.isValidSync({ ...base, audit_days: 1.5 })).toBe(true);
    expect(() => plannedAuditInputSchema.validateSync({ ...base, audit_days: 1.25 })).toThrow(
      /kelipatan 0,5/,
    );
    expect(() => plannedAuditInputSchema.validateSync({ ...base, audit_days: 1, team: [] })).toThrow(
      /Tim audit/,
    );
  });

  it('refuses a sector code outside 1-39 and a qualification ending before it starts', () => {
    const base = { company_id: '3f2a1c4e-0000-4000-8000-000000000001', name: 'Budi', employment: 'INTERNAL' };
    const q = {
      certification_id: '3f2a1c4e-0000-4000-8000-000000000002',
      role: 'AUDITOR',
      valid_from: '2026-01-01',
    };
    expect(
      auditorInputSchema.validateSync({ ...base, qualifications: [{ ...q, sector_codes: [39] }] }).active,
    ).toBe('true');
    expect(() =>
      auditorInputSchema.validateSync({ ...base, qualifications: [{ ...q, sector_codes: [40] }] }),
    ).toThrow();
    expect(() =>
      auditorInputSchema.validateSync({ ...base, qualifications: [{ ...q, valid_until: '2025-12-31' }] }),
    ).toThrow(/Berlaku Sampai/);
  });
});
