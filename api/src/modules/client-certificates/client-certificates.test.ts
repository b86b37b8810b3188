// Long file: the client resource's rules (create and update, list, detail with its schemes, delete, access) share the companies, types and scoped users built once.
import { and, eq } from 'drizzle-orm';
import { type ClientCertificateDetail, daysBetween, MESSAGES, todayIn } from '@sertifikasi/shared-contracts';
import { auditLog, clientCertificates, companies } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { call, useTestContext, expect422 } from '../../../test/helpers';
import { type Fields, type FilePart, pngPart, sendForm } from '../../../test/forms';
import { schemeBody } from '../../../test/forms';

const TZ = 'Asia/Jakarta';
const URL = '/api/company-certificate';

const ctx = useTestContext({ TZ });
let companyA: string;
let companyB: string;
let typeA: string;
let bodyA: string;
/** company-certificate with every action, scope: company A only. */
let scoped: string;
/** company-certificate (view) only, scope ALL. */
let viewer: string;
let png: FilePart;

beforeAll(async () => {
  companyA = await ctx.make.company('PT Sertifikasi Alpha');
  companyB = await ctx.make.company('PT Sertifikasi Beta');
  typeA = await ctx.make.certificationType(companyA, 'ISO 9001:2015');
  bodyA = await ctx.make.accreditationBody(companyA, 'KAN');
  const full = await ctx.make.role('Staf Sertifikasi', [
    'company-certificate',
    'company-certificate:create',
    'company-certificate:edit',
    'company-certificate:delete',
  ]);
  const view = await ctx.make.role('Lihat Sertifikasi', ['company-certificate']);
  scoped = (await ctx.make.user({ username: 'staf.alpha', roles_id: full, company_ids: [companyA] })).token;
  viewer = (await ctx.make.user({ username: 'pengamat', roles_id: view, company_ids: 'ALL' })).token;
  png = await pngPart('green', 'logo.png');
});

const postForm = (url: string, fields: Fields, token: string | null = ctx.adminToken) =>
  sendForm(ctx.app, token, url, fields);

interface Client {
  id: string;
  company_id: string;
  company: { id: string; name: string };
  name: string;
  certificate_number: string;
  region: string;
  logo: string | null;
}
interface List<T> {
  total: number;
  data: T[];
}

const clientInput = (companyId: string, over: Record<string, unknown> = {}) => ({
  company_id: companyId,
  name: `PT Klien ${newId().slice(0, 6)}`,
  certificate_number: `CL-${newId().slice(0, 8)}`,
  region: 'Jakarta',
  ...over,
});

async function createClient(companyId: string, over: Record<string, unknown> = {}, token = ctx.adminToken) {
  const res = await call(ctx.app, token, 'POST', URL, clientInput(companyId, over));
  if (res.statusCode !== 201) throw new Error(`client: ${res.statusCode} ${res.body}`);
  return res.json<Client>();
}

