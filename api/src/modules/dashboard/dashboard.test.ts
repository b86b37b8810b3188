import { bucketCount, type DashboardTotals } from '@sertifikasi/shared-contracts';
import { call } from '../../../test/helpers';
import { useReportFixture } from '../../../test/report-fixtures';

const { ctx, fx, tokens } = useReportFixture({
  /** statistik, scope Alfa and Beta (not Gamma). */
  limited: { username: 'manajer.ab', role: 'Manajer Cabang', keys: ['statistik'], scope: 'Alfa and Beta' },
  /** Without statistik. */
  noStats: { username: 'arsip', role: 'Petugas Arsip', keys: ['company'], scope: 'ALL' },
});

const get = async <T>(token: string | null, url: string, status = 200): Promise<T> => {
  const res = await call(ctx.app, token, 'GET', url);
  expect({ url, status: res.statusCode, body: res.statusCode === status ? '' : res.body }).toEqual({
    url,
    status,
    body: '',
  });
  return res.json<T>();
};
const byStatus = (t: DashboardTotals) =>
  Object.fromEntries(t.company_certificate_scheme_bystatus.map((r) => [r.status, r.total]));

describe('GET /api/dashboard-total/{company_id}', () => {
  it('counts one company: certified clients, schemes per effective status (zeros included), persons', async () => {
    const t = await get<DashboardTotals>(ctx.adminToken, `/api/dashboard-total/${fx.company.A}`);
    expect(t.company_certificate).toBe(2); // PT Maju (s1, s8), CV Sentosa (s3)
    expect(t.company_certificate_total).toBe(8);
    expect(t.company_certificate_scheme_bystatus).toEqual([
      { status: 'ACTIVE', total: 3 },
      { status: 'EXPIRED', total: 1 },
      { status: 'SUSPENDED', total: 1 },
      { status: 'WITHDRAWN', total: 1 },
      { status: 'NOACTIVE', total: 1 },
      { status: 'DRAFT', total: 1 },
    ]);
    expect(t.training_certificate_total).toBe(4);
    expect(t.training_certificate).toBe(3); // 'Budi Santoso' and ' budi santoso ' are one person
  });

  it('lists the ACTIVE schemes expiring this month in Jakarta, soonest first, the 14th already expired', async () => {
    const t = await get<DashboardTotals>(ctx.adminToken, `/api/dashboard-total/${fx.company.A}`);
    expect(t.company_certificate_expired_in_amonth).toEqual([
      {
        id: fx.scheme.s2,
        company_id: fx.company.A,
        cert_name: 'ISO 14001',
        cert_number: expect.any(String),
        expired_date: '2024-04-14',
        status: 'EXPIRED',
        profile: { id: fx.client.c1, name: 'PT Maju', logo: null },
      },
      {
        id: fx.scheme.s3,
        company_id: fx.company.A,
        cert_name: 'ISO 9001',
        cert_number: expect.any(String),
        expired_date: '2024-04-30',
        status: 'ACTIVE',
        profile: { id: fx.client.c2, name: 'CV Sentosa', logo: null },
      },
    ]);
    expect(t.company_certificate_expired_in_amonth_total).toBe(2);
  });

  /** The totals of ALL for a caller (their statuses adding up to the schemes), and the expiring schemes listed. */
  const totalsOfAll = async (token: string) => {
    const t = await get<DashboardTotals>(token, '/api/dashboard-total/ALL');
    expect(t.company_certificate_scheme_bystatus.reduce((n, r) => n + r.total, 0)).toBe(
      t.company_certificate_total,
    );
    return {
      company_certificate: t.company_certificate,
      company_certificate_total: t.company_certificate_total,
      by_status: byStatus(t),
      training_certificate_total: t.training_certificate_total,
      training_certificate: t.training_certificate,
      expiring: t.company_certificate_expired_in_amonth.map((s) => s.id),
    };
  };

  it('ALL is every company in the caller’s scope', async () => {
    const admin = await totalsOfAll(ctx.adminToken);
    expect(admin).toEqual({
      company_certificate: 4,
      company_certificate_total: 10,
      by_status: { ACTIVE: 5, EXPIRED: 1, SUSPENDED: 1, WITHDRAWN: 1, NOACTIVE: 1, DRAFT: 1 },
      training_certificate_total: 6,
      training_certificate: 4,
      expiring: [fx.scheme.s2, fx.scheme.s10, fx.scheme.s9, fx.scheme.s3],
    });
    // Without Gamma: its client, its ACTIVE scheme (s10) and its training.
    expect(await totalsOfAll(tokens.limited)).toEqual({
      company_certificate: 3,
      company_certificate_total: 9,
      by_status: { ...admin.by_status, ACTIVE: 4 },
      training_certificate_total: 5,
      training_certificate: 3,
      expiring: [fx.scheme.s2, fx.scheme.s9, fx.scheme.s3],
    });
  });

  it('answers zeros for every status of a company without data', async () => {
    const empty = await ctx.make.company('PT Kosong');
    const t = await get<DashboardTotals>(ctx.adminToken, `/api/dashboard-total/${empty}`);
    expect(t).toEqual({
      company_certificate: 0,
      company_certificate_total: 0,
      training_certificate: 0,
      training_certificate_total: 0,
      company_certificate_scheme_bystatus: [
        'ACTIVE',
        'EXPIRED',
        'SUSPENDED',
        'WITHDRAWN',
        'NOACTIVE',
        'DRAFT',
      ].map((status) => ({ status, total: 0 })),
      company_certificate_expired_in_amonth: [],
      company_certificate_expired_in_amonth_total: 0,
    });
  });

  it('caps the expiring list at 100 (soonest first) and says how many there are in all', async () => {
    const f = ctx.make;
    const D = await f.company('PT Delta Banyak');
    const type = await f.certificationType(D, 'ISO 45001');
    const client = await f.client(D, 'PT Banyak Klien');
    for (let i = 0; i < 101; i++) {
      const day = String(1 + (i % 30)).padStart(2, '0');
      await f.scheme({
        company: D,
        client,
        type,
        issue_date: `2021-04-${day}`,
        expired_date: `2024-04-${day}`,
      });
    }
    const t = await get<DashboardTotals>(ctx.adminToken, `/api/dashboard-total/${D}`);
    expect(t.company_certificate_expired_in_amonth).toHaveLength(100);
    expect(t.company_certificate_expired_in_amonth_total).toBe(101);
    const dates = t.company_certificate_expired_in_amonth.map((s) => s.expired_date);
    expect(dates).toEqual([...dates].sort());
    expect(dates[0]).toBe('2024-04-01');
  });

  it('refuses a company outside the scope (403), no token (401), no statistik permission (403)', async () => {
    await get(tokens.limited, `/api/dashboard-total/${fx.company.C}`, 403);
    await get(tokens.limited, `/api/grafic-certification-company/${fx.company.C}`, 403);
    await get(tokens.limited, `/api/grafic-certification-training/${fx.company.C}`, 403);
    await get(null, '/api/dashboard-total/ALL', 401);
    await get(null, '/api/grafic-certification-company/ALL', 401);
    await get(tokens.noStats, '/api/dashboard-total/ALL', 403);
    await get(tokens.noStats, '/api/grafic-certification-training/ALL', 403);
    await get(ctx.adminToken, '/api/dashboard-total/not-a-company', 422);
  });
});

