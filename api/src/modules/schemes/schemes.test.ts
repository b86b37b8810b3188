// Long file: one describe per route of the scheme resource (create, derived fields, update, QR, history, delete, access); they share the companies, types and clients built once.
import { and, asc, eq } from 'drizzle-orm';
import { addDays, daysBetween, MESSAGES, todayIn } from '@sertifikasi/shared-contracts';
import { auditLog, schemes } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { call, useTestContext, expect422 } from '../../../test/helpers';
import type { SignedFields } from '@sertifikasi/shared-contracts/credential';
import { verifiedQrUrl } from '../../../test/signed';
import { schemeBody } from '../../../test/forms';

const BASE = 'https://sertifikasi.example.id';
const TZ = 'Asia/Jakarta';

const ctx = useTestContext({ PUBLIC_BASE_URL: BASE, TZ });
let companyA: string;
let companyB: string;
let typeA: string;
let typeB: string;
let bodyA: string;
let bodyB: string;
let clientA: string;
let clientB: string;
/** company-certificate with every action, scope: company A only. */
let scoped: string;
/** company-certificate (view) only, scope ALL. */
let viewer: string;

beforeAll(async () => {
  const { make } = ctx;
  companyA = await make.company('PT Sertifikasi Alpha');
  companyB = await make.company('PT Sertifikasi Beta');
  typeA = await make.certificationType(companyA, 'ISO 9001:2015');
  typeB = await make.certificationType(companyB, 'ISO 14001:2015');
  bodyA = await make.accreditationBody(companyA, 'KAN');
  bodyB = await make.accreditationBody(companyB, 'IAF');
  clientA = await make.client(companyA, 'PT Maju Bersama', { certificate_number: 'CL-A-001' });
  clientB = await make.client(companyB, 'PT Sinar Terang', { certificate_number: 'CL-B-001' });
  const full = await make.role('Staf Sertifikasi', [
    'company-certificate',
    'company-certificate:create',
    'company-certificate:edit',
    'company-certificate:delete',
  ]);
  const view = await make.role('Lihat Sertifikasi', ['company-certificate']);
  scoped = (await make.user({ username: 'staf.alpha', roles_id: full, company_ids: [companyA] })).token;
  viewer = (await make.user({ username: 'pengamat', roles_id: view, company_ids: 'ALL' })).token;
});

const today = () => todayIn(TZ);
const URL = '/api/company-certificate-scheme';

/** What the QR of a scheme of clientA and typeA made by schemeBody signs. */
const signedFields = (number: string): SignedFields => ({
  number,
  name: 'PT Maju Bersama',
  standard: 'ISO 9001:2015',
  issue: '2025-01-10',
  expiry: '2028-01-10',
});

