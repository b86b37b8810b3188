import { PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { call, useTestContext } from '../../../test/helpers';

const ctx = useTestContext();
let alpha: string;
let beta: string;
let gamma: string;
beforeAll(async () => {
  // Created out of order and in mixed case: answers are sorted by name, ignoring case.
  gamma = await ctx.make.company('PT Gamma');
  alpha = await ctx.make.company('pt alpha');
  beta = await ctx.make.company('PT Beta');
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('GET /api/select/company', () => {
  it('answers every company, as {id, name} sorted by name, to a user with scope ALL', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/select/company');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: alpha, name: 'pt alpha' },
      { id: beta, name: 'PT Beta' },
      { id: gamma, name: 'PT Gamma' },
    ]);
  });

  it('answers only the companies of a limited scope, whatever the user’s permissions', async () => {
    const role = await ctx.make.role('Hanya Statistik', ['statistik']);
    const user = await ctx.make.user({ username: 'pemilih', roles_id: role, company_ids: [gamma, alpha] });
    const res = await call(ctx.app, user.token, 'GET', '/api/select/company');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: alpha, name: 'pt alpha' },
      { id: gamma, name: 'PT Gamma' },
    ]);
    // The same list the header offers through user-info.
    const info = await call(ctx.app, user.token, 'GET', '/api/user-info');
    expect(info.json().companies).toEqual(res.json());
  });

  it('follows a renamed company and a changed scope at once', async () => {
    const role = await ctx.make.role('Statistik Dua', ['statistik']);
    const user = await ctx.make.user({ username: 'berubah', roles_id: role, company_ids: [beta] });
    expect((await call(ctx.app, user.token, 'GET', '/api/select/company')).json()).toEqual([
      { id: beta, name: 'PT Beta' },
    ]);
    const renamed = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${beta}`, {
      name: 'PT Beta Baru',
      website: 'https://beta.co.id',
    });
    expect(renamed.statusCode).toBe(200);
    const rescoped = await call(ctx.app, ctx.adminToken, 'PUT', `/api/user/${user.id}`, {
      name: 'berubah',
      username: 'berubah',
      roles_id: role,
      company_ids: JSON.stringify([beta, gamma]),
      is_active: 'true',
    });
    expect(rescoped.statusCode).toBe(200);
    expect((await call(ctx.app, user.token, 'GET', '/api/select/company')).json()).toEqual([
      { id: beta, name: 'PT Beta Baru' },
      { id: gamma, name: 'PT Gamma' },
    ]);
  });

  it('needs a signed-in user', async () => {
    const res = await ctx.app.inject({ url: '/api/select/company' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('GET /api/select/roles', () => {
  it('answers the access roles as {id, name} to holders of user or roles', async () => {
    const viaUser = await ctx.make.role('Kelola User', ['user']);
    const viaRoles = await ctx.make.role('Kelola Akses', ['roles']);
    const a = await ctx.make.user({ username: 'lewat.user', roles_id: viaUser, company_ids: 'ALL' });
    const b = await ctx.make.user({ username: 'lewat.roles', roles_id: viaRoles, company_ids: 'ALL' });
    for (const token of [ctx.adminToken, a.token, b.token]) {
      const res = await call(ctx.app, token, 'GET', '/api/select/roles');
      expect(res.statusCode).toBe(200);
      const body = res.json<{ id: string; name: string }[]>();
      for (const option of body) expect(Object.keys(option).sort()).toEqual(['id', 'name']);
      expect(body).toEqual(
        expect.arrayContaining([
          { id: expect.stringMatching(UUID), name: 'Administrator' },
          { id: viaUser, name: 'Kelola User' },
          { id: viaRoles, name: 'Kelola Akses' },
        ]),
      );
    }
  });

  it('answers 403 without user or roles, 401 signed out', async () => {
    const role = await ctx.make.role('Tanpa Akses Role', ['statistik', 'company']);
    const user = await ctx.make.user({ username: 'tanpa.role', roles_id: role, company_ids: 'ALL' });
    const res = await call(ctx.app, user.token, 'GET', '/api/select/roles');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'forbidden',
      message: 'Anda tidak memiliki akses untuk tindakan ini',
    });
    expect((await ctx.app.inject({ url: '/api/select/roles' })).statusCode).toBe(401);
  });
});

describe('GET /api/select/permission', () => {
  it('answers the whole catalogue as {id, name} where name is the key', async () => {
    const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/select/permission');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ id: string; name: string }[]>();
    expect(body.map((p) => p.name).sort()).toEqual([...PERMISSION_KEYS].sort());
    for (const p of body) {
      expect(p.id).toMatch(UUID);
      expect(Object.keys(p).sort()).toEqual(['id', 'name']);
    }
  });

  it('needs the roles permission', async () => {
    const user = await ctx.make.user({ username: 'hanya.user', keys: ['user'], company_ids: 'ALL' });
    expect((await call(ctx.app, user.token, 'GET', '/api/select/permission')).statusCode).toBe(403);
    expect((await ctx.app.inject({ url: '/api/select/permission' })).statusCode).toBe(401);
  });
});