const list = async (query: string, token = ctx.adminToken) => {
  const res = await call(ctx.app, token, 'GET', `${URL}?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<List<Client>>();
};

describe('creating and updating clients', () => {
  it('creates a client from a form with a logo, and audits it', async () => {
    // Sent and answered as they are.
    const kept = {
      certificate_number: 'NM-001',
      region: 'Jawa Barat',
      scope: 'Produksi kemasan plastik',
      ea_code: '14',
      nace_code: '22.2',
      president: 'Budi Santoso',
      management_representative: 'Sri Wahyuni',
      foundation_day: '1998-04-01',
      phone: '022-7201234',
      email: 'info@nusantara.co.id',
      website: 'https://nusantara.co.id',
    };
    const res = await postForm(URL, {
      ...kept,
      company_id: companyA,
      name: '  PT Nusantara Makmur  ',
      address: 'Jl. Asia Afrika 8\nBandung',
      employees_number: '120',
      employees_active: '',
      handphone: '',
      fax: '',
      logo: '',
      logo_file: png,
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(String),
      company_id: companyA,
      company: { id: companyA, name: 'PT Sertifikasi Alpha' },
      ...kept,
      name: 'PT Nusantara Makmur',
      logo: expect.stringMatching(/^[0-9a-f-]{36}\.png$/),
      // A browser's form data sends line breaks as CRLF.
      address: 'Jl. Asia Afrika 8\r\nBandung',
      // The structured address and the English name, none sent: empty, the country Indonesia.
      name_en: null,
      city: null,
      province: null,
      postcode: null,
      country: 'ID',
      employees_number: 120,
      employees_active: null,
      handphone: null,
      fax: null,
      // 'Kirim pengingat ke klien' is on unless turned off.
      send_reminders: 'true',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const image = await ctx.app.inject({ method: 'GET', url: `/images/${body.logo}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'company-certificate'), eq(auditLog.entity_id, body.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'create', company_id: companyA, after: body });
  });

  it('answers 422 with Indonesian field errors', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', URL, {
      email: 'bukan-email',
      website: 'bukan url',
      foundation_day: '2023-02-29',
      employees_number: 'banyak',
    });
    expect422.including(res, {
      company_id: 'Perusahaan wajib diisi',
      name: 'Nama Klien wajib diisi',
      certificate_number: 'Nomor Sertifikat wajib diisi',
      region: 'Region wajib diisi',
      email: 'Email harus berupa alamat email yang valid',
      website: expect.stringMatching(/^Website harus berupa URL yang valid/),
      foundation_day: 'Tanggal Berdiri harus berupa tanggal yang valid (YYYY-MM-DD)',
      employees_number: 'Jumlah Karyawan harus berupa angka',
    });
  });

  it('keeps certificate_number unique within a company, trimmed and in any case', async () => {
    await createClient(companyA, { certificate_number: 'UNIQ-42' });
    const dup = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      URL,
      clientInput(companyA, { certificate_number: ' uniq-42 ' }),
    );
    expect422.errors(dup, { certificate_number: 'Nomor sertifikat sudah digunakan' });
    // Another company may use the same number.
    const other = await createClient(companyB, { certificate_number: 'UNIQ-42' });
    expect(other.certificate_number).toBe('UNIQ-42');
    const second = await createClient(companyA);
    const renamed = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${second.id}`,
      clientInput(companyA, { certificate_number: 'Uniq-42' }),
    );
    expect422.errors(renamed, { certificate_number: 'Nomor sertifikat sudah digunakan' });
  });

  it('updates a client by POST with _method=PUT (keeping its logo) and by PUT', async () => {
    const created = await postForm(URL, {
      ...clientInput(companyA, { name: 'PT Lama' }),
      logo_file: png,
    });
    const client = created.json<Client>();
    const viaPost = await postForm(`${URL}/${client.id}`, {
      ...clientInput(companyA, { name: 'PT Baru', certificate_number: client.certificate_number }),
      logo: client.logo!,
      _method: 'PUT',
    });
    expect(viaPost.statusCode).toBe(200);
    expect(viaPost.json()).toMatchObject({ id: client.id, name: 'PT Baru', logo: client.logo });
    const viaPut = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${client.id}`, {
      ...clientInput(companyA, { name: 'PT Baru Lagi', certificate_number: client.certificate_number }),
      logo: '',
    });
    expect(viaPut.statusCode).toBe(200);
    expect(viaPut.json()).toMatchObject({ name: 'PT Baru Lagi', logo: null });
    expect(
      (await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${newId()}`, clientInput(companyA))).statusCode,
    ).toBe(404);
  });

  it("turns 'Kirim pengingat ke klien' off and on; a save without the switch keeps it", async () => {
    const created = await call(ctx.app, ctx.adminToken, 'POST', URL, {
      ...clientInput(companyA, { name: 'PT Pengingat' }),
      send_reminders: 'false',
    });
    expect(created.json()).toMatchObject({ send_reminders: 'false' });
    const client = created.json<Client>();
    const keep = {
      ...clientInput(companyA, { name: 'PT Pengingat', certificate_number: client.certificate_number }),
    };
    const kept = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${client.id}`, keep);
    expect(kept.json()).toMatchObject({ send_reminders: 'false' });
    const on = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${client.id}`, {
      ...keep,
      send_reminders: true,
    });
    expect(on.json()).toMatchObject({ send_reminders: 'true' });
    const bad = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${client.id}`, {
      ...keep,
      send_reminders: 'ya',
    });
    expect(bad.json().errors).toEqual({ send_reminders: 'Kirim pengingat ke klien tidak valid' });
  });
});