async function createScheme(over: Record<string, unknown> = {}, token = ctx.adminToken, client = clientA) {
  const res = await call(
    ctx.app,
    token,
    'POST',
    URL,
    schemeBody(client, client === clientB ? typeB : typeA, over),
  );
  if (res.statusCode !== 201) throw new Error(`scheme: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, unknown> & { id: string; cert_number: string }>();
}

const auditRows = (id: string) =>
  ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'company-certificate-scheme'), eq(auditLog.entity_id, id)))
    .orderBy(asc(auditLog.at));

describe('POST /api/company-certificate-scheme', () => {
  it('adds a scheme with the names it points at, the computed expiry and the derived fields, and audits it', async () => {
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      URL,
      schemeBody(clientA, typeA, {
        cert_number: '  QMS/0001/2025  ',
        company_id: companyA,
        issue_date: '2025-01-10',
        issue_date2: '2025-01-12',
        valid_date: '',
        valid_for: 3,
        valid_for_type: 'YEAR',
        surveillance_date: '2099-01-10',
        is_accredited: 'true',
        accredited_id: bodyA,
        desc: 'Ruang lingkup:\nproduksi',
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      company_id: companyA,
      certificate_id: clientA,
      certificate_number: 'CL-A-001',
      client_name: 'PT Maju Bersama',
      certification_id: typeA,
      cert_name: 'ISO 9001:2015',
      accredited_id: bodyA,
      accredited: 'KAN',
      cert_number: 'QMS/0001/2025',
      status: 'ACTIVE',
      effective_status: today() <= '2028-01-10' ? 'ACTIVE' : 'EXPIRED',
      issue_date: '2025-01-10',
      issue_date2: '2025-01-12',
      valid_for: 3,
      valid_for_type: 'YEAR',
      valid_date: null,
      expired_date: '2028-01-10',
      surveillance_date: '2099-01-10',
      decision_date: null,
      original_issue_date: null,
      scope: null,
      sector_codes: [],
      sites: [],
      revision: 0,
      surveillance_overdue: false,
      days_left: daysBetween(today(), '2028-01-10'),
      is_accredited: 'true',
      desc: 'Ruang lingkup:\nproduksi',
      qrcode: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const rows = await auditRows(body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'create',
      actor_username: 'admin',
      company_id: companyA,
      before: null,
      after: body,
    });
  });

  it.each([
    [
      'a month after 31 January is the last day of February (leap year)',
      '2024-01-31',
      1,
      'MONTH',
      '2024-02-29',
    ],
    ['a month after 31 January 2023 is 28 February', '2023-01-31', 1, 'MONTH', '2023-02-28'],
    ['a year after 29 February is 28 February', '2024-02-29', 1, 'YEAR', '2025-02-28'],
    ['four years after 29 February is 29 February', '2024-02-29', 4, 'YEAR', '2028-02-29'],
    ['days run over the year end', '2024-12-25', 10, 'DAY', '2025-01-04'],
    ['a day after 28 February 2024 is the leap day', '2024-02-28', 1, 'DAY', '2024-02-29'],
  ])('computes expired_date: %s', async (_label, issue, validFor, type, expected) => {
    const scheme = await createScheme({ issue_date: issue, valid_for: validFor, valid_for_type: type });
    expect(scheme.expired_date).toBe(expected);
  });

  it('never takes expired_date from the client', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', URL, {
      ...schemeBody(clientA, typeA),
      expired_date: '2099-12-31',
    });
    expect422.errors(res, { expired_date: 'Field tidak dikenal' });
  });

  it('answers 422 with Indonesian field errors', async () => {
    const empty = await call(ctx.app, ctx.adminToken, 'POST', URL, {});
    expect422.including(empty, {
      certificate_id: 'Klien wajib diisi',
      certification_id: 'Sertifikat wajib diisi',
      cert_number: 'Nomor Sertifikat wajib diisi',
      status: 'Status wajib diisi',
      issue_date: 'Tanggal Terbit wajib diisi',
      valid_for: 'Masa Berlaku wajib diisi',
      valid_for_type: 'Satuan Masa Berlaku wajib diisi',
      is_accredited: 'Terakreditasi wajib diisi',
    });
    const bad = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      URL,
      schemeBody(clientA, typeA, {
        status: 'EXPIRED',
        issue_date: '2023-02-29',
        valid_for: 0,
        valid_for_type: 'WEEK',
        is_accredited: 'true',
      }),
    );
    expect422.errors(bad, {
      status: 'Status tidak valid',
      issue_date: 'Tanggal Terbit harus berupa tanggal yang valid (YYYY-MM-DD)',
      valid_for: 'Masa Berlaku minimal 1',
      valid_for_type: 'Satuan Masa Berlaku tidak valid',
      accredited_id: 'Akreditasi wajib diisi',
    });
  });

  it('clears the accreditation body of a scheme that is not accredited', async () => {
    const scheme = await createScheme({ is_accredited: 'false', accredited_id: bodyA });
    expect(scheme).toMatchObject({ is_accredited: 'false', accredited_id: null, accredited: null });
  });

  it("refuses another company's certification type, accreditation body or company_id (422 on the field)", async () => {
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      URL,
      schemeBody(clientA, typeB, { is_accredited: 'true', accredited_id: bodyB, company_id: companyB }),
    );
    expect422.errors(res, {
      company_id: 'Perusahaan harus sama dengan perusahaan klien',
      certification_id: 'Sertifikat tidak ditemukan pada perusahaan klien',
      accredited_id: 'Akreditasi tidak ditemukan pada perusahaan klien',
    });
    const unknownType = await call(ctx.app, ctx.adminToken, 'POST', URL, schemeBody(clientA, newId()));
    expect422.errors(unknownType, {
      certification_id: 'Sertifikat tidak ditemukan pada perusahaan klien',
    });
    expect(await ctx.database.db.select().from(schemes).where(eq(schemes.certification_id, typeB))).toEqual(
      [],
    );
  });

  it('answers 404 for an unknown client', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', URL, schemeBody(newId(), typeA));
    expect(res.statusCode).toBe(404);
  });

  it('keeps cert_number unique across all companies, trimmed and in any case', async () => {
    await createScheme({ cert_number: 'EMS/777/2025' });
    const dup = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      URL,
      schemeBody(clientB, typeB, { cert_number: '  ems/777/2025 ' }),
    );
    expect422.errors(dup, { cert_number: 'Nomor sertifikat sudah digunakan' });
    const other = await createScheme({ cert_number: 'EMS/778/2025' });
    const renamed = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${other.id}`,
      schemeBody(clientA, typeA, { cert_number: 'Ems/777/2025' }),
    );
    expect422.errors(renamed, { cert_number: 'Nomor sertifikat sudah digunakan' });
  });
});