describe('GET /api/grafic-certification-company/{company_id}', () => {
  const chart = (query: string, company = fx.company.A, token = ctx.adminToken) =>
    get<{ date: string; total: number }[]>(token, `/api/grafic-certification-company/${company}?${query}`);
  const nonZero = (rows: { date: string; total: number }[]) =>
    Object.fromEntries(rows.filter((r) => r.total).map((r) => [r.date, r.total]));

  it('defaults to 1w by day: the 7 days up to today in Jakarta, zero-filled, four statuses (no DRAFT)', async () => {
    const rows = await chart('');
    expect(rows).toEqual([
      { date: '2024-04-09', total: 0 },
      { date: '2024-04-10', total: 1 }, // s4 SUSPENDED
      { date: '2024-04-11', total: 0 },
      { date: '2024-04-12', total: 0 },
      { date: '2024-04-13', total: 0 },
      { date: '2024-04-14', total: 0 },
      { date: '2024-04-15', total: 0 }, // s5 is DRAFT; the 15th is today in Jakarta (UTC says the 14th)
    ]);
    expect(nonZero(await chart('status=DRAFT'))).toEqual({ '2024-04-15': 1 });
  });

  it('2w has 14 daily points; 1m starts the day after the same date a month earlier', async () => {
    const twoWeeks = await chart('date_type=2w');
    expect(twoWeeks).toHaveLength(14);
    expect(twoWeeks[0]!.date).toBe('2024-04-02');
    const month = await chart('date_type=1m&chart=DAY');
    expect(month).toHaveLength(31);
    expect(month[0]!.date).toBe('2024-03-16');
    expect(nonZero(month)).toEqual({ '2024-03-31': 1, '2024-04-10': 1 });
    expect(await chart('date_type=1m&chart=MONTH')).toEqual([
      { date: '2024-03', total: 1 },
      { date: '2024-04', total: 1 },
    ]);
  });

  it('3m and 6m by month and by year (chart_type is a synonym), across the year edge', async () => {
    expect(await chart('date_type=3m&chart=MONTH')).toEqual([
      { date: '2024-01', total: 0 },
      { date: '2024-02', total: 0 },
      { date: '2024-03', total: 1 },
      { date: '2024-04', total: 1 },
    ]);
    expect(await chart('date_type=6m&chart_type=MONTH')).toEqual([
      { date: '2023-10', total: 0 },
      { date: '2023-11', total: 0 },
      { date: '2023-12', total: 1 }, // s7 WITHDRAWN, 31 December
      { date: '2024-01', total: 0 },
      { date: '2024-02', total: 0 },
      { date: '2024-03', total: 1 },
      { date: '2024-04', total: 1 },
    ]);
    expect(await chart('date_type=6m&chart=YEAR')).toEqual([
      { date: '2023', total: 1 },
      { date: '2024', total: 2 },
    ]);
  });

  it('custom ranges; statuses comma-separated or repeated, NOTACTIVE meaning NOACTIVE; stored status counts', async () => {
    const range = 'date_type=custom&start_date=2021-01-01&end_date=2024-12-31&chart=YEAR';
    expect(await chart(range)).toEqual([
      { date: '2021', total: 2 },
      { date: '2022', total: 0 },
      { date: '2023', total: 3 },
      { date: '2024', total: 2 },
    ]);
    // s2 has expired since but was issued ACTIVE: it still counts under ACTIVE.
    expect(nonZero(await chart(`${range}&status=ACTIVE`))).toEqual({ '2021': 2, '2023': 2 });
    expect(nonZero(await chart(`${range}&status=NOTACTIVE`))).toEqual({ '2024': 1 });
    expect(nonZero(await chart(`${range}&status=ACTIVE,NOTACTIVE`))).toEqual({
      '2021': 2,
      '2023': 2,
      '2024': 1,
    });
    expect(nonZero(await chart(`${range}&status=SUSPENDED&status=WITHDRAWN`))).toEqual({
      '2023': 1,
      '2024': 1,
    });
    expect(await chart('date_type=custom&start_date=2024-02-28&end_date=2024-03-01')).toEqual([
      { date: '2024-02-28', total: 0 },
      { date: '2024-02-29', total: 0 },
      { date: '2024-03-01', total: 0 },
    ]);
  });

  it('ALL is limited to the scope', async () => {
    const q = 'date_type=custom&start_date=2024-04-12&end_date=2024-04-12';
    expect(await chart(q, 'ALL')).toEqual([{ date: '2024-04-12', total: 1 }]); // s10 of Gamma
    expect(await chart(q, 'ALL', tokens.limited)).toEqual([{ date: '2024-04-12', total: 0 }]);
  });

  it('answers 422 past 400 buckets, asking for a coarser granularity; 400 pass', async () => {
    expect(bucketCount('2023-01-01', '2024-02-04', 'DAY')).toBe(400);
    expect(await chart('date_type=custom&start_date=2023-01-01&end_date=2024-02-04')).toHaveLength(400);
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/grafic-certification-company/${fx.company.A}?date_type=custom&start_date=2023-01-01&end_date=2024-02-05`,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json<{ message: string }>().message).toMatch(/401 titik.*Bulanan atau Tahunan/);
    expect(
      await chart('date_type=custom&start_date=2023-01-01&end_date=2024-02-05&chart=MONTH'),
    ).toHaveLength(14);
  });

  it('refuses bad parameters with 422', async () => {
    for (const q of [
      'date_type=2y',
      'chart=WEEK',
      'status=EXPIRED',
      'date_type=custom',
      'date_type=custom&start_date=2024-02-30&end_date=2024-03-01',
      'date_type=custom&start_date=2024-03-02&end_date=2024-03-01',
      'unknown=1',
    ]) {
      const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/grafic-certification-company/ALL?${q}`);
      expect({ q, status: res.statusCode }).toEqual({ q, status: 422 });
    }
  });
});