describe('GET /api/company-certificate', () => {
  let alpha: Client;
  beforeAll(async () => {
    alpha = await createClient(companyA, {
      name: 'CV Cari Aku',
      certificate_number: 'SRCH-900',
      region: 'Kalimantan Timur',
    });
    await createClient(companyB, { name: 'PT Zebra Cari', certificate_number: 'SRCH-100', region: 'Bali' });
    await createClient(companyA, {
      name: 'PT Anggrek Cari',
      certificate_number: 'SRCH-500',
      region: 'Papua',
    });
  });

  it('searches name, number and region, ignoring case', async () => {
    expect((await list('search=cv%20cari')).data.map((c) => c.id)).toEqual([alpha.id]);
    expect((await list('search=srch-9')).data.map((c) => c.id)).toEqual([alpha.id]);
    expect((await list('search=KALIMANTAN')).data.map((c) => c.id)).toEqual([alpha.id]);
    expect((await list('search=tidak-ada-yang-cocok')).total).toBe(0);
  });

  it('orders by name by default and by an allowed sort key on request', async () => {
    expect((await list('search=cari')).data.map((c) => c.name)).toEqual([
      'CV Cari Aku',
      'PT Anggrek Cari',
      'PT Zebra Cari',
    ]);
    expect(
      (await list('search=cari&sort=certificate_number&order=desc')).data.map((c) => c.certificate_number),
    ).toEqual(['SRCH-900', 'SRCH-500', 'SRCH-100']);
    expect((await list('search=cari&sort=region')).data.map((c) => c.region)).toEqual([
      'Bali',
      'Kalimantan Timur',
      'Papua',
    ]);
    const bad = await call(ctx.app, ctx.adminToken, 'GET', `${URL}?sort=address`);
    expect(bad.statusCode).toBe(422);
  });

  it('filters by company and pages', async () => {
    const onlyB = await list(`search=cari&company_id=${companyB}`);
    expect(onlyB.data.map((c) => c.name)).toEqual(['PT Zebra Cari']);
    expect(onlyB.data[0]!.company).toEqual({ id: companyB, name: 'PT Sertifikasi Beta' });
    const all = await list('company_id=ALL&paginate=20&page=1');
    const total = (await ctx.database.db.select().from(clientCertificates)).length;
    expect(all.total).toBe(total);
  });

  it('shows a scoped user only the clients of their companies', async () => {
    const mine = await list('company_id=ALL&paginate=200', scoped);
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.data.every((c) => c.company_id === companyA)).toBe(true);
    expect((await call(ctx.app, scoped, 'GET', `${URL}?company_id=${companyB}`)).statusCode).toBe(403);
  });
});

describe('GET /api/company-certificate/:company_id/:id', () => {
  it('answers the client with its company settings and its schemes, newest issue first', async () => {
    await ctx.database.db.update(companies).set({ simple_dates: true }).where(eq(companies.id, companyA));
    const client = await createClient(companyA, { name: 'PT Detail Lengkap', certificate_number: 'DTL-1' });
    const scheme = (over: Record<string, unknown>) =>
      call(
        ctx.app,
        ctx.adminToken,
        'POST',
        '/api/company-certificate-scheme',
        schemeBody(client.id, typeA, over),
      );
    const older = (
      await scheme({ cert_number: 'DTL-S-1', issue_date: '2020-03-01', valid_for: 1, valid_for_type: 'YEAR' })
    ).json();
    const newer = (
      await scheme({
        cert_number: 'DTL-S-2',
        issue_date: '2025-06-15',
        valid_for: 3,
        valid_for_type: 'YEAR',
        is_accredited: 'true',
        accredited_id: bodyA,
      })
    ).json();
    const res = await call(ctx.app, viewer, 'GET', `${URL}/${companyA}/${client.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<ClientCertificateDetail>();
    expect(body).toMatchObject({
      id: client.id,
      name: 'PT Detail Lengkap',
      certificate_number: 'DTL-1',
      company: {
        id: companyA,
        name: 'PT Sertifikasi Alpha',
        simple_dates: 'true',
        public_certificate_download: 'false',
      },
    });
    expect(body.schema.map((s) => s.id)).toEqual([newer.id, older.id]);
    expect(body.schema[0]).toEqual(newer);
    expect(body.schema[0]).toMatchObject({
      cert_name: 'ISO 9001:2015',
      accredited: 'KAN',
      client_name: 'PT Detail Lengkap',
      certificate_number: 'DTL-1',
      expired_date: '2028-06-15',
      days_left: daysBetween(todayIn(TZ), '2028-06-15'),
      qrcode: null,
    });
    expect(body.schema[1]).toMatchObject({ status: 'ACTIVE', effective_status: 'EXPIRED', days_left: null });
    // ALL stands for any company in scope.
    expect((await call(ctx.app, viewer, 'GET', `${URL}/ALL/${client.id}`)).json()).toEqual(body);
    await ctx.database.db.update(companies).set({ simple_dates: false }).where(eq(companies.id, companyA));
  });

  it('answers 404 for an unknown client, another company, out of scope, or a malformed id', async () => {
    const clientB = await createClient(companyB);
    const clientA = await createClient(companyA);
    for (const [token, url] of [
      [ctx.adminToken, `${URL}/ALL/${newId()}`],
      [ctx.adminToken, `${URL}/${companyB}/${clientA.id}`],
      [ctx.adminToken, `${URL}/${companyA}/not-an-id`],
      [ctx.adminToken, `${URL}/nope/${clientA.id}`],
      [scoped, `${URL}/ALL/${clientB.id}`],
      [scoped, `${URL}/${companyB}/${clientB.id}`],
    ] as const) {
      const res = await call(ctx.app, token, 'GET', url);
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
    expect((await call(ctx.app, scoped, 'GET', `${URL}/ALL/${clientA.id}`)).statusCode).toBe(200);
  });
});

describe('DELETE /api/company-certificate/:id', () => {
  it('refuses to delete a client with schemes, and deletes it once it has none', async () => {
    const client = await createClient(companyA);
    const scheme = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      '/api/company-certificate-scheme',
      schemeBody(client.id, typeA),
    );
    expect(scheme.statusCode).toBe(201);
    const refused = await call(ctx.app, ctx.adminToken, 'DELETE', `${URL}/${client.id}`);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({ success: false, message: MESSAGES.inUseOrder });
    expect(refused.json().message).toBe('Gagal menghapus data karena data ini sudah dipakai di order');
    // Nor can it move to another company while its schemes are there.
    const moved = await call(
      ctx.app,
      ctx.adminToken,
      'PUT',
      `${URL}/${client.id}`,
      clientInput(companyB, { certificate_number: client.certificate_number }),
    );
    expect(moved.statusCode).toBe(422);
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company-certificate-scheme/${scheme.json().id}`);
    const deleted = await call(ctx.app, ctx.adminToken, 'DELETE', `${URL}/${client.id}`);
    expect(deleted.json()).toEqual({ success: true, message: MESSAGES.deleted });
    expect(
      await ctx.database.db.select().from(clientCertificates).where(eq(clientCertificates.id, client.id)),
    ).toEqual([]);
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `${URL}/${client.id}`)).statusCode).toBe(404);
  });
});

