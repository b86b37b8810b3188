/**
 * The dashboard's answers kept between writes (services/list-cache.ts `answer`): the totals and both
 * charts are asked (so the app keeps them), then a write of each kind of record they show, through
 * the API, and the next ask must show it; a day passing shows the next day's figures. A kind missing
 * from a route's list would leave the old figure or name in its answer.
 */
import type { DashboardTotals } from '@sertifikasi/shared-contracts';
import { ADMIN_PASSWORD, call, login, useTestContext } from '../../../test/helpers';
import { certificationTypeBody, clientBody, schemeBody } from '../../../test/forms';

/** 10:00 in Jakarta on 10 April 2026. */
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: new Date('2026-04-10T03:00:00Z') });
let company: string;
let type: string;
let client: string;
let scheme: string;

beforeAll(async () => {
  company = await ctx.make.company('PT Dasbor Simpan');
  type = await ctx.make.certificationType(company, 'ISO 9001');
  client = await ctx.make.client(company, 'PT Klien Dasbor');
  // Issued a year ago for a year: ACTIVE, expiring this month (on the 13th).
  const res = await call(
    ctx.app,
    ctx.adminToken,
    'POST',
    '/api/company-certificate-scheme',
    schemeBody(client, type, { issue_date: '2025-04-13', valid_for: 1, valid_for_type: 'YEAR' }),
  );
  expect(res.statusCode).toBe(201);
  scheme = res.json<{ id: string }>().id;
});

const totals = async (token = ctx.adminToken) => {
  const ask = async () => {
    const res = await call(ctx.app, token, 'GET', `/api/dashboard-total/${company}`);
    expect(res.statusCode).toBe(200);
    return res.json<DashboardTotals>();
  };
  const first = await ask();
  expect(await ask()).toEqual(first);
  const t = first;
  return {
    certified: t.company_certificate,
    statuses: Object.fromEntries(
      t.company_certificate_scheme_bystatus.filter((r) => r.total > 0).map((r) => [r.status, r.total]),
    ),
    persons: t.training_certificate,
    expiring: t.company_certificate_expired_in_amonth.map(
      (e) => `${e.profile.name} ${e.cert_name} ${e.status}`,
    ),
  };
};
/** A chart's sum over its last month, asked twice (the second kept). */
const charted = async (url: string) => {
  const ask = async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', url);
    expect(res.statusCode).toBe(200);
    return res.json<{ total: number }[]>().reduce((n, b) => n + b.total, 0);
  };
  const first = await ask();
  expect(await ask()).toBe(first);
  return first;
};
const companyChart = () => charted(`/api/grafic-certification-company/${company}?date_type=1m`);
const trainingChart = () => charted(`/api/grafic-certification-training/${company}?date_type=1m`);

describe('kept dashboard answers', () => {
  it('show each write of a kind they show at the next ask, and the next day’s figures', async () => {
    expect(await totals()).toEqual({
      certified: 1,
      statuses: { ACTIVE: 1 },
      persons: 0,
      expiring: ['PT Klien Dasbor ISO 9001 ACTIVE'],
    });
    const chartBefore = await companyChart();
    const trainingBefore = await trainingChart();

    // The client and the type renamed.
    expect(
      (
        await call(
          ctx.app,
          ctx.adminToken,
          'PUT',
          `/api/company-certificate/${client}`,
          clientBody(company, 'PT Klien Dasbor Baru'),
        )
      ).statusCode,
    ).toBe(200);
    expect((await totals()).expiring).toEqual(['PT Klien Dasbor Baru ISO 9001 ACTIVE']);
    expect(
      (
        await call(
          ctx.app,
          ctx.adminToken,
          'PUT',
          `/api/certification/${type}`,
          certificationTypeBody(company, 'ISO 9001:2015'),
        )
      ).statusCode,
    ).toBe(200);
    expect((await totals()).expiring).toEqual(['PT Klien Dasbor Baru ISO 9001:2015 ACTIVE']);

    // A training certificate: a person more, on the training chart too.
    expect(
      (
        await call(ctx.app, ctx.adminToken, 'POST', '/api/training-certificate', {
          company_id: company,
          name: 'Budi Santoso',
          certificate_number: 'TR-DASBOR-1',
          training: 'Auditor Internal',
          location: 'Jakarta',
          date: '2026-04-09',
        })
      ).statusCode,
    ).toBe(201);
    expect((await totals()).persons).toBe(1);
    expect(await trainingChart()).toBe(trainingBefore + 1);

    // A scheme issued today: on the company chart and in the counts.
    const issued = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      '/api/company-certificate-scheme',
      schemeBody(client, type, { issue_date: '2026-04-10' }),
    );
    expect(issued.statusCode).toBe(201);
    expect(await companyChart()).toBe(chartBefore + 1);
    expect((await totals()).statuses).toEqual({ ACTIVE: 2 });

    // The first scheme suspended: out of the expiring list.
    const suspended = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `/api/company-certificate-scheme/${scheme}`,
      schemeBody(client, type, {
        issue_date: '2025-04-13',
        valid_for: 1,
        valid_for_type: 'YEAR',
        status: 'SUSPENDED',
      }),
    );
    expect(suspended.statusCode).toBe(200);
    expect(await totals()).toMatchObject({ statuses: { ACTIVE: 1, SUSPENDED: 1 }, expiring: [] });

    // Active again, then the days pass its expiry (the 13th): EXPIRED, with nothing written.
    expect(
      (
        await call(
          ctx.app,
          ctx.adminToken,
          'PUT',
          `/api/company-certificate-scheme/${scheme}`,
          schemeBody(client, type, { issue_date: '2025-04-13', valid_for: 1, valid_for_type: 'YEAR' }),
        )
      ).statusCode,
    ).toBe(200);
    expect((await totals()).statuses).toEqual({ ACTIVE: 2 });
    ctx.clock.set(new Date('2026-04-14T03:00:00Z'));
    try {
      // Four days on, the session has ended: signed in again.
      expect(await totals(await login(ctx.app, 'admin', ADMIN_PASSWORD))).toMatchObject({
        statuses: { ACTIVE: 1, EXPIRED: 1 },
        expiring: ['PT Klien Dasbor Baru ISO 9001:2015 EXPIRED'],
      });
    } finally {
      ctx.clock.set(null);
    }
  });
});
