import { and, eq } from 'drizzle-orm';
import { MESSAGES } from '@sertifikasi/shared-contracts';
import { accreditationBodies, auditLog, images } from '../../db/schema';
import { call, useTestContext, expect422 } from '../../../test/helpers';
import { allKeys, type SignedIn } from '../../../test/fixtures';
import { pngPart, sendForm } from '../../../test/forms';

const ctx = useTestContext();
let alfa: string;
let beta: string;
/** Scoped to PT Alfa, every accredited permission. */
let alfaUser: SignedIn;
/** Scope ALL, may only look. */
let reader: SignedIn;

beforeAll(async () => {
  ({
    alfa,
    beta,
    editor: alfaUser,
    reader,
  } = await ctx.make.cast('akr', 'Sertifikasi', {
    editor: allKeys('accredited'),
    reader: ['accredited'],
  }));
});

interface Body {
  id: string;
  name: string;
  icon: string | null;
  company_id: string;
  company: { id: string; name: string };
}

async function create(name: string, company = alfa, token = ctx.adminToken): Promise<Body> {
  const res = await sendForm(ctx.app, token, '/api/accredited', {
    company_id: company,
    name,
    icon_file: await pngPart(),
  });
  expect([name, res.statusCode, res.body]).toEqual([name, 201, expect.any(String)]);
  return res.json<Body>();
}
const names = (res: { json<T>(): T }) => res.json<{ data: Body[] }>().data.map((r) => r.name);

describe('POST /api/accredited', () => {
  it('creates a body with its logo in a company and writes the audit trail', async () => {
    const res = await sendForm(ctx.app, ctx.adminToken, '/api/accredited', {
      company_id: alfa,
      name: '  KAN  ',
      icon_file: await pngPart(),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<Body>();
    expect(body).toMatchObject({
      name: 'KAN',
      company_id: alfa,
      company: { id: alfa, name: 'PT Alfa Sertifikasi' },
    });
    expect(body.icon).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect((await ctx.app.inject({ url: `/images/${body.icon}` })).statusCode).toBe(200);
    const [trail] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'accredited'), eq(auditLog.entity_id, body.id)));
    expect(trail).toMatchObject({ action: 'create', company_id: alfa, after: body });
  });

  it('refuses a new body without a logo, or without a name, in Indonesian (422), storing nothing', async () => {
    const before = (await ctx.database.db.select().from(accreditationBodies)).length;
    const noLogo = await sendForm(ctx.app, ctx.adminToken, '/api/accredited', {
      company_id: alfa,
      name: 'Tanpa Logo',
    });
    expect422.errors(noLogo, { icon_file: 'Logo wajib diisi' });
    const noName = await sendForm(ctx.app, ctx.adminToken, '/api/accredited', {
      company_id: alfa,
      name: ' ',
      icon_file: await pngPart(),
    });
    expect422.errors(noName, { name: 'Nama wajib diisi' });
    const json = await call(ctx.app, ctx.adminToken, 'POST', '/api/accredited', { name: 'JSON' });
    expect422.including(json, {
      company_id: 'Perusahaan wajib diisi',
      icon_file: 'Logo wajib diisi',
    });
    const unknownCompany = await sendForm(ctx.app, ctx.adminToken, '/api/accredited', {
      company_id: '3f2a1c4e-0000-4000-8000-000000000009',
      name: 'Hilang',
      icon_file: await pngPart(),
    });
    expect422.errors(unknownCompany, { company_id: 'Perusahaan tidak ditemukan' });
    expect((await ctx.database.db.select().from(accreditationBodies)).length).toBe(before);
  });

  it('answers 401 without a token, 403 without accredited:create or for a company outside the scope', async () => {
    expect(
      (await sendForm(ctx.app, null, '/api/accredited', { company_id: alfa, name: 'X' })).statusCode,
    ).toBe(401);
    const viewer = await sendForm(ctx.app, reader.token, '/api/accredited', {
      company_id: alfa,
      name: 'Tidak Boleh',
      icon_file: await pngPart(),
    });
    expect(viewer.statusCode).toBe(403);
    const outside = await sendForm(ctx.app, alfaUser.token, '/api/accredited', {
      company_id: beta,
      name: 'Di Luar',
      icon_file: await pngPart(),
    });
    expect(outside.statusCode).toBe(403);
    expect((await create('Milik Alfa', alfa, alfaUser.token)).company_id).toBe(alfa);
  });
});

