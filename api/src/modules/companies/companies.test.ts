// Long file: one describe per rule of the company resource (create, list, update, delete, student_count, permissions, scope, audit); split by subject would scatter the shared companies and scoped users.
import { and, count, eq } from 'drizzle-orm';
import { auditLog, companies } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { call, useTestContext, expect422 } from '../../../test/helpers';

const ctx = useTestContext();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A multipart/form-data body for app.inject, built the way a browser builds it. */
async function formBody(fields: Record<string, string>): Promise<{
  payload: Buffer;
  headers: Record<string, string>;
}> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

async function postForm(token: string | null, url: string, fields: Record<string, string>) {
  const { payload, headers } = await formBody(fields);
  return ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

const companyCount = async () => (await ctx.database.db.select({ n: count() }).from(companies))[0]!.n;
const companyRow = async (id: string) =>
  (await ctx.database.db.select().from(companies).where(eq(companies.id, id)))[0];

interface CompanyBody {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
  simple_dates: string;
  public_certificate_download: string;
}
interface ListBody<T> {
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
  data: T[];
}

describe('POST /api/company', () => {
  it('creates a company from JSON and answers 201 with the stored record', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: '  PT Sucofindo Jaya  ',
      email: 'info@sucofindo.co.id',
      phone: '021-555-0101',
      address: 'Jl. Raya Pasar Minggu 34, Jakarta',
      website: 'https://sucofindo.co.id',
      simple_dates: 'true',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'PT Sucofindo Jaya',
      email: 'info@sucofindo.co.id',
      phone: '021-555-0101',
      address: 'Jl. Raya Pasar Minggu 34, Jakarta',
      website: 'https://sucofindo.co.id',
      logo: null,
      logo_cert: null,
      ttd_cert: null,
      simple_dates: 'true',
      public_certificate_download: 'false',
      student_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
    const row = await companyRow(body.id);
    expect(row).toMatchObject({
      name: 'PT Sucofindo Jaya',
      simple_dates: true,
      public_certificate_download: false,
    });
  });

  it('creates a company from multipart/form-data, flags as strings, empty optional text as null', async () => {
    const res = await postForm(ctx.adminToken, '/api/company', {
      name: 'PT Multipart Abadi',
      email: '',
      phone: '',
      address: '',
      website: 'https://multipart.co.id',
      logo: '',
      logo_cert: '',
      ttd_cert: '',
      simple_dates: 'false',
      public_certificate_download: 'true',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'PT Multipart Abadi',
      email: null,
      phone: null,
      address: null,
      logo: null,
      simple_dates: 'false',
      public_certificate_download: 'true',
      student_count: 0,
    });
  });

  it('refuses invalid input with 422 and Indonesian field errors, writing nothing', async () => {
    const before = await companyCount();
    const missing = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      website: 'https://a.co.id',
    });
    expect422.field(missing, 'name', 'Nama Perusahaan wajib diisi');

    const blank = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: '   ',
      website: '',
    });
    expect422.including(blank, {
      name: 'Nama Perusahaan wajib diisi',
      website: 'Website wajib diisi',
    });

    const bad = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Salah Isi',
      website: 'bukan url',
      email: 'x@',
      simple_dates: 'ya',
    });
    expect422.errors(bad, {
      website: 'Website harus berupa URL yang valid (contoh: https://contoh.co.id)',
      email: 'Email harus berupa alamat email yang valid',
      simple_dates: 'Tanggal Sederhana tidak valid',
    });

    const unknown = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Field Asing',
      website: 'https://asing.co.id',
      student_count: 99,
    });
    expect422.errors(unknown, { student_count: 'Field tidak dikenal' });

    const wrongType = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: ['PT Array'],
      website: 'https://array.co.id',
    });
    // A wrong type is refused with the field named.
    expect422.errors(wrongType, { name: 'Nama Perusahaan harus berupa teks' });
    const objectName = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: { $ne: null },
      website: 'https://object.co.id',
    });
    expect422.errors(objectName, { name: 'Nama Perusahaan harus berupa teks' });

    const huge = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'x'.repeat(5000),
      website: 'https://huge.co.id',
    });
    expect422.errors(huge, { name: 'Nama Perusahaan maksimal 200 karakter' });

    const formMissing = await postForm(ctx.adminToken, '/api/company', {
      name: '',
      website: 'https://x.co.id',
    });
    expect422.errors(formMissing, { name: 'Nama Perusahaan wajib diisi' });

    expect(await companyCount()).toBe(before);
  });

  it('keeps names unique ignoring case: 422 with errors.name', async () => {
    await ctx.make.company('PT Unik Sekali');
    const before = await companyCount();
    for (const name of ['pt unik sekali', 'PT UNIK SEKALI', ' PT Unik Sekali ']) {
      const res = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
        name,
        website: 'https://unik.co.id',
      });
      expect422.including(res, { name: 'Nama perusahaan sudah digunakan' });
    }
    expect(await companyCount()).toBe(before);
  });
});

