import type { ListResponse, SchemeReportRow } from '@sertifikasi/shared-contracts';
import { call } from '../../../test/helpers';
import { useReportFixture } from '../../../test/report-fixtures';

const { ctx, fx, tokens } = useReportFixture({
  /** The three report permissions, scope Alfa and Beta (not Gamma). */
  limited: {
    username: 'pelapor.ab',
    role: 'Pelapor',
    keys: ['report-company-certificate', 'report-company-certificate-scheme', 'report-training-certificate'],
    scope: 'Alfa and Beta',
  },
  /** Only the company report. */
  companyOnly: {
    username: 'pelapor.klien',
    role: 'Pelapor Klien',
    keys: ['report-company-certificate'],
    scope: 'ALL',
  },
});

async function list<T>(token: string | null, url: string): Promise<ListResponse<T>> {
  const res = await call(ctx.app, token, 'GET', url);
  expect({ url, status: res.statusCode, body: res.statusCode === 200 ? '' : res.body }).toEqual({
    url,
    status: 200,
    body: '',
  });
  return res.json<ListResponse<T>>();
}
const status = async (token: string | null, url: string) =>
  (await call(ctx.app, token, 'GET', url)).statusCode;

describe('GET /api/report-company-certification/{company_id}', () => {
  const names = async (query: string, company = fx.company.A, token = ctx.adminToken) =>
    (await list<{ name: string }>(token, `/api/report-company-certification/${company}?${query}`)).data.map(
      (r) => r.name,
    );

  it('lists the company’s clients by name with the report’s columns, as the list shape', async () => {
    const body = await list<Record<string, unknown>>(
      ctx.adminToken,
      `/api/report-company-certification/${fx.company.A}?type=table`,
    );
    expect(body).toMatchObject({ total: 3, per_page: 20, current_page: 1, last_page: 1, from: 1, to: 3 });
    expect(body.data.map((r) => r.name)).toEqual(['CV Sentosa', 'PT Abadi', 'PT Maju']);
    expect(body.data[2]).toEqual({
      id: fx.client.c1,
      company_id: fx.company.A,
      company_name: 'PT Alfa Sertifikasi',
      name: 'PT Maju',
      logo: null,
      certificate_number: 'MJ-001',
      ea_code: '28',
      nace_code: 'C25',
      region: 'Bekasi',
      phone: '021-555-0101',
      handphone: '0812-1111-2222',
      email: 'info@maju.co.id',
    });
  });

  it('filters by text over name and numbers, certification types, accreditation bodies, alone and combined', async () => {
    expect(await names('search=maju')).toEqual(['PT Maju']);
    expect(await names('search=cs-002')).toEqual(['CV Sentosa']);
    expect(await names(`certification=${fx.type.t14001}`)).toEqual(['CV Sentosa', 'PT Maju']);
    expect(await names(`accredited=${fx.body.kan}`)).toEqual(['PT Maju']);
    expect(await names(`accredited=${fx.body.kan},${fx.body.ias}`)).toEqual(['CV Sentosa', 'PT Maju']);
    expect(await names(`certification=${fx.type.t9001}&accredited=${fx.body.ias}`)).toEqual(['CV Sentosa']);
    expect(await names(`certification=${fx.type.t9001}&accredited=${fx.body.ias}&search=maju`)).toEqual([]);
    expect(await names(`certification=${fx.type.t9001}&certification=${fx.type.t14001}`)).toEqual([
      'CV Sentosa',
      'PT Abadi',
      'PT Maju',
    ]);
    expect(await names('certification=&accredited=')).toHaveLength(3);
  });

  it('pages with page and paginate', async () => {
    const page2 = await list(ctx.adminToken, `/api/report-company-certification/${fx.company.A}?page=2`);
    expect(page2).toMatchObject({ total: 3, current_page: 2, data: [], from: null, to: null });
    expect(await status(ctx.adminToken, `/api/report-company-certification/ALL?paginate=7`)).toBe(422);
  });

  it('ALL is the caller’s scope; a company outside it is 403', async () => {
    expect(await names('', 'ALL')).toEqual([
      'CV Sentosa',
      'PT Abadi',
      'PT Beta Klien',
      'PT Gamma Klien',
      'PT Maju',
    ]);
    expect(await names('', 'ALL', tokens.limited)).toEqual([
      'CV Sentosa',
      'PT Abadi',
      'PT Beta Klien',
      'PT Maju',
    ]);
    expect(await status(tokens.limited, `/api/report-company-certification/${fx.company.C}`)).toBe(403);
    expect(
      await status(tokens.limited, `/api/report-company-certification/${fx.company.C}?type=export`),
    ).toBe(403);
  });
});