describe('GET /api/accredited', () => {
  beforeAll(async () => {
    await create('Zeta Akreditasi', beta);
    await create('alpha akreditasi', beta);
    await create('Mu Akreditasi', alfa);
  });

  it('lists by name (any case), sortable with sort=name&order=asc|desc', async () => {
    const list = await call(ctx.app, ctx.adminToken, 'GET', `/api/accredited?company_id=${beta}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 2, per_page: 20, current_page: 1, from: 1, to: 2 });
    expect(names(list)).toEqual(['alpha akreditasi', 'Zeta Akreditasi']);
    const down = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/accredited?company_id=${beta}&sort=name&order=desc`,
    );
    expect(names(down)).toEqual(['Zeta Akreditasi', 'alpha akreditasi']);
    const up = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      `/api/accredited?company_id=${beta}&sort=name&order=asc`,
    );
    expect(names(up)).toEqual(['alpha akreditasi', 'Zeta Akreditasi']);
    const bad = await call(ctx.app, ctx.adminToken, 'GET', '/api/accredited?sort=icon');
    expect422.errors(bad, { sort: 'Urutan tidak dikenal' });
    expect((await call(ctx.app, ctx.adminToken, 'GET', '/api/accredited?order=up')).statusCode).toBe(422);
  });

  it('searches names, any case, and pages', async () => {
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'GET',
      '/api/accredited?search=AKREDITASI&company_id=ALL',
    );
    expect(names(res)).toEqual(['alpha akreditasi', 'Mu Akreditasi', 'Zeta Akreditasi']);
    const none = await call(ctx.app, ctx.adminToken, 'GET', '/api/accredited?search=%25');
    expect(none.json()).toMatchObject({ total: 0, data: [] });
  });

  it('shows a user scoped to two companies both of them and no other', async () => {
    const gamma = await ctx.make.company('PT Gamma Sertifikasi');
    await create('Gamma Akreditasi', gamma);
    const role = await ctx.make.role('Dua Perusahaan', ['accredited']);
    const two = await ctx.make.user({ username: 'dua.akr', roles_id: role, company_ids: [alfa, beta] });
    const all = await call(ctx.app, two.token, 'GET', '/api/accredited?paginate=200');
    const companies = new Set(all.json<{ data: Body[] }>().data.map((r) => r.company_id));
    expect([...companies].sort()).toEqual([alfa, beta].sort());
    const one = await call(ctx.app, two.token, 'GET', `/api/accredited?company_id=${beta}&search=akreditasi`);
    expect(names(one)).toEqual(['alpha akreditasi', 'Zeta Akreditasi']);
    expect((await call(ctx.app, two.token, 'GET', `/api/accredited?company_id=${gamma}`)).statusCode).toBe(
      403,
    );
  });

  it('shows a scoped user only their companies; another company is 403', async () => {
    const own = await call(ctx.app, alfaUser.token, 'GET', '/api/accredited?company_id=ALL&paginate=200');
    expect(own.statusCode).toBe(200);
    expect(own.json<{ data: Body[] }>().data.every((r) => r.company_id === alfa)).toBe(true);
    expect(names(own)).toContain('Mu Akreditasi');
    expect(names(own)).not.toContain('Zeta Akreditasi');
    expect(
      (await call(ctx.app, alfaUser.token, 'GET', `/api/accredited?company_id=${beta}`)).statusCode,
    ).toBe(403);
    expect((await ctx.app.inject({ url: '/api/accredited' })).statusCode).toBe(401);
    const noPermission = await ctx.make.user({
      username: 'tanpa.akr',
      roles_id: await ctx.make.role('Statistik Saja', ['statistik']),
      company_ids: 'ALL',
    });
    expect((await call(ctx.app, noPermission.token, 'GET', '/api/accredited')).statusCode).toBe(403);
  });
});

