import { type ListResponse, MESSAGES } from '@sertifikasi/shared-contracts';
import { expect422, paging } from '../../../test/helpers';
import * as cast from '../../../test/users-cast';

cast.useUsersCast();

describe('GET /api/user', () => {
  it('lists users in the list shape with their role and scope, never a password hash', async () => {
    const res = await cast.api(cast.ctx.adminToken, 'GET', '/api/user');
    expect(res.statusCode).toBe(200);
    const body = res.json<ListResponse<cast.UserRow>>();
    expect(body).toMatchObject({ per_page: 20, current_page: 1, from: 1, last_page: 1 });
    expect(body.total).toBe(body.data.length);
    expect(body.to).toBe(body.data.length);
    const admin = body.data.find((u) => u.id === cast.adminId);
    expect(admin).toMatchObject({
      username: 'admin',
      roles_id: cast.adminRole,
      roles: { id: cast.adminRole, name: 'Administrator' },
      company_ids: 'ALL',
      is_active: 'true',
    });
    const ab = body.data.find((u) => u.id === cast.userAB.id);
    expect(ab).toMatchObject({
      name: 'Citra Lestari',
      username: 'user.alphabeta',
      roles: { id: cast.readerRole, name: 'Pembaca' },
      company_ids: [cast.companyA, cast.companyB].sort(),
      is_active: 'true',
    });
    expect(Object.keys(ab!).sort()).toEqual(
      [
        'id',
        'name',
        'username',
        'email',
        'roles_id',
        'roles',
        'company_ids',
        'is_active',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(res.body).not.toMatch(cast.HASH);
    expect(res.body).not.toMatch(/"password"/);
  });

  it('searches case-insensitively over name, username and role name', async () => {
    const search = async (text: string) => {
      const res = await cast.api(cast.ctx.adminToken, 'GET', `/api/user?search=${encodeURIComponent(text)}`);
      expect(res.statusCode).toBe(200);
      return res.json<ListResponse<cast.UserRow>>();
    };
    const byName = await search('bUDI sant');
    expect(byName.data.map((u) => u.id)).toEqual([cast.userA.id]);
    expect(byName.total).toBe(1);
    const byUsername = await search('USER.ALPHABETA');
    expect(byUsername.data.map((u) => u.id)).toEqual([cast.userAB.id]);
    const byRole = await search('  pengelola USER  ');
    expect(byRole.data.map((u) => u.id)).toEqual([cast.limited.id]);
    const byRoleName = await search('pembaca');
    expect(byRoleName.data.map((u) => u.id).sort()).toEqual(
      [cast.userA.id, cast.userAB.id, cast.userB.id, cast.userAll.id].sort(),
    );
    // LIKE wildcards are taken literally.
    expect((await search('%')).total).toBe(0);
    expect((await search('_')).total).toBe(0);
    expect((await search('tidak-ada-yang-cocok')).data).toEqual([]);
  });

  it('pages through the list: total, per_page, current_page, last_page, from, to', async () => {
    for (let i = 1; i <= 22; i++) {
      const n = String(i).padStart(2, '0');
      const res = await cast.postUser(cast.ctx.adminToken, { name: `Halaman ${n}`, username: `halaman${n}` });
      expect(res.statusCode).toBe(201);
    }
    const first = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?search=halaman');
    expect(paging(first)).toEqual({ rows: [1, 20], total: 22, page: [1, 2], per_page: 20 });
    expect(first.json<ListResponse<cast.UserRow>>().data[0]!.name).toBe('Halaman 01');
    const second = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?search=halaman&page=2&paginate=20');
    const page2 = second.json<ListResponse<cast.UserRow>>();
    expect(page2).toMatchObject({ total: 22, per_page: 20, current_page: 2, last_page: 2, from: 21, to: 22 });
    expect(page2.data.map((u) => u.name)).toEqual(['Halaman 21', 'Halaman 22']);
    const big = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?search=halaman&paginate=50');
    expect(big.json()).toMatchObject({ total: 22, per_page: 50, last_page: 1, from: 1, to: 22 });
    const beyond = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?search=halaman&page=5');
    expect(beyond.json()).toMatchObject({ total: 22, current_page: 5, data: [], from: null, to: null });
  });

  it('refuses paginate other than 20, 50, 100, 200, a bad page and unknown parameters with 422', async () => {
    const thirty = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?paginate=30');
    expect422.including(thirty, { paginate: 'Jumlah per halaman harus 20, 50, 100 atau 200' });
    const page = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?page=0');
    expect422.errors(page, { page: 'Halaman minimal 1' });
    const text = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?page=abc');
    expect422.errors(text, { page: 'Halaman harus berupa angka' });
    const unknown = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?sort=password_hash');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty('sort');
  });

  it('refuses company_id like any unknown parameter (422): users are not a company-owned list', async () => {
    for (const value of ['ALL', cast.companyA]) {
      const res = await cast.api(cast.ctx.adminToken, 'GET', `/api/user?company_id=${value}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation', errors: { company_id: expect.any(String) } });
    }
  });

  it('shows a limited-scope administrator only users whose scope lies inside theirs', async () => {
    const res = await cast.api(cast.limited.token, 'GET', '/api/user?paginate=200');
    expect(res.statusCode).toBe(200);
    const body = res.json<ListResponse<cast.UserRow>>();
    expect(body.data.map((u) => u.id).sort()).toEqual([cast.limited.id, cast.userA.id].sort());
    expect(body.total).toBe(2);
    // Searching does not reveal anyone outside the scope either.
    for (const text of ['Citra', 'user.semua', 'administrator', 'Dewi']) {
      const found = await cast.api(cast.limited.token, 'GET', `/api/user?search=${text}`);
      expect(found.json()).toMatchObject({ total: 0, data: [] });
    }
  });

  it('401 without a token, 403 without the user permission', async () => {
    const none = await cast.api(null, 'GET', '/api/user');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'unauthenticated' });
    const reader = await cast.api(cast.userA.token, 'GET', '/api/user');
    expect(reader.statusCode).toBe(403);
    expect(reader.json()).toEqual({ code: 'forbidden', message: MESSAGES.forbidden });
    expect((await cast.api(cast.viewer.token, 'GET', '/api/user')).statusCode).toBe(200);
  });
});