describe('derived fields', () => {
  it('shows an ACTIVE scheme past its expiry as EXPIRED, with no days left and no overdue surveillance', async () => {
    const scheme = await createScheme({
      issue_date: '2020-01-01',
      valid_for: 1,
      valid_for_type: 'YEAR',
      surveillance_date: '2020-06-01',
    });
    expect(scheme).toMatchObject({
      status: 'ACTIVE',
      effective_status: 'EXPIRED',
      expired_date: '2021-01-01',
      days_left: null,
      surveillance_overdue: false,
    });
    const [row] = await ctx.database.db.select().from(schemes).where(eq(schemes.id, scheme.id));
    expect(row!.status).toBe('ACTIVE');
  });

  it('is still ACTIVE on its expiry day, with 0 days left', async () => {
    const issue = addDays(today(), -10);
    const scheme = await createScheme({ issue_date: issue, valid_for: 10, valid_for_type: 'DAY' });
    expect(scheme).toMatchObject({ expired_date: today(), effective_status: 'ACTIVE', days_left: 0 });
  });

  it('flags an overdue surveillance of an active scheme, and counts the days left', async () => {
    const issue = addDays(today(), -30);
    const scheme = await createScheme({
      issue_date: issue,
      valid_for: 100,
      valid_for_type: 'DAY',
      surveillance_date: addDays(today(), -1),
    });
    expect(scheme).toMatchObject({ effective_status: 'ACTIVE', surveillance_overdue: true, days_left: 70 });
    const onTime = await createScheme({
      issue_date: issue,
      valid_for: 100,
      valid_for_type: 'DAY',
      surveillance_date: today(),
    });
    expect(onTime.surveillance_overdue).toBe(false);
    const suspended = await createScheme({
      issue_date: issue,
      valid_for: 100,
      valid_for_type: 'DAY',
      status: 'SUSPENDED',
      surveillance_date: addDays(today(), -1),
    });
    expect(suspended).toMatchObject({
      effective_status: 'SUSPENDED',
      surveillance_overdue: false,
      days_left: null,
    });
  });
});