describe('GET /api/company', () => {
  const names = Array.from({ length: 23 }, (_, i) => `Cabang Paging ${String(i + 1).padStart(2, '0')}`);
  beforeAll(async () => {
    for (const name of names) await ctx.make.company(name);
    await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Pencarian Khusus',
      email: 'Kontak@CariEmail.example',
      phone: '+62 811 7777 123',
      website: 'https://situs-pencarian.example',
    });
  });

  it('answers the list shape, sorted by name, 20 per page by default', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=cabang paging');
    expect(res.statusCode).toBe(200);
    const body = res.json<ListBody<CompanyBody>>();
    expect(body).toMatchObject({ total: 23, per_page: 20, current_page: 1, last_page: 2, from: 1, to: 20 });
    expect(body.data.map((c) => c.name)).toEqual(names.slice(0, 20));
    expect(Object.keys(body).sort()).toEqual(
      ['current_page', 'data', 'from', 'last_page', 'per_page', 'to', 'total'].sort(),
    );

    const page2 = (
      await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=Cabang+Paging&page=2')
    ).json<ListBody<CompanyBody>>();
    expect(page2).toMatchObject({ total: 23, current_page: 2, last_page: 2, from: 21, to: 23 });
    expect(page2.data.map((c) => c.name)).toEqual(names.slice(20));

    const beyond = (
      await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=Cabang+Paging&page=9')
    ).json<ListBody<CompanyBody>>();
    expect(beyond).toMatchObject({ total: 23, data: [], from: null, to: null, last_page: 2 });

    const fifty = (
      await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=Cabang%20Paging&paginate=50')
    ).json<ListBody<CompanyBody>>();
    expect(fifty).toMatchObject({ total: 23, per_page: 50, last_page: 1, from: 1, to: 23 });
  });

  it('accepts only 20, 50, 100 or 200 per page and a page from 1', async () => {
    for (const query of ['paginate=30', 'paginate=abc', 'paginate=0', 'page=0', 'page=-1', 'page=1.5']) {
      const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/company?${query}`);
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('validation');
    }
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/company?paginate=30');
    expect(res.json().errors).toEqual({ paginate: 'Jumlah per halaman harus 20, 50, 100 atau 200' });
    const unknown = await call(ctx.app, ctx.adminToken, 'GET', '/api/company?sort=name');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty('sort');
  });

  it('refuses company_id like any unknown parameter (422); the company-owned lists still take it', async () => {
    const [first] = (await call(ctx.app, ctx.adminToken, 'GET', '/api/company')).json<ListBody<CompanyBody>>()
      .data;
    for (const value of ['ALL', first!.id]) {
      const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/company?company_id=${value}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation', errors: { company_id: expect.any(String) } });
      const owned = await call(ctx.app, ctx.adminToken, 'GET', `/api/accredited?company_id=${value}`);
      expect(owned.statusCode).toBe(200);
    }
  });

  it('searches name, email, phone and website, trimmed and ignoring case', async () => {
    const find = async (search: string) =>
      (await call(ctx.app, ctx.adminToken, 'GET', `/api/company?search=${encodeURIComponent(search)}`)).json<
        ListBody<CompanyBody>
      >();
    for (const search of [
      'pencarian khusus',
      'kontak@cariemail',
      '7777 123',
      'SITUS-PENCARIAN',
      '  khusus  ',
    ]) {
      const body = await find(search);
      expect(body.total).toBe(1);
      expect(body.data[0]!.name).toBe('PT Pencarian Khusus');
    }
    expect((await find('tidak-ada-yang-cocok')).total).toBe(0);
    // LIKE wildcards are taken literally.
    expect((await find('%')).total).toBe(0);
    expect((await find('_')).total).toBe(0);
    // An empty search lists everything.
    expect((await find('')).total).toBe(await companyCount());
  });
});

describe('updating a company', () => {
  let id: string;
  beforeAll(async () => {
    id = await ctx.make.company('PT Akan Diubah');
  });

  it('updates through POST company/{id} with _method=PUT as multipart', async () => {
    // Every field sent comes back as sent.
    const fields = {
      name: 'PT Sudah Diubah',
      email: 'baru@diubah.co.id',
      phone: '0812',
      address: 'Bandung',
      website: 'https://diubah.co.id',
      simple_dates: 'true',
      public_certificate_download: 'true',
    };
    const res = await postForm(ctx.adminToken, `/api/company/${id}`, { _method: 'PUT', ...fields });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, ...fields, student_count: 0 });
    expect(await companyRow(id)).toMatchObject({ name: 'PT Sudah Diubah', simple_dates: true });
  });

  it('updates through a plain PUT with JSON; omitted optional fields are cleared, flags default to false', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: 'PT Diubah Lagi',
      website: 'https://lagi.co.id',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id,
      name: 'PT Diubah Lagi',
      email: null,
      website: 'https://lagi.co.id',
      simple_dates: 'false',
      public_certificate_download: 'false',
    });
    expect(new Date(body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(body.created_at).getTime());
  });

  it('keeps its own name in another case, but refuses another company’s name', async () => {
    const own = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: 'pt diubah lagi',
      website: 'https://lagi.co.id',
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().name).toBe('pt diubah lagi');

    await ctx.make.company('PT Nama Orang Lain');
    const taken = await postForm(ctx.adminToken, `/api/company/${id}`, {
      _method: 'PUT',
      name: 'PT NAMA ORANG LAIN',
      website: 'https://lagi.co.id',
    });
    expect422.errors(taken, { name: 'Nama perusahaan sudah digunakan' });
    expect((await companyRow(id))!.name).toBe('pt diubah lagi');
  });

  it('refuses invalid input with 422 and leaves the company unchanged', async () => {
    const before = await companyRow(id);
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: 'PT Tidak Tersimpan',
      website: 'ftp//rusak',
      email: 'bukan-email',
    });
    expect422.including(res, {
      website: expect.stringContaining('URL'),
      email: 'Email harus berupa alamat email yang valid',
    });
    const badMethod = await postForm(ctx.adminToken, `/api/company/${id}`, {
      _method: 'DELETE',
      name: 'PT Tidak Tersimpan',
      website: 'https://ok.co.id',
    });
    expect(badMethod.statusCode).toBe(422);
    expect(badMethod.json().errors).toHaveProperty('_method');
    expect(await companyRow(id)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const unknown = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${newId()}`, {
      name: 'PT Hantu',
      website: 'https://hantu.co.id',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: 'Data tidak ditemukan' });
    const malformed = await call(ctx.app, ctx.adminToken, 'PUT', '/api/company/123', {
      name: 'PT Hantu',
      website: 'https://hantu.co.id',
    });
    expect(malformed.statusCode).toBe(404);
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', '/api/company/not-a-uuid')).statusCode).toBe(404);
  });
});

