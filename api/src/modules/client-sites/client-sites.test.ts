import { MESSAGES } from '@sertifikasi/shared-contracts';
import { auditRowsOf, call, createdAudit, expect422, useTestContext } from '../../../test/helpers';
import { schemeBody } from '../../../test/forms';

const ctx = useTestContext();
let companyA: string;
let companyB: string;
let typeA: string;
let clientA: string;
let clientB: string;
/** company-certificate with every action, scope: company A only. */
let scoped: string;
/** company-certificate (view) only, scope ALL. */
let viewer: string;

beforeAll(async () => {
  const { make } = ctx;
  companyA = await make.company('PT Lokasi Alpha');
  companyB = await make.company('PT Lokasi Beta');
  typeA = await make.certificationType(companyA, 'ISO 9001:2015');
  clientA = await make.client(companyA, 'PT Pabrik Alpha');
  clientB = await make.client(companyB, 'PT Pabrik Beta');
  const full = await make.role('Staf Lokasi', [
    'company-certificate',
    'company-certificate:create',
    'company-certificate:edit',
    'company-certificate:delete',
  ]);
  const view = await make.role('Lihat Lokasi', ['company-certificate']);
  scoped = (await make.user({ username: 'staf.lokasi', roles_id: full, company_ids: [companyA] })).token;
  viewer = (await make.user({ username: 'lihat.lokasi', roles_id: view, company_ids: 'ALL' })).token;
});

const URL = '/api/client-site';
const siteBody = (client: string, over: Record<string, unknown> = {}) => ({
  client_id: client,
  name: 'Pabrik Karawang',
  address: 'Jl. Industri Raya No. 5',
  city: 'Karawang',
  province: 'Jawa Barat',
  postcode: '41361',
  ...over,
});

describe('POST /api/client-site', () => {
  it('adds a site to a client with its address, Indonesia unless told, and audits it', async () => {
    const res = await call(ctx.app, scoped, 'POST', URL, siteBody(clientA));
    const { id, row } = await createdAudit(ctx, res, 'client-site');
    expect(res.json()).toMatchObject({
      id,
      client_id: clientA,
      company_id: companyA,
      name: 'Pabrik Karawang',
      city: 'Karawang',
      province: 'Jawa Barat',
      postcode: '41361',
      country: 'ID',
    });
    expect(row).toMatchObject({ action: 'create', company_id: companyA });
    const list = await call(ctx.app, viewer, 'GET', `${URL}?client_id=${clientA}`);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ id: string }[]>().map((s) => s.id)).toContain(id);
  });

  it('reads a country code in any case and refuses one that names no country', async () => {
    const ok = await call(
      ctx.app,
      scoped,
      'POST',
      URL,
      siteBody(clientA, { name: 'Kantor KL', country: 'my' }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ country: 'MY' });
    const bad = await call(ctx.app, scoped, 'POST', URL, siteBody(clientA, { country: 'ZZ' }));
    expect422.field(bad, 'country', 'Negara tidak valid');
  });

  it('422 without a name, 400 for a body that is not JSON', async () => {
    expect422.including(await call(ctx.app, scoped, 'POST', URL, siteBody(clientA, { name: '' })), {
      name: 'Nama Lokasi wajib diisi',
    });
    const raw = await ctx.app.inject({
      method: 'POST',
      url: URL,
      headers: { authorization: `Bearer ${scoped}`, 'content-type': 'application/json' },
      payload: '{"client_id":',
    });
    expect(raw.statusCode).toBe(400);
  });

  it('401 without sign-in, 403 without the create permission, 404 for a client outside the scope', async () => {
    expect((await call(ctx.app, null, 'POST', URL, siteBody(clientA))).statusCode).toBe(401);
    expect((await call(ctx.app, viewer, 'POST', URL, siteBody(clientA))).statusCode).toBe(403);
    expect((await call(ctx.app, scoped, 'POST', URL, siteBody(clientB))).statusCode).toBe(404);
  });
});