describe('PUT /api/company-certificate-scheme/:id', () => {
  it('updates a scheme, computes the expiry again and audits before and after', async () => {
    const scheme = await createScheme({ status: 'DRAFT' });
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${scheme.id}`,
      schemeBody(clientA, typeA, {
        cert_number: scheme.cert_number,
        status: 'ACTIVE',
        issue_date: '2024-01-31',
        valid_for: 1,
        valid_for_type: 'MONTH',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: scheme.id, status: 'ACTIVE', expired_date: '2024-02-29' });
    const rows = await auditRows(scheme.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update']);
    expect(rows[1]!.before).toMatchObject({ status: 'DRAFT' });
    expect(rows[1]!.after).toEqual(res.json());
  });

  it('answers 404 for an unknown scheme and 422 for bad input', async () => {
    expect(
      (await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${newId()}`, schemeBody(clientA, typeA)))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/not-an-id`, schemeBody(clientA, typeA))).statusCode,
    ).toBe(404);
    const scheme = await createScheme();
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${scheme.id}`, {
      ...schemeBody(clientA, typeA),
      cert_number: ' ',
    });
    expect422.errors(res, { cert_number: 'Nomor Sertifikat wajib diisi' });
  });

  it("refuses to point a scheme at another company's type", async () => {
    const scheme = await createScheme();
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${scheme.id}`, schemeBody(clientA, typeB));
    expect422.errors(res, {
      certification_id: 'Sertifikat tidak ditemukan pada perusahaan klien',
    });
  });
});

describe('GET /api/generate-qr-scheme/:id', () => {
  it('makes and stores a QR that decodes to the public check URL, and a new number makes a new QR', async () => {
    const scheme = await createScheme({ cert_number: 'QMS/015/2025' });
    const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/generate-qr-scheme/${scheme.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ qrcode: string; id: string }>();
    expect(body).toMatchObject({ id: scheme.id, cert_number: 'QMS/015/2025' });
    expect(Buffer.from(body.qrcode, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // Signed over number|client|type|issue|expiry (docs/rules.md#signed-certificates), checked against the published key.
    expect(await verifiedQrUrl(ctx.app, body.qrcode, signedFields('QMS/015/2025'))).toBe(
      `${BASE}/check-certification-company?cert=QMS%2F015%2F2025`,
    );
    const [row] = await ctx.database.db.select().from(schemes).where(eq(schemes.id, scheme.id));
    expect(row!.qrcode).toBe(body.qrcode);
    expect((await auditRows(scheme.id)).map((r) => r.action)).toEqual(['create', 'update']);

    // An edit that keeps the number keeps the QR; a new number gets a QR of its own.
    const same = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${scheme.id}`,
      schemeBody(clientA, typeA, { cert_number: 'QMS/015/2025', desc: 'x' }),
    );
    expect(same.json().qrcode).toBe(body.qrcode);
    const renamed = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${scheme.id}`,
      schemeBody(clientA, typeA, { cert_number: 'QMS/016/2025' }),
    );
    expect(renamed.statusCode).toBe(200);
    expect(await verifiedQrUrl(ctx.app, renamed.json().qrcode, signedFields('QMS/016/2025'))).toBe(
      `${BASE}/check-certification-company?cert=QMS%2F016%2F2025`,
    );
  });

  it('leaves a scheme without a QR without one when its number changes', async () => {
    const scheme = await createScheme();
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${scheme.id}`,
      schemeBody(clientA, typeA, { cert_number: `${scheme.cert_number}-R1` }),
    );
    expect(res.json()).toMatchObject({ qrcode: null });
  });

  it('answers 404 for an unknown scheme', async () => {
    expect(
      (await call(ctx.app, ctx.adminToken, 'GET', `/api/generate-qr-scheme/${newId()}`)).statusCode,
    ).toBe(404);
  });
});

