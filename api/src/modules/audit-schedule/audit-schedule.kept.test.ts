/**
 * 'Jadwal Audit' and its dashboard card kept between writes (services/list-cache.ts `answer`): each
 * answer is asked twice (the second the kept one), then a write of each kind of record it shows,
 * and the next ask must show it; a day passing shows the next day's figures. A kind missing from the
 * route's list would leave the old name, date or count in its answer.
 */
import type { AuditDueSummary, AuditScheduleRow, Auditor, ListResponse } from '@sertifikasi/shared-contracts';
import { ADMIN_PASSWORD, call, login, useTestContext } from '../../../test/helpers';
import {
  auditorBody,
  certificationTypeBody,
  clientBody,
  plannedAuditBody,
  schemeBody,
} from '../../../test/forms';

/** 10:00 in Jakarta on 1 March 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-03-01T03:00:00Z') });
let company: string;
let type: string;
let client: string;
let scheme: string;

/** Issued on 1 February 2025 for three years: its first surveillance was due on 1 February 2026. */
const issued = (certNumber: string) =>
  schemeBody(client, type, { cert_number: certNumber, issue_date: '2025-02-01' });

beforeAll(async () => {
  company = await ctx.make.company('PT Jadwal Simpan');
  type = await ctx.make.certificationType(company, 'ISO 9001');
  client = await ctx.make.client(company, 'PT Klien Jadwal');
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company-certificate-scheme', issued('JDW/1'));
  expect(res.statusCode).toBe(201);
  scheme = res.json<{ id: string }>().id;
});

const ok = async (method: 'POST' | 'PUT', url: string, body: Record<string, unknown>) => {
  const res = await call(ctx.app, ctx.adminToken, method, url, body);
  expect([url, res.statusCode]).toEqual([url, method === 'POST' ? 201 : 200]);
  return res;
};

/** What the schedule shows of the scheme and what the card counts (each asked twice). */
async function shown(token = ctx.adminToken) {
  const twice = async <T>(url: string) => {
    const ask = async () => {
      const res = await call(ctx.app, token, 'GET', url);
      expect(res.statusCode).toBe(200);
      return res.json<T>();
    };
    const first = await ask();
    expect(await ask()).toEqual(first);
    return first;
  };
  const page = await twice<ListResponse<AuditScheduleRow>>(`/api/audit-schedule/${company}?window=all`);
  const row = page.data.find((r) => r.scheme_id === scheme);
  return {
    row: row && {
      names: [row.company_name, row.client_name, row.cert_name, row.cert_number].join(' | '),
      due: `${row.kind} ${row.due_date} ${row.days_left}`,
      lead: row.planned_audit?.lead ?? null,
    },
    card: await twice<AuditDueSummary>(`/api/audit-schedule/${company}/summary`),
  };
}

describe("kept 'Jadwal Audit' answers", () => {
  it('show each write of a kind they show at the next ask, and the next day’s figures', async () => {
    expect(await shown()).toEqual({
      row: {
        names: 'PT Jadwal Simpan | PT Klien Jadwal | ISO 9001 | JDW/1',
        due: 'SURVEILLANCE 2026-02-01 -28',
        lead: null,
      },
      card: { late: 1, soon: 0 },
    });

    await ok('PUT', `/api/company/${company}`, {
      name: 'PT Jadwal Simpan Baru',
      website: 'https://jadwal.co.id',
    });
    expect((await shown()).row?.names).toBe('PT Jadwal Simpan Baru | PT Klien Jadwal | ISO 9001 | JDW/1');
    await ok('PUT', `/api/company-certificate/${client}`, clientBody(company, 'PT Klien Jadwal Baru'));
    expect((await shown()).row?.names).toBe(
      'PT Jadwal Simpan Baru | PT Klien Jadwal Baru | ISO 9001 | JDW/1',
    );
    await ok('PUT', `/api/certification/${type}`, certificationTypeBody(company, 'ISO 9001:2015'));
    expect((await shown()).row?.names).toBe(
      'PT Jadwal Simpan Baru | PT Klien Jadwal Baru | ISO 9001:2015 | JDW/1',
    );
    await ok('PUT', `/api/company-certificate-scheme/${scheme}`, issued('JDW/2'));
    expect((await shown()).row?.names).toBe(
      'PT Jadwal Simpan Baru | PT Klien Jadwal Baru | ISO 9001:2015 | JDW/2',
    );

    // Planned, with a lead; the lead renamed.
    const lead = (
      await ok('POST', '/api/auditor', auditorBody(company, type, 'Lina Jadwal'))
    ).json<Auditor>();
    expect((await shown()).row?.lead).toBeNull();
    await ok('POST', '/api/planned-audit', plannedAuditBody(scheme, lead.id, '2026-03-10', '2026-03-11'));
    expect((await shown()).row?.lead).toBe('Lina Jadwal');
    await ok('PUT', `/api/auditor/${lead.id}`, auditorBody(company, type, 'Lina Jadwal Baru'));
    expect((await shown()).row?.lead).toBe('Lina Jadwal Baru');

    // The surveillance recorded as done: the next one is due in a year, nothing late.
    await ok('POST', `/api/company-certificate-scheme/${scheme}/audits`, {
      kind: 'SURVEILLANCE',
      date: '2026-02-20',
    });
    let now = await shown();
    expect(now.row?.due).toBe('SURVEILLANCE 2027-02-20 356');
    expect(now.card).toEqual({ late: 0, soon: 0 });

    // Days pass with nothing written: within 30 days of it, then past it.
    ctx.clock.set(new Date('2027-01-25T03:00:00Z'));
    try {
      const token = await login(ctx.app, 'admin', ADMIN_PASSWORD);
      now = await shown(token);
      expect([now.row?.due, now.card]).toEqual(['SURVEILLANCE 2027-02-20 26', { late: 0, soon: 1 }]);
      ctx.clock.set(new Date('2027-02-22T03:00:00Z'));
      now = await shown(await login(ctx.app, 'admin', ADMIN_PASSWORD));
      expect([now.row?.due, now.card]).toEqual(['SURVEILLANCE 2027-02-20 -2', { late: 1, soon: 0 }]);
    } finally {
      ctx.clock.set(null);
    }
  });
});