describe('GET /api/grafic-certification-training/{company_id}', () => {
  const chart = (query: string, company = fx.company.A, token = ctx.adminToken) =>
    get<{ date_f: string; total: number }[]>(token, `/api/grafic-certification-training/${company}?${query}`);

  it('counts training certificates by date, rows {date_f, total}, zero-filled', async () => {
    expect(await chart('')).toEqual([
      { date_f: '2024-04-09', total: 0 },
      { date_f: '2024-04-10', total: 0 },
      { date_f: '2024-04-11', total: 0 },
      { date_f: '2024-04-12', total: 0 },
      { date_f: '2024-04-13', total: 0 },
      { date_f: '2024-04-14', total: 1 },
      { date_f: '2024-04-15', total: 1 },
    ]);
    expect(await chart('date_type=custom&start_date=2023-01-01&end_date=2024-12-31&chart_type=YEAR')).toEqual(
      [
        { date_f: '2023', total: 1 },
        { date_f: '2024', total: 3 },
      ],
    );
    expect(await chart('date_type=1m&chart=MONTH', 'ALL', tokens.limited)).toEqual([
      { date_f: '2024-03', total: 1 },
      { date_f: '2024-04', total: 3 }, // Alfa's two Budis and Beta's; not Gamma's Rina
    ]);
  });

  it('takes no status filter', async () => {
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      '/api/grafic-certification-training/ALL?status=ACTIVE',
    );
    expect(res.statusCode).toBe(422);
  });
});