describe('GET /api/client-site', () => {
  it('lists the sites of one client by name; 404 outside the scope; the client is required', async () => {
    await ctx.make.site(clientB, 'Zeta');
    await ctx.make.site(clientB, 'alfa');
    const res = await call(ctx.app, viewer, 'GET', `${URL}?client_id=${clientB}`);
    expect(res.json<{ name: string }[]>().map((s) => s.name)).toEqual(['alfa', 'Zeta']);
    expect((await call(ctx.app, scoped, 'GET', `${URL}?client_id=${clientB}`)).statusCode).toBe(404);
    expect([400, 422]).toContain((await call(ctx.app, viewer, 'GET', URL)).statusCode);
    expect((await call(ctx.app, null, 'GET', `${URL}?client_id=${clientA}`)).statusCode).toBe(401);
  });
});

describe('PUT /api/client-site/{id}', () => {
  it('changes a site and audits before and after; it stays with its client', async () => {
    const id = await ctx.make.site(clientA, 'Gudang Lama');
    const res = await call(
      ctx.app,
      scoped,
      'PUT',
      `${URL}/${id}`,
      siteBody(clientA, { name: 'Gudang Baru' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'Gudang Baru', city: 'Karawang' });
    const rows = await auditRowsOf(ctx, 'client-site', id);
    expect(rows.at(-1)).toMatchObject({ action: 'update' });
    expect(rows.at(-1)!.before).toMatchObject({ name: 'Gudang Lama' });
    const other = await ctx.make.client(companyA, 'PT Lain Alpha');
    expect422.field(
      await call(ctx.app, scoped, 'PUT', `${URL}/${id}`, siteBody(other)),
      'client_id',
      'Klien lokasi tidak dapat diubah',
    );
  });

  it('403 for a viewer, 404 outside the scope', async () => {
    const id = await ctx.make.site(clientB, 'Gudang Beta');
    expect((await call(ctx.app, viewer, 'PUT', `${URL}/${id}`, siteBody(clientB))).statusCode).toBe(403);
    expect((await call(ctx.app, scoped, 'PUT', `${URL}/${id}`, siteBody(clientB))).statusCode).toBe(404);
  });
});

describe('DELETE /api/client-site/{id}', () => {
  it('deletes a site no scheme covers, and audits it', async () => {
    const id = await ctx.make.site(clientA, 'Sementara');
    const res = await call(ctx.app, scoped, 'DELETE', `${URL}/${id}`);
    expect(res.json()).toEqual({ success: true, message: MESSAGES.deleted });
    expect((await auditRowsOf(ctx, 'client-site', id)).map((r) => r.action)).toEqual(['create', 'delete']);
  });

  it('409 while a scheme covers the site; deleted once the scheme no longer does', async () => {
    const id = await ctx.make.site(clientA, 'Tercakup');
    const body = schemeBody(clientA, typeA, { sites: [{ site_id: id, scope: 'Produksi' }] });
    const scheme = await call(ctx.app, scoped, 'POST', '/api/company-certificate-scheme', body);
    expect(scheme.statusCode).toBe(201);
    const refused = await call(ctx.app, scoped, 'DELETE', `${URL}/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'conflict', message: MESSAGES.siteInUse });
    const schemeId = scheme.json<{ id: string }>().id;
    const freed = { ...body, sites: [] };
    expect(
      (await call(ctx.app, scoped, 'PUT', `/api/company-certificate-scheme/${schemeId}`, freed)).statusCode,
    ).toBe(200);
    expect((await call(ctx.app, scoped, 'DELETE', `${URL}/${id}`)).statusCode).toBe(200);
  });

  it('a client with sites is not deleted', async () => {
    const client = await ctx.make.client(companyA, 'PT Berlokasi');
    await ctx.make.site(client);
    const res = await call(ctx.app, scoped, 'DELETE', `/api/company-certificate/${client}`);
    expect(res.json()).toMatchObject({ success: false });
  });

  it('401, 403 for a viewer, 404 outside the scope', async () => {
    const id = await ctx.make.site(clientB, 'Tetap');
    expect((await call(ctx.app, null, 'DELETE', `${URL}/${id}`)).statusCode).toBe(401);
    expect((await call(ctx.app, viewer, 'DELETE', `${URL}/${id}`)).statusCode).toBe(403);
    expect((await call(ctx.app, scoped, 'DELETE', `${URL}/${id}`)).statusCode).toBe(404);
  });
});
