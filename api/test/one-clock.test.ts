/**
 * The one clock (lib/clock.ts): moving the app's clock moves every part that asks what day it is.
 * A scheme valid through 10 March 2026 (Jakarta) is ACTIVE to the last minute of that day and
 * EXPIRED from the first minute of the next, alike on the dashboard totals, the scheme report, the
 * public check and the client's detail answer (docs/rules.md#dashboard-and-reports: nothing is written when a
 * scheme expires; every part derives it from today).
 */
import {
  DASHBOARD_ENDPOINTS,
  type DashboardTotals,
  type EffectiveStatus,
  REPORTS,
} from '@sertifikasi/shared-contracts';
import { ADMIN_PASSWORD, call, login, useTestContext } from './helpers';

let company: string;
let client: string;
let type: string;
let schemeId: string;
const CERT_NUMBER = 'QMS/JAM/0310';

/** Noon of 10 March 2025 in Jakarta: the scheme is entered and issued that day, valid one year. */
const ENTERED = new Date('2025-03-10T05:00:00Z');
/** 23:59 of 10 March 2026 in Jakarta: the expiry day's last minute. */
const EXPIRY_DAY_LAST_MINUTE = new Date('2026-03-10T16:59:00Z');
/** 00:00 of 11 March 2026 in Jakarta (still 10 March in UTC): the first day past the expiry. */
const DAY_AFTER_FIRST_MINUTE = new Date('2026-03-10T17:00:00Z');
const ctx = useTestContext({ TZ: 'Asia/Jakarta' }, { now: ENTERED });

beforeAll(async () => {
  company = await ctx.make.company('PT Jam Dinding');
  type = await ctx.make.certificationType(company, 'ISO 9001');
  client = await ctx.make.client(company, 'PT Klien Tepat Waktu', { certificate_number: 'KL-0310' });
  const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company-certificate-scheme', {
    certificate_id: client,
    certification_id: type,
    cert_number: CERT_NUMBER,
    status: 'ACTIVE',
    issue_date: '2025-03-10',
    valid_for: 1,
    valid_for_type: 'YEAR',
    is_accredited: 'false',
  });
  expect(res.statusCode).toBe(201);
  expect(res.json<{ expired_date: string }>().expired_date).toBe('2026-03-10');
  schemeId = res.json<{ id: string }>().id;
});

/** What each part says of the scheme at the clock's current instant. */
async function everyPartAt(instant: Date) {
  ctx.clock.set(instant);
  // Sessions age with the clock: a day later the morning's token has ended, so sign in again.
  const token = await login(ctx.app, 'admin', ADMIN_PASSWORD);

  const totals = (
    await call(ctx.app, token, 'GET', `/api/${DASHBOARD_ENDPOINTS.totals}/${company}`)
  ).json<DashboardTotals>();
  const byStatus = Object.fromEntries(
    totals.company_certificate_scheme_bystatus.map((s) => [s.status, s.total]),
  );

  const report = await call(ctx.app, token, 'GET', `/api/${REPORTS.scheme.endpoint}/${company}?type=table`);
  expect(report.statusCode).toBe(200);
  const [row] = report.json<{ data: { cert_number: string; effective_status: EffectiveStatus }[] }>().data;
  const expiredFilter = await call(
    ctx.app,
    token,
    'GET',
    `/api/${REPORTS.scheme.endpoint}/${company}?type=table&status=EXPIRED`,
  );

  const check = await ctx.app.inject({
    method: 'GET',
    url: `/api/check-certificate-company/${CERT_NUMBER.replaceAll('/', '+')}`,
  });
  expect(check.statusCode).toBe(200);
  const publicAnswer = check.json<{ status: string; history: { status: string; from: string }[] }>();

  const detail = await call(ctx.app, token, 'GET', `/api/company-certificate/${company}/${client}`);
  expect(detail.statusCode).toBe(200);
  const [scheme] = detail.json<{ schema: { effective_status: string; days_left: number | null }[] }>().schema;

  return {
    dashboard: {
      companiesCertified: totals.company_certificate,
      active: byStatus.ACTIVE,
      expired: byStatus.EXPIRED,
      expiringThisMonth: totals.company_certificate_expired_in_amonth.length,
    },
    report: { row: row?.effective_status, expiredFilterTotal: expiredFilter.json<{ total: number }>().total },
    publicCheck: { status: publicAnswer.status, history: publicAnswer.history },
    detail: { status: scheme?.effective_status, daysLeft: scheme?.days_left },
  };
}

describe('one clock for the whole app', () => {
  it('on the expiry day itself, to its last minute, every part still says ACTIVE', async () => {
    expect(await everyPartAt(EXPIRY_DAY_LAST_MINUTE)).toEqual({
      dashboard: { companiesCertified: 1, active: 1, expired: 0, expiringThisMonth: 1 },
      report: { row: 'ACTIVE', expiredFilterTotal: 0 },
      publicCheck: { status: 'ACTIVE', history: [{ status: 'ACTIVE', from: '2025-03-10' }] },
      detail: { status: 'ACTIVE', daysLeft: 0 },
    });
  });

  it('one minute later, the next day in the deployment’s time zone, every part says EXPIRED', async () => {
    expect(await everyPartAt(DAY_AFTER_FIRST_MINUTE)).toEqual({
      dashboard: { companiesCertified: 0, active: 0, expired: 1, expiringThisMonth: 1 },
      report: { row: 'EXPIRED', expiredFilterTotal: 1 },
      publicCheck: {
        status: 'EXPIRED',
        history: [
          { status: 'ACTIVE', from: '2025-03-10' },
          { status: 'EXPIRED', from: '2026-03-11' },
        ],
      },
      detail: { status: 'EXPIRED', daysLeft: null },
    });
  });

  it('the status history dates a change by the clock’s day, and the clock can go back to real time', async () => {
    ctx.clock.set(new Date('2025-06-01T18:30:00Z')); // 01:30 on 2 June in Jakarta
    const token = await login(ctx.app, 'admin', ADMIN_PASSWORD);
    const put = await call(ctx.app, token, 'PUT', `/api/company-certificate-scheme/${schemeId}`, {
      certificate_id: client,
      certification_id: type,
      cert_number: CERT_NUMBER,
      status: 'SUSPENDED',
      issue_date: '2025-03-10',
      valid_for: 1,
      valid_for_type: 'YEAR',
      is_accredited: 'false',
    });
    expect(put.statusCode).toBe(200);
    const history = await call(
      ctx.app,
      null,
      'GET',
      `/api/check-certificate-company/${CERT_NUMBER.replaceAll('/', '+')}`,
    );
    expect(history.json<{ history: unknown[] }>().history).toEqual([
      { status: 'ACTIVE', from: '2025-03-10' },
      { status: 'SUSPENDED', from: '2025-06-02' },
    ]);

    ctx.clock.set(null);
    const before = Date.now();
    const now = ctx.app.clock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThan(before + 60_000);
  });
});