describe('access', () => {
  let clientA: Client;
  let clientB: Client;
  beforeAll(async () => {
    clientA = await createClient(companyA);
    clientB = await createClient(companyB);
  });

  /** Each call by `token`'s holder (a create or update sending a valid client of A) answers `status`. */
  async function expectEach(
    token: string | null,
    calls: readonly (readonly ['GET' | 'POST' | 'PUT' | 'DELETE', string])[],
    status: number,
  ) {
    for (const [method, url] of calls) {
      const body = method === 'POST' || method === 'PUT' ? clientInput(companyA) : undefined;
      const res = await call(ctx.app, token, method, url, body);
      expect([method, url, res.statusCode]).toEqual([method, url, status]);
    }
  }

  it('answers 401 without a token', async () => {
    await expectEach(
      null,
      [
        ['GET', URL],
        ['GET', `${URL}/ALL/${clientA.id}`],
        ['POST', URL],
        ['PUT', `${URL}/${clientA.id}`],
        ['DELETE', `${URL}/${clientA.id}`],
      ],
      401,
    );
  });

  it('answers 403 to a user who may only view', async () => {
    await expectEach(
      viewer,
      [
        ['POST', URL],
        ['PUT', `${URL}/${clientA.id}`],
        ['DELETE', `${URL}/${clientA.id}`],
      ],
      403,
    );
    expect(
      (await postForm(`${URL}/${clientA.id}`, { ...clientInput(companyA), _method: 'PUT' }, viewer))
        .statusCode,
    ).toBe(403);
  });

  it("lets a scoped user change only their company's clients", async () => {
    expect((await call(ctx.app, scoped, 'POST', URL, clientInput(companyB))).statusCode).toBe(403);
    expect(
      (await call(ctx.app, scoped, 'PUT', `${URL}/${clientB.id}`, clientInput(companyB))).statusCode,
    ).toBe(404);
    expect((await call(ctx.app, scoped, 'DELETE', `${URL}/${clientB.id}`)).statusCode).toBe(404);
    // An own client cannot be moved into a company outside the scope.
    const moved = await call(
      ctx.app,
      scoped,
      'PUT',
      `${URL}/${clientA.id}`,
      clientInput(companyB, { certificate_number: clientA.certificate_number }),
    );
    expect(moved.statusCode).toBe(403);
    const [row] = await ctx.database.db
      .select()
      .from(clientCertificates)
      .where(eq(clientCertificates.id, clientA.id));
    expect(row!.company_id).toBe(companyA);
    const own = await call(ctx.app, scoped, 'POST', URL, clientInput(companyA, { name: 'PT Milik Alpha' }));
    expect(own.statusCode).toBe(201);
    expect((await call(ctx.app, scoped, 'DELETE', `${URL}/${own.json().id}`)).json()).toEqual({
      success: true,
      message: MESSAGES.deleted,
    });
  });
});