describe('GET /api/report-company-certification-scheme/{company_id}', () => {
  const rows = async (query: string, company = fx.company.A, token = ctx.adminToken) =>
    (await list<SchemeReportRow>(token, `/api/report-company-certification-scheme/${company}?${query}`)).data;
  const ids = async (query: string, company?: string, token?: string) =>
    (await rows(query, company, token)).map((r) => r.id);
  const s = () => fx.scheme;

  it('lists schemes newest issue date first, EXPIRED derived, accreditation only when accredited', async () => {
    expect(await ids('')).toEqual([s().s5, s().s4, s().s6, s().s7, s().s8, s().s1, s().s3, s().s2]);
    const all = await rows('');
    const s1 = all.find((r) => r.id === s().s1)!;
    expect(s1).toEqual({
      id: s().s1,
      company_id: fx.company.A,
      company_name: 'PT Alfa Sertifikasi',
      certificate_id: fx.client.c1,
      client_name: 'PT Maju',
      client_logo: null,
      client_certificate_number: 'MJ-001',
      certification_id: fx.type.t9001,
      cert_name: 'ISO 9001',
      cert_number: 'QMS-0001',
      status: 'ACTIVE',
      effective_status: 'ACTIVE',
      issue_date: '2023-04-20',
      expired_date: '2026-04-20',
      is_accredited: 'true',
      accredited_id: fx.body.kan,
      accredited: 'KAN',
      original_issue_date: '2017-04-20',
      scope: 'Fabrikasi baja',
      sector_codes: '17, 28',
      revision: 0,
      client_city: 'Kabupaten Bekasi',
      client_province: 'Jawa Barat',
      client_country: 'ID',
    });
    const s2 = all.find((r) => r.id === s().s2)!;
    expect(s2).toMatchObject({
      status: 'ACTIVE',
      effective_status: 'EXPIRED',
      accredited: null,
      is_accredited: 'false',
    });
  });

  it('filters by status, EXPIRED its own value, NOTACTIVE meaning NOACTIVE', async () => {
    expect(await ids('status=EXPIRED')).toEqual([s().s2]);
    expect(await ids('status=ACTIVE')).toEqual([s().s8, s().s1, s().s3]);
    expect(await ids('status=NOTACTIVE')).toEqual([s().s6]);
    expect(await ids('status=ACTIVE,EXPIRED')).toEqual([s().s8, s().s1, s().s3, s().s2]);
    expect(await ids('status=DRAFT&status=WITHDRAWN')).toEqual([s().s5, s().s7]);
  });

  it('filters by client, certification type, accreditation body and text', async () => {
    expect(await ids(`client=${fx.client.c3}`)).toEqual([s().s5, s().s6, s().s7]);
    expect(await ids(`certification=${fx.type.t14001}`)).toEqual([s().s4, s().s2]);
    expect(await ids(`accredited=${fx.body.kan}`)).toEqual([s().s1]);
    expect(await ids('search=qms-0001')).toEqual([s().s1]); // the scheme's number
    expect(await ids('search=SENTOSA')).toEqual([s().s4, s().s3]); // the client's name
    expect(await ids('search=AB-003')).toEqual([s().s5, s().s6, s().s7]); // the client's number
  });

  it('filters by issue and expiry ranges: inclusive dates, timestamps read in Jakarta', async () => {
    expect(await ids('issue_date=2024-04-01,2024-04-15')).toEqual([s().s5, s().s4]);
    // Midnight of 1 April in Jakarta as a browser sends it; in UTC it would be 31 March and bring s6.
    expect(await ids('issue_date=2024-03-31T17:00:00.000Z,2024-04-10T16:59:59.999Z')).toEqual([s().s4]);
    expect(await ids('expired_date=2024-04-01,2024-04-30')).toEqual([s().s7, s().s3, s().s2]);
    expect(await ids('expired_date=2024-04-14,2024-04-14')).toEqual([s().s2]);
    expect(await ids('issue_date=&expired_date=')).toHaveLength(8);
  });

  it('combines every filter', async () => {
    const base = `client=${fx.client.c1}&certification=${fx.type.t9001}&status=ACTIVE`;
    expect(await ids(base)).toEqual([s().s8, s().s1]);
    expect(await ids(`${base}&expired_date=2026-01-01,2026-12-31`)).toEqual([s().s1]);
    expect(
      await ids(`${base}&accredited=${fx.body.kan}&issue_date=2023-04-20,2023-04-20&search=qms`),
    ).toEqual([s().s1]);
    expect(await ids(`${base}&accredited=${fx.body.ias}`)).toEqual([]);
  });

  it('ALL is the scope; out of scope 403; bad filters 422', async () => {
    expect(await ids('status=ACTIVE', 'ALL')).toEqual([s().s10, s().s8, s().s9, s().s1, s().s3]);
    expect(await ids('status=ACTIVE', 'ALL', tokens.limited)).toEqual([s().s8, s().s9, s().s1, s().s3]);
    // A client of another company chosen by id finds nothing outside the scope.
    expect(await ids(`client=${fx.client.c5}`, 'ALL', tokens.limited)).toEqual([]);
    expect(await status(tokens.limited, `/api/report-company-certification-scheme/${fx.company.C}`)).toBe(
      403,
    );
    for (const q of [
      'status=EXPIRE',
      'client=123',
      'issue_date=01/04/2024,15/04/2024',
      'issue_date=2024-04-15,2024-04-01',
      'expired_date=2024-02-30,2024-03-01',
      'type=pdf',
      'sort=name',
    ]) {
      const code = await status(ctx.adminToken, `/api/report-company-certification-scheme/ALL?${q}`);
      expect({ q, code }).toEqual({ q, code: 422 });
    }
  });
});

