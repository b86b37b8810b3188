/**
 * IAF CertSearch: what goes and with which status, what the incomplete miss, the upload workbook
 * read back, the account's settings (the key never answered), and the access rules of every route.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { auditLog } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';

const ctx = useTestContext();

let alfa: string;
let beta: string;
let clientA: string;
let clientB: string;
const n: Record<string, string> = {};
let user: { token: string };
let noPermission: { token: string };

beforeAll(async () => {
  const make = ctx.make;
  alfa = await make.company('PT Alfa IAF');
  beta = await make.company('PT Beta IAF');
  const type = await make.certificationType(alfa, 'ISO 9001:2015', { category: 'Quality Management' });
  const kan = await make.accreditationBody(alfa, 'Komite Akreditasi Nasional', { acronym: 'KAN' });
  const noAcronym = await make.accreditationBody(alfa, 'Badan Tanpa Singkatan');
  clientA = await make.client(alfa, 'PT Maju Bersama', {
    name_en: 'Maju Bersama Ltd',
    address: 'Jl. Sudirman 1',
    city: 'Jakarta Pusat',
    province: 'DKI Jakarta',
    postcode: '10220',
    scope: 'Konstruksi gedung',
  });
  clientB = await make.client(alfa, 'PT Tanpa Kota', { address: 'Jl. Mawar 2', scope: 'Perdagangan' });
  const site = await make.site(clientA, 'Pabrik Cikarang', {
    address: 'Jl. Industri 5',
    postcode: '17530',
    province: 'Jawa Barat',
  });
  const scheme = async (key: string, over: Parameters<typeof make.scheme>[0]) => {
    n[key] = `IAF-${key}`;
    return make.scheme({ cert_number: n[key], ...over });
  };
  const ready = { company: alfa, type, client: clientA, accredited: kan, more: { sector_codes: [28, 33] } };
  n.activeId = await scheme('active', {
    ...ready,
    more: {
      sector_codes: [28, 33],
      scope: 'Jasa konstruksi',
      original_issue_date: '2019-05-01',
      sites: [{ site_id: site, scope: null }],
    },
  });
  await scheme('expired', { ...ready, issue_date: '2021-01-10', expired_date: '2024-01-10' });
  await scheme('suspended', { ...ready, status: 'SUSPENDED' });
  await scheme('withdrawn', { ...ready, status: 'WITHDRAWN' });
  await scheme('draft', { ...ready, status: 'DRAFT' });
  await scheme('unaccredited', { company: alfa, type, client: clientA, more: { sector_codes: [28] } });
  n.noCodesId = await scheme('nocodes', { company: alfa, type, client: clientA, accredited: noAcronym });
  n.noCityId = await scheme('nocity', { ...ready, client: clientB });
  user = await make.user({ username: 'iaf.alfa', keys: ['iaf-certsearch'], company_ids: [alfa] });
  noPermission = await make.user({ username: 'iaf.tanpa', keys: ['statistik'], company_ids: 'ALL' });
});

describe('GET /api/iaf-certsearch', () => {
  it('counts the accredited schemes that are not DRAFT, and lists what the incomplete miss', async () => {
    const res = await call(ctx.app, user.token, 'GET', `/api/iaf-certsearch?company_id=${alfa}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ total: number; ready: number; incomplete: Record<string, unknown>[] }>();
    expect(body.total).toBe(6);
    expect(body.ready).toBe(4);
    expect(body.incomplete).toEqual([
      {
        scheme_id: n.noCodesId,
        client_id: clientA,
        client_name: 'PT Maju Bersama',
        cert_number: n.nocodes,
        missing: ['sector_codes', 'accreditation_body_acronym'],
      },
      {
        scheme_id: n.noCityId,
        client_id: clientB,
        client_name: 'PT Tanpa Kota',
        cert_number: n.nocity,
        missing: ['city'],
      },
    ]);
  });
});

/** The export's sheets as rows of text (header first). */
async function workbook(token = user.token) {
  const res = await ctx.app.inject({
    url: `/api/iaf-certsearch/export?company_id=${alfa}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-disposition']).toContain('iaf-certsearch.xlsx');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
  const sheets: Record<string, string[][]> = {};
  wb.eachSheet((ws) => {
    const rows: string[][] = [];
    ws.eachRow((row) =>
      rows.push((row.values as (string | number | null)[]).slice(1).map((v) => (v == null ? '' : String(v)))),
    );
    sheets[ws.name] = rows;
  });
  return sheets;
}

describe('GET /api/iaf-certsearch/export', () => {
  it('writes the four sheets of the upload template with the ready schemes only, statuses as IAF names them', async () => {
    const sheets = await workbook();
    expect(Object.keys(sheets)).toEqual([
      'Certified Entity',
      'Certification',
      'Certification Site',
      'Certification Sector',
    ]);
    const certs = sheets.Certification!;
    expect(certs[0]).toEqual(
      expect.arrayContaining(['Certificate Number', 'Certification Status', 'Expiry Date']),
    );
    const status = Object.fromEntries(certs.slice(1).map((r) => [r[0], r[2]]));
    expect(status).toEqual({
      [n.active!]: 'active',
      [n.expired!]: 'expired',
      [n.suspended!]: 'suspended',
      [n.withdrawn!]: 'withdrawn',
    });
    const active = certs.find((r) => r[0] === n.active)!;
    // Scheme (category), standard, scope, original issue, issue and expiry dates, the body and its acronym.
    expect(active.slice(3)).toEqual([
      'Accredited',
      'Management System',
      'Quality Management',
      'ISO 9001:2015',
      'Jasa konstruksi',
      '2019-05-01',
      '2025-01-01',
      '2028-01-01',
      'Komite Akreditasi Nasional',
      'KAN',
    ]);
    // The client's scope stands in where the scheme has none.
    expect(certs.find((r) => r[0] === n.expired)![7]).toBe('Konstruksi gedung');
    expect(sheets['Certified Entity']!.slice(1)).toEqual([
      [
        clientA,
        'PT Maju Bersama',
        'Maju Bersama Ltd',
        'Jl. Sudirman 1',
        'Jakarta Pusat',
        'DKI Jakarta',
        '10220',
        'Indonesia',
      ],
    ]);
    expect(sheets['Certification Site']!.slice(1)).toEqual([
      [n.active, 'Jl. Industri 5', 'Bekasi', 'Jawa Barat', '17530', 'Indonesia', 'Jasa konstruksi'],
    ]);
    const sectors = sheets['Certification Sector']!.slice(1).filter((r) => r[0] === n.active);
    expect(sectors.map((r) => r[1])).toEqual(['28', '33']);
    expect(sectors[0]![2]).toBe('Construction');
  });
});

describe('settings', () => {
  const KEY = 'iaf-secret-key-7Q2w9';

  it('stores the key write-only: reads answer whether one is stored, never the key itself', async () => {
    const url = `/api/iaf-certsearch/settings?company_id=${alfa}`;
    expect((await call(ctx.app, user.token, 'GET', url)).json()).toEqual({ enabled: false, has_key: false });
    const noKey = await call(ctx.app, user.token, 'PUT', '/api/iaf-certsearch/settings', {
      company_id: alfa,
      enabled: true,
    });
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json()).toMatchObject({ code: expect.any(String), errors: { api_key: expect.any(String) } });
    const saved = await call(ctx.app, user.token, 'PUT', '/api/iaf-certsearch/settings', {
      company_id: alfa,
      api_key: KEY,
      enabled: true,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ enabled: true, has_key: true });
    // Switched off without a key: the stored one stays.
    const off = await call(ctx.app, user.token, 'PUT', '/api/iaf-certsearch/settings', {
      company_id: alfa,
      enabled: false,
    });
    expect(off.json()).toEqual({ enabled: false, has_key: true });
    const read = await call(ctx.app, user.token, 'GET', url);
    expect(read.json()).toEqual({ enabled: false, has_key: true });
    for (const body of [saved.body, off.body, read.body]) expect(body).not.toContain(KEY);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity, 'iaf-certsearch-settings'));
    expect(audits.length).toBe(2);
    expect(JSON.stringify(audits)).not.toContain(KEY);
    // Through the write sequence: who, which company, what changed (only whether the key did);
    // 'create' sorts before 'update'.
    const trail = audits
      .sort((a, b) => a.action.localeCompare(b.action))
      .map((a) => ({ action: a.action, company_id: a.company_id, before: a.before, after: a.after }));
    expect(trail).toEqual([
      {
        action: 'create',
        company_id: alfa,
        before: null,
        after: { enabled: true, has_key: true, key_changed: true },
      },
      {
        action: 'update',
        company_id: alfa,
        before: { enabled: true, has_key: true },
        after: { enabled: false, has_key: true, key_changed: false },
      },
    ]);
    expect(audits.every((a) => a.actor_id !== null)).toBe(true);
  });

  it('refuses bad input with the error shape', async () => {
    const res = await call(ctx.app, user.token, 'PUT', '/api/iaf-certsearch/settings', {
      company_id: alfa,
      enabled: 'perhaps',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});

describe('access', () => {
  const ROUTES: ['GET' | 'PUT' | 'POST', string, (company: string) => unknown][] = [
    ['GET', '/api/iaf-certsearch', () => undefined],
    ['GET', '/api/iaf-certsearch/export', () => undefined],
    ['GET', '/api/iaf-certsearch/settings', () => undefined],
    ['PUT', '/api/iaf-certsearch/settings', (company) => ({ company_id: company, enabled: false })],
    ['POST', '/api/iaf-certsearch/uploads', (company) => ({ company_id: company })],
    ['GET', '/api/iaf-certsearch/uploads', () => undefined],
  ];
  const request = (token: string | null, [method, url, body]: (typeof ROUTES)[number], company: string) =>
    call(ctx.app, token, method, method === 'GET' ? `${url}?company_id=${company}` : url, body(company));

  it('401 signed out, 403 without the permission or for a company outside the scope, 404 for no such company, 422 without a company', async () => {
    for (const route of ROUTES) {
      const label = `${route[0]} ${route[1]}`;
      expect([label, (await request(null, route, alfa)).statusCode]).toEqual([label, 401]);
      expect([label, (await request(noPermission.token, route, alfa)).statusCode]).toEqual([label, 403]);
      expect([label, (await request(user.token, route, beta)).statusCode]).toEqual([label, 403]);
      expect([label, (await request(ctx.adminToken, route, randomUUID())).statusCode]).toEqual([label, 404]);
      expect([label, (await request(ctx.adminToken, route, 'bukan-id')).statusCode]).toEqual([label, 422]);
    }
  });
});