describe('GET /api/company-certificate-scheme/:id/history', () => {
  it('lists the creation and every change of status, newest first; an edit that keeps the status adds nothing', async () => {
    const scheme = await createScheme({ status: 'DRAFT', issue_date: '2024-05-02' });
    const edit = (over: Record<string, unknown>, token = ctx.adminToken) =>
      call(
        ctx.app,
        token,
        'PUT',
        `${URL}/${scheme.id}`,
        schemeBody(clientA, typeA, { cert_number: scheme.cert_number, issue_date: '2024-05-02', ...over }),
      );
    expect((await edit({ status: 'DRAFT', desc: 'catatan' })).statusCode).toBe(200);
    expect((await edit({ status: 'ACTIVE' }, scoped)).statusCode).toBe(200);
    expect((await edit({ status: 'SUSPENDED' })).statusCode).toBe(200);
    const res = await call(ctx.app, viewer, 'GET', `${URL}/${scheme.id}/history`);
    expect(res.statusCode).toBe(200);
    const history =
      res.json<{ from: string | null; to: string; at: string; effective_from: string; by: string }[]>();
    expect(history.map(({ from, to, effective_from, by }) => ({ from, to, effective_from, by }))).toEqual([
      { from: 'ACTIVE', to: 'SUSPENDED', effective_from: today(), by: 'admin' },
      { from: 'DRAFT', to: 'ACTIVE', effective_from: today(), by: 'staf.alpha' },
      { from: null, to: 'DRAFT', effective_from: '2024-05-02', by: 'admin' },
    ]);
    const times = history.map((h) => Date.parse(h.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('answers 404 for an unknown scheme', async () => {
    expect((await call(ctx.app, ctx.adminToken, 'GET', `${URL}/${newId()}/history`)).statusCode).toBe(404);
  });
});

describe('DELETE /api/company-certificate-scheme/:id', () => {
  it('deletes a scheme (nothing refers to one) and audits it', async () => {
    const scheme = await createScheme();
    const res = await call(ctx.app, ctx.adminToken, 'DELETE', `${URL}/${scheme.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MESSAGES.deleted });
    expect(await ctx.database.db.select().from(schemes).where(eq(schemes.id, scheme.id))).toEqual([]);
    const rows = await auditRows(scheme.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'delete']);
    expect(rows[1]).toMatchObject({ before: { id: scheme.id, status: 'ACTIVE' }, after: null });
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `${URL}/${scheme.id}`)).statusCode).toBe(404);
    expect((await call(ctx.app, ctx.adminToken, 'GET', `${URL}/${scheme.id}/history`)).statusCode).toBe(404);
  });
});

describe('access', () => {
  let schemeA: string;
  let schemeB: string;
  beforeAll(async () => {
    schemeA = (await createScheme()).id;
    schemeB = (await createScheme({}, ctx.adminToken, clientB)).id;
  });

  it('answers 401 without a token on every route', async () => {
    for (const [method, url] of [
      ['POST', URL],
      ['PUT', `${URL}/${schemeA}`],
      ['DELETE', `${URL}/${schemeA}`],
      ['GET', `/api/generate-qr-scheme/${schemeA}`],
      ['GET', `${URL}/${schemeA}/history`],
    ] as const) {
      const res = await call(
        ctx.app,
        null,
        method,
        url,
        method === 'POST' || method === 'PUT' ? schemeBody(clientA, typeA) : undefined,
      );
      expect([method, url, res.statusCode]).toEqual([method, url, 401]);
    }
  });

  it('answers 403 to a user who may only view, on every write', async () => {
    for (const [method, url] of [
      ['POST', URL],
      ['PUT', `${URL}/${schemeA}`],
      ['DELETE', `${URL}/${schemeA}`],
      ['GET', `/api/generate-qr-scheme/${schemeA}`],
    ] as const) {
      const res = await call(
        ctx.app,
        viewer,
        method,
        url,
        method === 'POST' || method === 'PUT' ? schemeBody(clientA, typeA) : undefined,
      );
      expect([method, url, res.statusCode]).toEqual([method, url, 403]);
    }
    const [row] = await ctx.database.db.select().from(schemes).where(eq(schemes.id, schemeA));
    expect(row!.qrcode).toBeNull();
  });

  it("lets a user scoped to one company change only that company's schemes", async () => {
    const own = await call(ctx.app, scoped, 'POST', URL, schemeBody(clientA, typeA));
    expect(own.statusCode).toBe(201);
    const foreign = await call(ctx.app, scoped, 'POST', URL, schemeBody(clientB, typeB));
    expect(foreign.statusCode).toBe(404);
    // Moving an own scheme under another company's client is refused like an unknown client.
    const moved = await call(ctx.app, scoped, 'PUT', `${URL}/${schemeA}`, schemeBody(clientB, typeB));
    expect(moved.statusCode).toBe(404);
    for (const [method, url] of [
      ['PUT', `${URL}/${schemeB}`],
      ['DELETE', `${URL}/${schemeB}`],
      ['GET', `/api/generate-qr-scheme/${schemeB}`],
      ['GET', `${URL}/${schemeB}/history`],
    ] as const) {
      const res = await call(
        ctx.app,
        scoped,
        method,
        url,
        method === 'PUT' ? schemeBody(clientB, typeB) : undefined,
      );
      expect([method, url, res.statusCode]).toEqual([method, url, 404]);
    }
    const [row] = await ctx.database.db.select().from(schemes).where(eq(schemes.id, schemeB));
    expect(row).toMatchObject({ certificate_id: clientB, qrcode: null });
    expect((await call(ctx.app, scoped, 'GET', `/api/generate-qr-scheme/${schemeA}`)).statusCode).toBe(200);
    expect((await call(ctx.app, scoped, 'DELETE', `${URL}/${schemeA}`)).json()).toEqual({
      success: true,
      message: MESSAGES.deleted,
    });
  });
});