describe('updating and deleting', () => {
  it('keeps the logo when absent, replaces it with a file, removes it when empty (POST _method=PUT and PUT)', async () => {
    const body = await create('Ubah Saya');
    const kept = await sendForm(ctx.app, ctx.adminToken, `/api/accredited/${body.id}`, {
      _method: 'PUT',
      company_id: alfa,
      name: 'Sudah Diubah',
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ name: 'Sudah Diubah', icon: body.icon });
    const replaced = await sendForm(
      ctx.app,
      ctx.adminToken,
      `/api/accredited/${body.id}`,
      { company_id: alfa, name: 'Sudah Diubah', icon: body.icon!, icon_file: await pngPart('blue') },
      'PUT',
    );
    const icon = replaced.json<Body>().icon!;
    expect(icon).not.toBe(body.icon);
    expect(await ctx.database.db.select().from(images).where(eq(images.name, body.icon!))).toEqual([]);
    const removed = await call(ctx.app, ctx.adminToken, 'PUT', `/api/accredited/${body.id}`, {
      company_id: alfa,
      name: 'Tanpa Logo',
      icon: '',
    });
    expect(removed.json()).toMatchObject({ name: 'Tanpa Logo', icon: null });
    expect(await ctx.database.db.select().from(images).where(eq(images.name, icon))).toEqual([]);
    const trail = await ctx.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'accredited'),
          eq(auditLog.entity_id, body.id),
          eq(auditLog.action, 'update'),
        ),
      );
    expect(trail).toHaveLength(3);
  });

  it('answers 404 for a missing or out-of-scope record; refuses a move outside the scope (403)', async () => {
    const other = await create('Milik Beta', beta);
    const put = (id: string, company: string, token = alfaUser.token) =>
      call(ctx.app, token, 'PUT', `/api/accredited/${id}`, { company_id: company, name: 'Pindah' });
    expect((await put(other.id, alfa)).statusCode).toBe(404);
    expect((await put('3f2a1c4e-0000-4000-8000-000000000001', alfa)).statusCode).toBe(404);
    expect((await call(ctx.app, alfaUser.token, 'DELETE', `/api/accredited/${other.id}`)).statusCode).toBe(
      404,
    );
    const mine = await create('Milik Alfa Lagi', alfa);
    expect((await put(mine.id, beta)).statusCode).toBe(403);
    expect((await put(mine.id, beta, ctx.adminToken)).json()).toMatchObject({
      company_id: beta,
      company: { id: beta },
    });
  });

  it('refuses to delete or move a body a scheme uses, deleting nothing', async () => {
    const used = await create('Dipakai Skema');
    const type = await ctx.make.certificationType(alfa);
    await ctx.make.scheme({ company: alfa, type, accredited: used.id });
    const del = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/accredited/${used.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: false, message: MESSAGES.inUseOrder });
    const move = await call(ctx.app, ctx.adminToken, 'PUT', `/api/accredited/${used.id}`, {
      company_id: beta,
      name: 'X',
    });
    expect422.errors(move, {
      company_id: 'Perusahaan tidak dapat diubah karena data ini sudah dipakai',
    });
    expect(
      await ctx.database.db.select().from(accreditationBodies).where(eq(accreditationBodies.id, used.id)),
    ).toHaveLength(1);
  });

  it('deletes an unused body with its logo, audited; 403 without accredited:delete', async () => {
    const gone = await create('Hapus Saya');
    expect((await call(ctx.app, reader.token, 'DELETE', `/api/accredited/${gone.id}`)).statusCode).toBe(403);
    const del = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/accredited/${gone.id}`);
    expect(del.json()).toEqual({ success: true, message: MESSAGES.deleted });
    expect(await ctx.database.db.select().from(images).where(eq(images.name, gone.icon!))).toEqual([]);
    const [trail] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity_id, gone.id), eq(auditLog.action, 'delete')));
    expect(trail).toMatchObject({ entity: 'accredited', before: { name: 'Hapus Saya' }, after: null });
  });
});
