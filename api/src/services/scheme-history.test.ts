import { createClock } from '../lib/clock';
import { deriveStatusHistory, type SchemeAuditRow, statusOn } from './scheme-history';

const TZ = createClock('Asia/Jakarta');
const row = (over: Partial<SchemeAuditRow> & Pick<SchemeAuditRow, 'action' | 'at'>): SchemeAuditRow => ({
  by: 'admin',
  beforeStatus: null,
  afterStatus: null,
  afterIssueDate: null,
  ...over,
});

describe('deriveStatusHistory', () => {
  it('starts with the creation, effective from its issue date, and adds one entry per change of status', () => {
    const history = deriveStatusHistory(
      [
        row({
          action: 'create',
          at: new Date('2024-03-01T02:00:00Z'),
          afterStatus: 'DRAFT',
          afterIssueDate: '2024-01-15',
        }),
        // An edit that leaves the status alone is no change.
        row({
          action: 'update',
          at: new Date('2024-03-02T02:00:00Z'),
          beforeStatus: 'DRAFT',
          afterStatus: 'DRAFT',
        }),
        // 20:00 UTC on 4 March is 5 March in Jakarta: the change holds from the 5th.
        row({
          action: 'update',
          at: new Date('2024-03-04T20:00:00Z'),
          beforeStatus: 'DRAFT',
          afterStatus: 'ACTIVE',
          by: 'siti',
        }),
        row({ action: 'delete', at: new Date('2024-04-01T00:00:00Z'), beforeStatus: 'ACTIVE' }),
      ],
      TZ,
    );
    expect(history).toEqual([
      { from: null, to: 'DRAFT', at: '2024-03-01T02:00:00.000Z', effective_from: '2024-01-15', by: 'admin' },
      {
        from: 'DRAFT',
        to: 'ACTIVE',
        at: '2024-03-04T20:00:00.000Z',
        effective_from: '2024-03-05',
        by: 'siti',
      },
    ]);
  });

  it('gives a scheme without an audit trail its current status since its issue date', () => {
    const now = { status: 'ACTIVE', issue_date: '2023-05-31', created_at: new Date('2023-06-01T00:00:00Z') };
    expect(deriveStatusHistory([], TZ, now)).toEqual([
      { from: null, to: 'ACTIVE', at: '2023-06-01T00:00:00.000Z', effective_from: '2023-05-31', by: null },
    ]);
    // Imported, then edited: the status it was imported with held from its issue date.
    const edited = deriveStatusHistory(
      [
        row({
          action: 'update',
          at: new Date('2024-01-10T03:00:00Z'),
          beforeStatus: 'ACTIVE',
          afterStatus: 'SUSPENDED',
        }),
      ],
      TZ,
      { ...now, status: 'SUSPENDED' },
    );
    expect(edited.map((e) => [e.from, e.to, e.effective_from])).toEqual([
      [null, 'ACTIVE', '2023-05-31'],
      ['ACTIVE', 'SUSPENDED', '2024-01-10'],
    ]);
    expect(deriveStatusHistory([], TZ, null)).toEqual([]);
  });
});

describe('statusOn', () => {
  const history = deriveStatusHistory(
    [
      row({
        action: 'create',
        at: new Date('2024-03-01T02:00:00Z'),
        afterStatus: 'ACTIVE',
        afterIssueDate: '2024-01-15',
      }),
      row({
        action: 'update',
        at: new Date('2024-06-10T02:00:00Z'),
        beforeStatus: 'ACTIVE',
        afterStatus: 'SUSPENDED',
      }),
    ],
    TZ,
  );
  it('is the status in effect on a day, the day of a change included', () => {
    expect(statusOn(history, '2024-01-14')).toBeNull();
    expect(statusOn(history, '2024-01-15')).toBe('ACTIVE');
    expect(statusOn(history, '2024-06-09')).toBe('ACTIVE');
    expect(statusOn(history, '2024-06-10')).toBe('SUSPENDED');
  });
});