describe('DELETE /api/company/{id}', () => {
  it('deletes an unused company', async () => {
    const id = await ctx.make.company('PT Akan Dihapus');
    const res = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect(await companyRow(id)).toBeUndefined();
    const again = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${id}`);
    expect(again.statusCode).toBe(404);
  });

  /** Deleting the company answers {success:false} (it is in use) and leaves it in place. */
  async function expectKept(id: string) {
    const res = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: false,
      message: 'Gagal menghapus data karena data ini sudah dipakai di product',
    });
    expect(await companyRow(id)).toBeDefined();
  }

  it('refuses to delete a company in a user’s scope: {success:false}, nothing deleted', async () => {
    const id = await ctx.make.company('PT Dipakai User');
    await ctx.make.user({ username: 'pemakai', keys: ['statistik'], company_ids: [id] });
    await expectKept(id);
  });

  it('refuses to delete a company any record refers to', async () => {
    const id = await ctx.make.company('PT Dipakai Akreditasi');
    await ctx.make.accreditationBody(id, 'KAN');
    const audits = async () =>
      (
        await ctx.database.db
          .select({ n: count() })
          .from(auditLog)
          .where(and(eq(auditLog.entity_id, id), eq(auditLog.action, 'delete')))
      )[0]!.n;
    await expectKept(id);
    expect(await audits()).toBe(0);
  });
});

describe('student_count', () => {
  it('counts the company’s training certificates, and those keep it from being deleted', async () => {
    const id = await ctx.make.company('PT Pelatihan Ramai');
    const other = await ctx.make.company('PT Pelatihan Sepi');
    for (const number of ['TC/001', 'TC/002', 'TC/003']) {
      await ctx.make.training(id, {
        certificate_number: number,
        name: `Peserta ${number}`,
        date: '2024-05-01',
      });
    }
    const list = (await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=pt+pelatihan')).json<
      ListBody<CompanyBody & { student_count: number }>
    >();
    expect(list.data.map((c) => [c.name, c.student_count])).toEqual([
      ['PT Pelatihan Ramai', 3],
      ['PT Pelatihan Sepi', 0],
    ]);
    const updated = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: 'PT Pelatihan Ramai',
      website: 'https://ramai.co.id',
    });
    expect(updated.json().student_count).toBe(3);
    const del = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${id}`);
    expect(del.json()).toEqual({
      success: false,
      message: 'Gagal menghapus data karena data ini sudah dipakai di product',
    });
    expect(await companyRow(id)).toBeDefined();
    expect((await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${other}`)).json().success).toBe(
      true,
    );
  });
});

describe('permissions', () => {
  let viewer: string;
  let editorNoCreate: string;
  let target: string;
  beforeAll(async () => {
    target = await ctx.make.company('PT Sasaran Izin');
    const viewRole = await ctx.make.role('Lihat Perusahaan', ['company']);
    viewer = (await ctx.make.user({ username: 'lihat', roles_id: viewRole, company_ids: 'ALL' })).token;
    const noViewRole = await ctx.make.role('Ubah Tanpa Lihat', ['statistik', 'company:edit']);
    editorNoCreate = (await ctx.make.user({ username: 'ubahsaja', roles_id: noViewRole, company_ids: 'ALL' }))
      .token;
  });

  it('401 without a token or with a bad one, on every company route', async () => {
    const routes: [string, string][] = [
      ['GET', '/api/company'],
      ['POST', '/api/company'],
      ['PUT', `/api/company/${target}`],
      ['POST', `/api/company/${target}`],
      ['DELETE', `/api/company/${target}`],
      ['GET', '/api/select/company'],
    ];
    for (const [method, url] of routes) {
      const none = await ctx.app.inject({ method: method as 'GET', url });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({
        code: 'unauthenticated',
        message: 'Sesi anda telah berakhir, silakan login kembali',
      });
      const bad = await call(ctx.app, 'x'.repeat(43), method as 'GET', url);
      expect(bad.statusCode).toBe(401);
    }
  });

  it('403 without the permission of the action, nothing written', async () => {
    const before = await companyRow(target);
    const count0 = await companyCount();
    const create = await call(ctx.app, viewer, 'POST', '/api/company', {
      name: 'PT Baru',
      website: 'https://b.co.id',
    });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toEqual({
      code: 'forbidden',
      message: 'Anda tidak memiliki akses untuk tindakan ini',
    });
    const formCreate = await postForm(viewer, '/api/company', {
      name: 'PT Baru',
      website: 'https://b.co.id',
    });
    expect(formCreate.statusCode).toBe(403);
    const update = await call(ctx.app, viewer, 'PUT', `/api/company/${target}`, {
      name: 'PT Dibajak',
      website: 'https://b.co.id',
    });
    expect(update.statusCode).toBe(403);
    const formUpdate = await postForm(viewer, `/api/company/${target}`, {
      _method: 'PUT',
      name: 'PT Dibajak',
      website: 'https://b.co.id',
    });
    expect(formUpdate.statusCode).toBe(403);
    expect((await call(ctx.app, viewer, 'DELETE', `/api/company/${target}`)).statusCode).toBe(403);
    expect((await call(ctx.app, editorNoCreate, 'GET', '/api/company')).statusCode).toBe(403);
    expect(await companyRow(target)).toEqual(before);
    expect(await companyCount()).toBe(count0);
    // The view permission alone lists.
    expect((await call(ctx.app, viewer, 'GET', '/api/company')).statusCode).toBe(200);
  });
});

describe('company scope', () => {
  let inside: string;
  let inside2: string;
  let outside: string;
  let limited: { id: string; token: string };
  beforeAll(async () => {
    inside = await ctx.make.company('PT Lingkup Dalam');
    inside2 = await ctx.make.company('PT Lingkup Dalam Dua');
    outside = await ctx.make.company('PT Lingkup Luar');
    limited = await ctx.make.user({
      username: 'terbatas',
      keys: ['statistik', 'company', 'company:create', 'company:edit', 'company:delete'],
      company_ids: [inside, inside2],
    });
  });

  it('creating a company needs scope ALL', async () => {
    const before = await companyCount();
    const res = await call(ctx.app, limited.token, 'POST', '/api/company', {
      name: 'PT Dari Terbatas',
      website: 'https://terbatas.co.id',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden', message: expect.any(String) });
    const form = await postForm(limited.token, '/api/company', {
      name: 'PT Dari Terbatas',
      website: 'https://terbatas.co.id',
    });
    expect(form.statusCode).toBe(403);
    expect(await companyCount()).toBe(before);
  });

  it('lists only the companies in scope, whatever the search', async () => {
    const list = (await call(ctx.app, limited.token, 'GET', '/api/company')).json<ListBody<CompanyBody>>();
    expect(list.total).toBe(2);
    expect(list.data.map((c) => c.id).sort()).toEqual([inside, inside2].sort());
    const searched = (await call(ctx.app, limited.token, 'GET', '/api/company?search=Lingkup')).json<
      ListBody<CompanyBody>
    >();
    expect(searched.data.map((c) => c.name)).toEqual(['PT Lingkup Dalam', 'PT Lingkup Dalam Dua']);
    const luar = (await call(ctx.app, limited.token, 'GET', '/api/company?search=luar')).json<
      ListBody<CompanyBody>
    >();
    expect(luar.total).toBe(0);
  });

  it('offers only the companies in scope in select/company and user-info', async () => {
    const select = await call(ctx.app, limited.token, 'GET', '/api/select/company');
    expect(select.statusCode).toBe(200);
    expect(select.json()).toEqual([
      { id: inside, name: 'PT Lingkup Dalam' },
      { id: inside2, name: 'PT Lingkup Dalam Dua' },
    ]);
    const info = (await call(ctx.app, limited.token, 'GET', '/api/user-info')).json();
    expect([...info.company_ids].sort()).toEqual([inside, inside2].sort());
    expect(info.companies).toEqual([
      { id: inside, name: 'PT Lingkup Dalam' },
      { id: inside2, name: 'PT Lingkup Dalam Dua' },
    ]);
  });

  it('edits a company in scope', async () => {
    const res = await call(ctx.app, limited.token, 'PUT', `/api/company/${inside2}`, {
      name: 'PT Lingkup Dalam Dua',
      website: 'https://dalam-dua.co.id',
      phone: '021-1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: inside2, phone: '021-1' });
  });

  it('answers 404 for a company outside scope, as if absent, and changes nothing', async () => {
    const before = await companyRow(outside);
    const put = await call(ctx.app, limited.token, 'PUT', `/api/company/${outside}`, {
      name: 'PT Lingkup Luar Dibajak',
      website: 'https://luar.co.id',
    });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ code: 'not-found', message: 'Data tidak ditemukan' });
    const form = await postForm(limited.token, `/api/company/${outside}`, {
      _method: 'PUT',
      name: 'PT Lingkup Luar Dibajak',
      website: 'https://luar.co.id',
    });
    expect(form.statusCode).toBe(404);
    const del = await call(ctx.app, limited.token, 'DELETE', `/api/company/${outside}`);
    expect(del.statusCode).toBe(404);
    expect(await companyRow(outside)).toEqual(before);
  });

  it('cannot take the name of a company outside scope either (422, nothing written)', async () => {
    const res = await call(ctx.app, limited.token, 'PUT', `/api/company/${inside}`, {
      name: 'pt lingkup luar',
      website: 'https://luar.co.id',
    });
    expect(res.statusCode).toBe(422);
    expect((await companyRow(inside))!.name).toBe('PT Lingkup Dalam');
  });

  it('cannot delete a company of its own scope: the scope uses it', async () => {
    const res = await call(ctx.app, limited.token, 'DELETE', `/api/company/${inside}`);
    expect(res.json()).toEqual({
      success: false,
      message: 'Gagal menghapus data karena data ini sudah dipakai di product',
    });
    expect(await companyRow(inside)).toBeDefined();
  });
});

describe('audit log', () => {
  it('records create, update and delete with actor and before/after', async () => {
    const created = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Diaudit',
      website: 'https://audit.co.id',
    });
    const id = created.json().id as string;
    await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: 'PT Diaudit Ubah',
      website: 'https://audit.co.id',
    });
    await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${id}`);
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'company'), eq(auditLog.entity_id, id)))
      .orderBy(auditLog.at);
    const byAction = Object.fromEntries(rows.map((r) => [r.action, r]));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.actor_username).toBe('admin');
      expect(row.actor_id).toMatch(UUID);
      expect(row.at).toBeInstanceOf(Date);
      expect(row.request_id).toBeTruthy();
    }
    expect(byAction.create!.before).toBeNull();
    expect(byAction.create!.after).toMatchObject({ id, name: 'PT Diaudit' });
    expect(byAction.update!.before).toMatchObject({ id, name: 'PT Diaudit' });
    expect(byAction.update!.after).toMatchObject({ id, name: 'PT Diaudit Ubah' });
    expect(byAction.delete!.before).toMatchObject({ id, name: 'PT Diaudit Ubah' });
    expect(byAction.delete!.after).toBeNull();
  });

  it('writes nothing for a refused change', async () => {
    const id = await ctx.make.company('PT Audit Ditolak');
    const before = await ctx.database.db.select({ n: count() }).from(auditLog);
    await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: '',
      website: 'https://a.co.id',
    });
    await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Audit Ditolak',
      website: 'https://a.co.id',
    });
    const after = await ctx.database.db.select({ n: count() }).from(auditLog);
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});