describe('GET /api/report-training-certification/{company_id}', () => {
  const names = async (query: string, company = fx.company.A, token = ctx.adminToken) =>
    (
      await list<{ name: string; date: string }>(
        token,
        `/api/report-training-certification/${company}?${query}`,
      )
    ).data.map((r) => `${r.name.trim()} ${r.date}`);

  it('lists training certificates newest first, with the report’s columns', async () => {
    expect(await names('')).toEqual([
      'Budi Santoso 2024-04-15',
      'budi santoso 2024-04-14',
      'Siti Aminah 2024-03-31',
      'Agus 2023-12-31',
    ]);
    const body = await list(ctx.adminToken, `/api/report-training-certification/${fx.company.A}?paginate=50`);
    expect(body.data[0]).toEqual({
      id: fx.training.tA1,
      company_id: fx.company.A,
      company_name: 'PT Alfa Sertifikasi',
      name: 'Budi Santoso',
      certificate_number: expect.stringMatching(/^TR-/),
      date: '2024-04-15',
      training: 'Lead Auditor ISO 9001',
      location: 'Yogyakarta',
    });
  });

  it('filters by text (name, number, training, location) and date range, alone and combined', async () => {
    expect(await names('search=budi')).toEqual(['Budi Santoso 2024-04-15', 'budi santoso 2024-04-14']);
    expect(await names('search=lead auditor')).toEqual(['Budi Santoso 2024-04-15']);
    expect(await names('search=yogya')).toEqual(['Budi Santoso 2024-04-15']);
    expect(await names('issue_date=2024-03-31,2024-04-14')).toEqual([
      'budi santoso 2024-04-14',
      'Siti Aminah 2024-03-31',
    ]);
    expect(await names('issue_date=2024-03-30T17:00:00.000Z,2024-03-31T16:59:59.999Z')).toEqual([
      'Siti Aminah 2024-03-31',
    ]);
    expect(await names('search=budi&issue_date=2024-04-15,2024-04-15')).toEqual(['Budi Santoso 2024-04-15']);
  });

  it('ALL is the scope; out of scope 403', async () => {
    expect(await names('', 'ALL', tokens.limited)).not.toContain('Rina 2024-04-15');
    expect(await names('', 'ALL')).toContain('Rina 2024-04-15');
    expect(await status(tokens.limited, `/api/report-training-certification/${fx.company.C}`)).toBe(403);
  });
});

describe('permissions', () => {
  it('needs a token (401) and each report’s own permission (403)', async () => {
    for (const path of [
      'report-company-certification',
      'report-company-certification-scheme',
      'report-training-certification',
    ]) {
      expect(await status(null, `/api/${path}/ALL`)).toBe(401);
      expect(await status(null, `/api/${path}/ALL?type=export`)).toBe(401);
    }
    expect(await status(tokens.companyOnly, '/api/report-company-certification/ALL')).toBe(200);
    expect(await status(tokens.companyOnly, '/api/report-company-certification-scheme/ALL')).toBe(403);
    expect(await status(tokens.companyOnly, '/api/report-training-certification/ALL?type=export')).toBe(403);
  });
});
