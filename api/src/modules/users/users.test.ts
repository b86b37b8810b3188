import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { type ListResponse, MESSAGES, PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { auditLog, rolePermissions, roles, userCompanies, users } from '../../db/schema';
import {
  ADMIN_PASSWORD,
  call,
  createTestContext,
  login,
  permissionIds,
  type TestContext,
} from '../../../test/helpers';

interface UserRow {
  id: string;
  name: string;
  username: string;
  roles_id: string | null;
  roles: { id: string; name: string } | null;
  company_ids: 'ALL' | string[];
  is_active: 'true' | 'false';
  created_at: string;
  updated_at: string;
}

const LAST_ADMIN_UPDATE =
  'Administrator terakhir dengan akses penuh tidak dapat dinonaktifkan atau diturunkan';
const NO_PERMISSION_ESCALATION = 'Tidak dapat memberikan akses yang tidak anda miliki';
const NO_SCOPE_ESCALATION = 'Tidak dapat memberikan akses perusahaan di luar akses anda';
const HASH = /argon2|password_hash|token_hash/;

let ctx: TestContext;
let adminId: string;
let companyA: string;
let companyB: string;
/** Administrator (seeded): every permission. */
let adminRole: string;
/** statistik only. */
let readerRole: string;
/** user (list) only: no create/edit/delete. */
let viewerRole: string;
/** Manages users: statistik, user, user:create, user:edit, user:delete. */
let managerRole: string;
/** Every permission but company:delete. */
let almostAdminRole: string;
/** A manager limited to company A. */
let limited: { id: string; token: string };
/** Reader users with various scopes. */
let userA: { id: string; token: string };
let userAB: { id: string; token: string };
let userB: { id: string; token: string };
let userAll: { id: string; token: string };
let viewer: { id: string; token: string };
let almostAdmin: { id: string; token: string };

const api = (
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => call(ctx.app, token, method, url, payload);

/** Every user the administrator sees, by id. */
async function allUsers(): Promise<Map<string, UserRow>> {
  const res = await api(ctx.adminToken, 'GET', '/api/user?paginate=200');
  expect(res.statusCode).toBe(200);
  return new Map(res.json<ListResponse<UserRow>>().data.map((u) => [u.id, u]));
}

async function getUser(id: string): Promise<UserRow | undefined> {
  return (await allUsers()).get(id);
}

/** The PUT body that keeps a user as they are, with overrides. */
function editBody(user: UserRow, over: Record<string, unknown> = {}) {
  return {
    name: user.name,
    username: user.username,
    roles_id: user.roles_id,
    company_ids: JSON.stringify(user.company_ids),
    is_active: user.is_active,
    ...over,
  };
}

async function editBodyOf(id: string, over: Record<string, unknown> = {}) {
  const user = await getUser(id);
  if (!user) throw new Error(`user ${id} not found`);
  return editBody(user, over);
}

const newUserBody = (over: Record<string, unknown> = {}) => ({
  name: 'Pengguna Baru',
  username: 'pengguna.baru',
  password: 'password-123',
  roles_id: readerRole,
  company_ids: '"ALL"',
  is_active: 'true',
  ...over,
});

async function auditRows(entityId: string) {
  return ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entity_id, entityId)));
}

async function userCount(): Promise<number> {
  return (await ctx.database.db.select({ id: users.id }).from(users)).length;
}

beforeAll(async () => {
  ctx = await createTestContext();
  const info = await api(ctx.adminToken, 'GET', '/api/user-info');
  adminId = info.json<{ user: { id: string; roles_id: string } }>().user.id;
  adminRole = info.json<{ user: { id: string; roles_id: string } }>().user.roles_id;
  companyA = await ctx.make.company('PT Alpha Sertifikasi');
  companyB = await ctx.make.company('PT Beta Sertifikasi');
  readerRole = await ctx.make.role('Pembaca', ['statistik']);
  viewerRole = await ctx.make.role('Lihat User', ['statistik', 'user']);
  managerRole = await ctx.make.role('Pengelola User', [
    'statistik',
    'user',
    'user:create',
    'user:edit',
    'user:delete',
  ]);
  almostAdminRole = await ctx.make.role(
    'Hampir Admin',
    PERMISSION_KEYS.filter((k) => k !== 'company:delete'),
  );
  const make = (username: string, roles_id: string, company_ids: 'ALL' | string[], name?: string) =>
    ctx.make.user({ username, roles_id, company_ids, ...(name ? { name } : {}) });
  limited = await make('terbatas', managerRole, [companyA], 'Admin Cabang Alpha');
  userA = await make('user.alpha', readerRole, [companyA], 'Budi Santoso');
  userAB = await make('user.alphabeta', readerRole, [companyA, companyB], 'Citra Lestari');
  userB = await make('user.beta', readerRole, [companyB], 'Dewi Anggraini');
  userAll = await make('user.semua', readerRole, 'ALL', 'Eko Prasetyo');
  viewer = await make('pelihat', viewerRole, 'ALL', 'Fajar Pelihat');
  almostAdmin = await make('hampir.admin', almostAdminRole, 'ALL', 'Gita Hampir');
});
afterAll(async () => ctx.close());

describe('GET /api/user', () => {
  it('lists users in the list shape with their role and scope, never a password hash', async () => {
    const res = await api(ctx.adminToken, 'GET', '/api/user');
    expect(res.statusCode).toBe(200);
    const body = res.json<ListResponse<UserRow>>();
    expect(body).toMatchObject({ per_page: 20, current_page: 1, from: 1, last_page: 1 });
    expect(body.total).toBe(body.data.length);
    expect(body.to).toBe(body.data.length);
    const admin = body.data.find((u) => u.id === adminId);
    expect(admin).toMatchObject({
      username: 'admin',
      roles_id: adminRole,
      roles: { id: adminRole, name: 'Administrator' },
      company_ids: 'ALL',
      is_active: 'true',
    });
    const ab = body.data.find((u) => u.id === userAB.id);
    expect(ab).toMatchObject({
      name: 'Citra Lestari',
      username: 'user.alphabeta',
      roles: { id: readerRole, name: 'Pembaca' },
      company_ids: [companyA, companyB].sort(),
      is_active: 'true',
    });
    expect(Object.keys(ab!).sort()).toEqual(
      [
        'id',
        'name',
        'username',
        'roles_id',
        'roles',
        'company_ids',
        'is_active',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(res.body).not.toMatch(HASH);
    expect(res.body).not.toMatch(/"password"/);
  });

  it('searches case-insensitively over name, username and role name', async () => {
    const search = async (text: string) => {
      const res = await api(ctx.adminToken, 'GET', `/api/user?search=${encodeURIComponent(text)}`);
      expect(res.statusCode).toBe(200);
      return res.json<ListResponse<UserRow>>();
    };
    const byName = await search('bUDI sant');
    expect(byName.data.map((u) => u.id)).toEqual([userA.id]);
    expect(byName.total).toBe(1);
    const byUsername = await search('USER.ALPHABETA');
    expect(byUsername.data.map((u) => u.id)).toEqual([userAB.id]);
    const byRole = await search('  pengelola USER  ');
    expect(byRole.data.map((u) => u.id)).toEqual([limited.id]);
    const byRoleName = await search('pembaca');
    expect(byRoleName.data.map((u) => u.id).sort()).toEqual(
      [userA.id, userAB.id, userB.id, userAll.id].sort(),
    );
    // LIKE wildcards are taken literally.
    expect((await search('%')).total).toBe(0);
    expect((await search('_')).total).toBe(0);
    expect((await search('tidak-ada-yang-cocok')).data).toEqual([]);
  });

  it('pages through the list: total, per_page, current_page, last_page, from, to', async () => {
    for (let i = 1; i <= 22; i++) {
      const n = String(i).padStart(2, '0');
      const res = await api(
        ctx.adminToken,
        'POST',
        '/api/user',
        newUserBody({ name: `Halaman ${n}`, username: `halaman${n}` }),
      );
      expect(res.statusCode).toBe(201);
    }
    const first = await api(ctx.adminToken, 'GET', '/api/user?search=halaman');
    expect(first.json()).toMatchObject({
      total: 22,
      per_page: 20,
      current_page: 1,
      last_page: 2,
      from: 1,
      to: 20,
    });
    expect(first.json<ListResponse<UserRow>>().data[0]!.name).toBe('Halaman 01');
    const second = await api(ctx.adminToken, 'GET', '/api/user?search=halaman&page=2&paginate=20');
    const page2 = second.json<ListResponse<UserRow>>();
    expect(page2).toMatchObject({ total: 22, per_page: 20, current_page: 2, last_page: 2, from: 21, to: 22 });
    expect(page2.data.map((u) => u.name)).toEqual(['Halaman 21', 'Halaman 22']);
    const big = await api(ctx.adminToken, 'GET', '/api/user?search=halaman&paginate=50');
    expect(big.json()).toMatchObject({ total: 22, per_page: 50, last_page: 1, from: 1, to: 22 });
    const beyond = await api(ctx.adminToken, 'GET', '/api/user?search=halaman&page=5');
    expect(beyond.json()).toMatchObject({ total: 22, current_page: 5, data: [], from: null, to: null });
  });

  it('refuses paginate other than 20, 50, 100, 200, a bad page and unknown parameters with 422', async () => {
    const thirty = await api(ctx.adminToken, 'GET', '/api/user?paginate=30');
    expect(thirty.statusCode).toBe(422);
    expect(thirty.json()).toMatchObject({
      code: 'validation',
      errors: { paginate: 'Jumlah per halaman harus 20, 50, 100 atau 200' },
    });
    const page = await api(ctx.adminToken, 'GET', '/api/user?page=0');
    expect(page.statusCode).toBe(422);
    expect(page.json().errors).toEqual({ page: 'Halaman minimal 1' });
    const text = await api(ctx.adminToken, 'GET', '/api/user?page=abc');
    expect(text.statusCode).toBe(422);
    expect(text.json().errors).toEqual({ page: 'Halaman harus berupa angka' });
    const unknown = await api(ctx.adminToken, 'GET', '/api/user?sort=password_hash');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty('sort');
  });

  it('refuses company_id like any unknown parameter (422): users are not a company-owned list', async () => {
    for (const value of ['ALL', companyA]) {
      const res = await api(ctx.adminToken, 'GET', `/api/user?company_id=${value}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation', errors: { company_id: expect.any(String) } });
    }
  });

  it('shows a limited-scope administrator only users whose scope lies inside theirs', async () => {
    const res = await api(limited.token, 'GET', '/api/user?paginate=200');
    expect(res.statusCode).toBe(200);
    const body = res.json<ListResponse<UserRow>>();
    expect(body.data.map((u) => u.id).sort()).toEqual([limited.id, userA.id].sort());
    expect(body.total).toBe(2);
    // Searching does not reveal anyone outside the scope either.
    for (const text of ['Citra', 'user.semua', 'administrator', 'Dewi']) {
      const found = await api(limited.token, 'GET', `/api/user?search=${text}`);
      expect(found.json()).toMatchObject({ total: 0, data: [] });
    }
  });

  it('401 without a token, 403 without the user permission', async () => {
    const none = await api(null, 'GET', '/api/user');
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'unauthenticated' });
    const reader = await api(userA.token, 'GET', '/api/user');
    expect(reader.statusCode).toBe(403);
    expect(reader.json()).toEqual({ code: 'forbidden', message: MESSAGES.forbidden });
    expect((await api(viewer.token, 'GET', '/api/user')).statusCode).toBe(200);
  });
});

describe('POST /api/user', () => {
  it('creates a user (201) who can sign in; the answer has the role and scope, no hash', async () => {
    const res = await api(
      ctx.adminToken,
      'POST',
      '/api/user',
      newUserBody({
        name: '  Hana Wijaya  ',
        username: 'hana.w',
        company_ids: JSON.stringify([companyB, companyA, companyA.toUpperCase()]),
      }),
    );
    expect(res.statusCode).toBe(201);
    const user = res.json<UserRow>();
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user).toMatchObject({
      name: 'Hana Wijaya',
      username: 'hana.w',
      roles_id: readerRole,
      roles: { id: readerRole, name: 'Pembaca' },
      company_ids: [companyA, companyB].sort(),
      is_active: 'true',
    });
    expect(res.body).not.toMatch(HASH);
    expect(res.body).not.toMatch(/password/);
    await login(ctx.app, 'HANA.W', 'password-123');
    expect((await getUser(user.id))?.username).toBe('hana.w');
  });

  it('reads company_ids as "ALL" in quotes, the bare word ALL, or a JSON array', async () => {
    const quoted = await api(ctx.adminToken, 'POST', '/api/user', newUserBody({ username: 'scope.q' }));
    expect(quoted.json().company_ids).toBe('ALL');
    const bare = await api(
      ctx.adminToken,
      'POST',
      '/api/user',
      newUserBody({ username: 'scope.bare', company_ids: 'ALL' }),
    );
    expect(bare.json().company_ids).toBe('ALL');
    const inactive = await api(
      ctx.adminToken,
      'POST',
      '/api/user',
      newUserBody({ username: 'scope.arr', company_ids: JSON.stringify([companyB]), is_active: 'false' }),
    );
    expect(inactive.statusCode).toBe(201);
    expect(inactive.json()).toMatchObject({ company_ids: [companyB], is_active: 'false' });
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'scope.arr', password: 'password-123' },
    });
    expect(signIn.json().code).toBe('l-unverified');
  });

  it('refuses invalid input with 422 and Indonesian field errors, writing nothing', async () => {
    const before = await userCount();
    const missing = await api(ctx.adminToken, 'POST', '/api/user', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      code: 'validation',
      errors: {
        name: 'Nama User wajib diisi',
        username: 'Username wajib diisi',
        password: 'Password wajib diisi',
        roles_id: 'Akses User wajib diisi',
        company_ids: 'Akses perusahaan wajib diisi',
      },
    });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '   ' }, 'name', 'Nama User wajib diisi'],
      [
        { username: 'a b' },
        'username',
        'Username 3 sampai 50 karakter: huruf, angka, titik, garis bawah atau strip',
      ],
      [
        { username: 'ab' },
        'username',
        'Username 3 sampai 50 karakter: huruf, angka, titik, garis bawah atau strip',
      ],
      [
        { username: 'x'.repeat(51) },
        'username',
        'Username 3 sampai 50 karakter: huruf, angka, titik, garis bawah atau strip',
      ],
      [{ password: 'short12' }, 'password', 'Password minimal 8 karakter'],
      [{ password: 'p'.repeat(129) }, 'password', 'Password maksimal 128 karakter'],
      [{ password: ' '.repeat(12) }, 'password', 'Password tidak boleh hanya berisi spasi'],
      [{ is_admin: true }, 'is_admin', 'Field tidak dikenal'],
      [{ company_ids: 'semua' }, 'company_ids', 'Akses perusahaan harus ALL atau daftar perusahaan'],
      [{ company_ids: '["bukan-uuid"]' }, 'company_ids', 'Akses perusahaan harus ALL atau daftar perusahaan'],
      [{ company_ids: '{"ALL":true}' }, 'company_ids', 'Akses perusahaan harus ALL atau daftar perusahaan'],
      [{ company_ids: '[]' }, 'company_ids', 'Pilih minimal satu perusahaan atau ALL'],
      [
        { company_ids: JSON.stringify(['00000000-0000-4000-8000-000000000000']) },
        'company_ids',
        'Perusahaan tidak ditemukan',
      ],
      [{ roles_id: 'bukan-uuid' }, 'roles_id', 'Akses User tidak valid'],
      [{ roles_id: '00000000-0000-4000-8000-000000000000' }, 'roles_id', 'Akses User tidak ditemukan'],
      [{ is_active: 'ya' }, 'is_active', 'Status tidak valid'],
    ];
    for (const [over, field, message] of cases) {
      const res = await api(
        ctx.adminToken,
        'POST',
        '/api/user',
        newUserBody({ username: 'tidak.jadi', ...over }),
      );
      expect({ over, status: res.statusCode }).toEqual({ over, status: 422 });
      expect(res.json()).toMatchObject({ code: 'validation', errors: { [field]: message } });
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses a username taken in any case with a field error', async () => {
    const res = await api(ctx.adminToken, 'POST', '/api/user', newUserBody({ username: 'User.Alpha' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'validation',
      message: 'Username sudah digunakan',
      errors: { username: 'Username sudah digunakan' },
    });
    const admin = await api(ctx.adminToken, 'POST', '/api/user', newUserBody({ username: 'ADMIN' }));
    expect(admin.json().errors).toEqual({ username: 'Username sudah digunakan' });
  });

  it('401 without a token, 403 without user:create', async () => {
    expect((await api(null, 'POST', '/api/user', newUserBody({ username: 'tanpa.token' }))).statusCode).toBe(
      401,
    );
    const res = await api(viewer.token, 'POST', '/api/user', newUserBody({ username: 'tanpa.izin' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden', message: MESSAGES.forbidden });
    const found = await api(ctx.adminToken, 'GET', '/api/user?search=tanpa');
    expect(found.json().total).toBe(0);
  });

  it('lets a limited-scope administrator create users inside their scope only', async () => {
    const ok = await api(
      limited.token,
      'POST',
      '/api/user',
      newUserBody({ username: 'cabang.alpha', company_ids: JSON.stringify([companyA]) }),
    );
    expect(ok.statusCode).toBe(201);
    expect(ok.json().company_ids).toEqual([companyA]);
    const before = await userCount();
    for (const company_ids of [
      '"ALL"',
      'ALL',
      JSON.stringify([companyB]),
      JSON.stringify([companyA, companyB]),
      // A company that does not exist is outside the scope too.
      JSON.stringify(['00000000-0000-4000-8000-000000000000']),
    ]) {
      const res = await api(
        limited.token,
        'POST',
        '/api/user',
        newUserBody({ username: 'cabang.luar', company_ids }),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: NO_SCOPE_ESCALATION });
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses to give a role holding a permission the caller lacks (403)', async () => {
    const before = await userCount();
    for (const roles_id of [almostAdminRole, adminRole]) {
      const res = await api(
        limited.token,
        'POST',
        '/api/user',
        newUserBody({ username: 'naik.pangkat', roles_id, company_ids: JSON.stringify([companyA]) }),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: NO_PERMISSION_ESCALATION });
    }
    // Scope ALL does not help a caller who lacks a permission of the role.
    const almost = await api(
      almostAdmin.token,
      'POST',
      '/api/user',
      newUserBody({ username: 'naik.pangkat', roles_id: adminRole }),
    );
    expect(almost.statusCode).toBe(403);
    expect(almost.json().message).toBe(NO_PERMISSION_ESCALATION);
    expect(await userCount()).toBe(before);
    // The same role the caller holds is fine.
    const same = await api(
      limited.token,
      'POST',
      '/api/user',
      newUserBody({
        username: 'sama.pangkat',
        roles_id: managerRole,
        company_ids: JSON.stringify([companyA]),
      }),
    );
    expect(same.statusCode).toBe(201);
  });

  it('writes the audit log naming the actor, without the password hash', async () => {
    const res = await api(ctx.adminToken, 'POST', '/api/user', newUserBody({ username: 'diaudit' }));
    expect(res.statusCode).toBe(201);
    const id = res.json<UserRow>().id;
    const rows = await auditRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: adminId,
      actor_username: 'admin',
      action: 'create',
      entity: 'user',
      entity_id: id,
      before: null,
      after: { id, username: 'diaudit', roles: { id: readerRole, name: 'Pembaca' }, company_ids: 'ALL' },
    });
    expect(JSON.stringify(rows[0])).not.toMatch(/argon2|password/);
  });
});

describe('PUT /api/user/:id', () => {
  it('updates name, username, role, scope and status; a blank password keeps the current one', async () => {
    const u = await ctx.make.user({
      username: 'ubah.saya',
      roles_id: readerRole,
      company_ids: 'ALL',
    });
    const res = await api(ctx.adminToken, 'PUT', `/api/user/${u.id}`, {
      name: 'Nama Diubah',
      username: 'Ubah.Diubah',
      password: '',
      roles_id: viewerRole,
      company_ids: JSON.stringify([companyB]),
      is_active: 'true',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: u.id,
      name: 'Nama Diubah',
      username: 'Ubah.Diubah',
      roles_id: viewerRole,
      roles: { id: viewerRole, name: 'Lihat User' },
      company_ids: [companyB],
      is_active: 'true',
    });
    expect(res.body).not.toMatch(HASH);
    expect(await getUser(u.id)).toMatchObject({ name: 'Nama Diubah', company_ids: [companyB] });
    // Password unchanged; the session still works; the new role's permission applies.
    expect((await api(u.token, 'GET', '/api/user')).statusCode).toBe(200);
    await login(ctx.app, 'ubah.diubah', 'password-123');
    // Back to ALL.
    const all = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await editBodyOf(u.id, { company_ids: 'ALL' }),
    );
    expect(all.json().company_ids).toBe('ALL');
  });

  it('accepts a user keeping their own username in another case, refuses one taken by someone else', async () => {
    const own = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${userB.id}`,
      await editBodyOf(userB.id, { username: 'USER.BETA' }),
    );
    expect(own.statusCode).toBe(200);
    expect(own.json().username).toBe('USER.BETA');
    const taken = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${userB.id}`,
      await editBodyOf(userB.id, { username: 'user.ALPHA' }),
    );
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ username: 'Username sudah digunakan' });
    await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${userB.id}`,
      await editBodyOf(userB.id, { username: 'user.beta' }),
    );
  });

  it('refuses invalid input with 422 and field errors, changing nothing', async () => {
    const before = await getUser(userB.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'Nama User wajib diisi'],
      [
        { username: 'bad name!' },
        'username',
        'Username 3 sampai 50 karakter: huruf, angka, titik, garis bawah atau strip',
      ],
      [{ password: 'pendek' }, 'password', 'Password minimal 8 karakter'],
      [{ roles: { id: adminRole } }, 'roles', 'Field tidak dikenal'],
      [{ company_ids: 'null' }, 'company_ids', 'Akses perusahaan harus ALL atau daftar perusahaan'],
      [{ company_ids: '[]' }, 'company_ids', 'Pilih minimal satu perusahaan atau ALL'],
      [{ roles_id: '00000000-0000-4000-8000-000000000000' }, 'roles_id', 'Akses User tidak ditemukan'],
      [{ is_active: 'aktif' }, 'is_active', 'Status tidak valid'],
    ];
    for (const [over, field, message] of cases) {
      const res = await api(ctx.adminToken, 'PUT', `/api/user/${userB.id}`, editBody(before!, over));
      expect({ over, status: res.statusCode }).toEqual({ over, status: 422 });
      expect(res.json().errors).toMatchObject({ [field]: message });
    }
    expect(await getUser(userB.id)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const body = await editBodyOf(userB.id);
    const unknown = await api(ctx.adminToken, 'PUT', '/api/user/00000000-0000-4000-8000-000000000000', body);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: MESSAGES.notFound });
    expect((await api(ctx.adminToken, 'PUT', '/api/user/123', body)).statusCode).toBe(404);
  });

  it('401 without a token, 403 without user:edit', async () => {
    const body = await editBodyOf(userB.id, { name: 'Diretas' });
    expect((await api(null, 'PUT', `/api/user/${userB.id}`, body)).statusCode).toBe(401);
    const res = await api(viewer.token, 'PUT', `/api/user/${userB.id}`, body);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await getUser(userB.id))?.name).toBe('Dewi Anggraini');
  });

  it('hides users outside a limited-scope administrator’s scope (404) and edits those inside', async () => {
    for (const target of [userAB, userB, userAll, { id: adminId }]) {
      const before = await getUser(target.id);
      const res = await api(
        limited.token,
        'PUT',
        `/api/user/${target.id}`,
        editBody(before!, {
          name: 'Diambil Alih',
          company_ids: JSON.stringify([companyA]),
          password: 'ambil-alih-1',
        }),
      );
      expect(res.statusCode).toBe(404);
      expect(await getUser(target.id)).toEqual(before);
    }
    const inside = await api(
      limited.token,
      'PUT',
      `/api/user/${userA.id}`,
      await editBodyOf(userA.id, { name: 'Budi Santoso Jr' }),
    );
    expect(inside.statusCode).toBe(200);
    expect(inside.json().name).toBe('Budi Santoso Jr');
    await api(
      limited.token,
      'PUT',
      `/api/user/${userA.id}`,
      await editBodyOf(userA.id, { name: 'Budi Santoso' }),
    );
  });

  it('refuses to give a role with a permission the caller lacks, to others and to themselves (403)', async () => {
    const a = await getUser(userA.id);
    const other = await api(
      limited.token,
      'PUT',
      `/api/user/${userA.id}`,
      editBody(a!, { roles_id: almostAdminRole }),
    );
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ code: 'forbidden', message: NO_PERMISSION_ESCALATION });
    const me = await getUser(limited.id);
    const self = await api(
      limited.token,
      'PUT',
      `/api/user/${limited.id}`,
      editBody(me!, { roles_id: adminRole }),
    );
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(NO_PERMISSION_ESCALATION);
    const almostSelf = await api(
      almostAdmin.token,
      'PUT',
      `/api/user/${almostAdmin.id}`,
      await editBodyOf(almostAdmin.id, { roles_id: adminRole }),
    );
    expect(almostSelf.statusCode).toBe(403);
    expect(await getUser(userA.id)).toEqual(a);
    expect(await getUser(limited.id)).toEqual(me);
    expect((await getUser(almostAdmin.id))?.roles_id).toBe(almostAdminRole);
  });

  it('refuses to widen a scope beyond the caller’s, to others and to themselves (403)', async () => {
    const a = await getUser(userA.id);
    const me = await getUser(limited.id);
    for (const company_ids of ['"ALL"', JSON.stringify([companyA, companyB]), JSON.stringify([companyB])]) {
      for (const target of [a!, me!]) {
        const res = await api(
          limited.token,
          'PUT',
          `/api/user/${target.id}`,
          editBody(target, { company_ids }),
        );
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ code: 'forbidden', message: NO_SCOPE_ESCALATION });
      }
    }
    expect(await getUser(userA.id)).toEqual(a);
    expect(await getUser(limited.id)).toEqual(me);
    const info = await api(limited.token, 'GET', '/api/user-info');
    expect(info.json().company_ids).toEqual([companyA]);
  });

  it('refuses to deactivate oneself (422)', async () => {
    const res = await api(
      limited.token,
      'PUT',
      `/api/user/${limited.id}`,
      await editBodyOf(limited.id, { is_active: 'false' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation',
      message: 'Tidak dapat menonaktifkan akun sendiri',
    });
    expect((await api(limited.token, 'GET', '/api/user')).statusCode).toBe(200);
  });

  it('deactivating a user ends their sessions; reactivating does not bring them back', async () => {
    const u = await ctx.make.user({
      username: 'akan.nonaktif',
      roles_id: viewerRole,
      company_ids: 'ALL',
    });
    const second = await login(ctx.app, 'akan.nonaktif', 'password-123');
    expect((await api(u.token, 'GET', '/api/user')).statusCode).toBe(200);
    const off = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await editBodyOf(u.id, { is_active: 'false' }),
    );
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe('false');
    expect((await api(u.token, 'GET', '/api/user')).statusCode).toBe(401);
    expect((await api(second, 'GET', '/api/profile')).statusCode).toBe(401);
    const on = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await editBodyOf(u.id, { is_active: 'true' }),
    );
    expect(on.json().is_active).toBe('true');
    expect((await api(u.token, 'GET', '/api/profile')).statusCode).toBe(401);
    expect((await api(second, 'GET', '/api/profile')).statusCode).toBe(401);
    const fresh = await login(ctx.app, 'akan.nonaktif', 'password-123');
    expect((await api(fresh, 'GET', '/api/profile')).statusCode).toBe(200);
  });

  it('a new password ends the user’s sessions; the old password stops working', async () => {
    const u = await ctx.make.user({
      username: 'ganti.sandi',
      roles_id: viewerRole,
      company_ids: 'ALL',
    });
    const res = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await editBodyOf(u.id, { password: 'sandi-baru-77' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(HASH);
    expect(res.body).not.toMatch(/sandi-baru/);
    expect((await api(u.token, 'GET', '/api/profile')).statusCode).toBe(401);
    await expect(login(ctx.app, 'ganti.sandi', 'password-123')).rejects.toThrow(/401/);
    await login(ctx.app, 'ganti.sandi', 'sandi-baru-77');
    // Changing one's own password here keeps the current session and ends the others.
    const mine = await login(ctx.app, 'terbatas', 'password-123');
    const me = await api(
      limited.token,
      'PUT',
      `/api/user/${limited.id}`,
      await editBodyOf(limited.id, { password: 'terbatas-baru-1' }),
    );
    expect(me.statusCode).toBe(200);
    expect((await api(limited.token, 'GET', '/api/profile')).statusCode).toBe(200);
    expect((await api(mine, 'GET', '/api/profile')).statusCode).toBe(401);
  });

  it('writes the audit log with before and after, without the password hash', async () => {
    const u = await ctx.make.user({
      username: 'audit.ubah',
      roles_id: readerRole,
      company_ids: 'ALL',
      name: 'Sebelum',
    });
    const res = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await editBodyOf(u.id, { name: 'Sesudah', password: 'rahasia-baru-1' }),
    );
    expect(res.statusCode).toBe(200);
    const rows = (await auditRows(u.id)).filter((r) => r.action === 'update');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: adminId,
      actor_username: 'admin',
      entity: 'user',
      before: { id: u.id, name: 'Sebelum' },
      after: { id: u.id, name: 'Sesudah' },
    });
    expect(JSON.stringify(rows[0])).not.toMatch(/argon2|password|rahasia/);
  });
});

describe('DELETE /api/user/:id', () => {
  it('deletes a user: success message, gone from the list, sessions ended, audit written', async () => {
    const u = await ctx.make.user({
      username: 'dihapus',
      roles_id: viewerRole,
      company_ids: 'ALL',
    });
    const res = await api(ctx.adminToken, 'DELETE', `/api/user/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect(await getUser(u.id)).toBeUndefined();
    expect((await api(u.token, 'GET', '/api/profile')).statusCode).toBe(401);
    expect((await api(ctx.adminToken, 'DELETE', `/api/user/${u.id}`)).statusCode).toBe(404);
    const rows = (await auditRows(u.id)).filter((r) => r.action === 'delete');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: adminId,
      actor_username: 'admin',
      entity: 'user',
      before: { id: u.id, username: 'dihapus' },
      after: null,
    });
    expect(JSON.stringify(rows[0])).not.toMatch(/argon2|password/);
  });

  it('refuses to delete oneself with success false', async () => {
    const res = await api(limited.token, 'DELETE', `/api/user/${limited.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: 'Tidak dapat menghapus akun sendiri' });
    expect(await getUser(limited.id)).toBeDefined();
  });

  it('answers 404 for unknown ids and users outside a limited scope, 401 and 403 as usual', async () => {
    const unknown = await api(ctx.adminToken, 'DELETE', '/api/user/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: MESSAGES.notFound });
    expect((await api(ctx.adminToken, 'DELETE', '/api/user/nope')).statusCode).toBe(404);
    for (const target of [userAB, userB, userAll, { id: adminId }]) {
      const res = await api(limited.token, 'DELETE', `/api/user/${target.id}`);
      expect(res.statusCode).toBe(404);
      expect(await getUser(target.id)).toBeDefined();
    }
    expect((await api(null, 'DELETE', `/api/user/${userB.id}`)).statusCode).toBe(401);
    const forbidden = await api(viewer.token, 'DELETE', `/api/user/${userB.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('forbidden');
    expect(await getUser(userB.id)).toBeDefined();
  });

  it('lets a limited-scope administrator delete a user inside their scope', async () => {
    const u = await ctx.make.user({
      username: 'hapus.alpha',
      roles_id: readerRole,
      company_ids: [companyA],
    });
    const res = await api(limited.token, 'DELETE', `/api/user/${u.id}`);
    expect(res.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect(await getUser(u.id)).toBeUndefined();
  });
});

describe('the last full administrator', () => {
  it('cannot deactivate, demote or narrow the scope of themselves (422)', async () => {
    const self = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${adminId}`,
      await editBodyOf(adminId, { is_active: 'false' }),
    );
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe('Tidak dapat menonaktifkan akun sendiri');
    for (const over of [
      { roles_id: almostAdminRole },
      { roles_id: readerRole },
      { company_ids: JSON.stringify([companyA, companyB]) },
    ]) {
      const res = await api(ctx.adminToken, 'PUT', `/api/user/${adminId}`, await editBodyOf(adminId, over));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ code: 'validation', message: LAST_ADMIN_UPDATE });
    }
    expect(await getUser(adminId)).toMatchObject({
      roles_id: adminRole,
      company_ids: 'ALL',
      is_active: 'true',
    });
    // Other changes still go through.
    const rename = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${adminId}`,
      await editBodyOf(adminId, { name: 'Admin Utama' }),
    );
    expect(rename.statusCode).toBe(200);
  });

  it('accepts the role and user ids in any letter case without losing the protection', async () => {
    const body = await editBodyOf(adminId, { roles_id: adminRole.toUpperCase(), name: 'Admin Utama' });
    const same = await api(ctx.adminToken, 'PUT', `/api/user/${adminId}`, body);
    expect(same.statusCode).toBe(200);
    expect(same.json().roles_id).toBe(adminRole);
    const upper = `/api/user/${adminId.toUpperCase()}`;
    const deactivate = await api(
      ctx.adminToken,
      'PUT',
      upper,
      await editBodyOf(adminId, { is_active: 'false' }),
    );
    expect(deactivate.statusCode).toBe(422);
    const demote = await api(
      ctx.adminToken,
      'PUT',
      upper,
      await editBodyOf(adminId, { roles_id: readerRole }),
    );
    expect(demote.statusCode).toBe(422);
    expect((await api(ctx.adminToken, 'DELETE', upper)).json()).toMatchObject({ success: false });
    // A lesser user cannot touch them at all.
    expect((await api(almostAdmin.token, 'DELETE', upper)).statusCode).toBe(403);
    expect(await getUser(adminId)).toMatchObject({
      roles_id: adminRole,
      company_ids: 'ALL',
      is_active: 'true',
    });
  });

  it('cannot be deleted: by themselves (refused) nor by a lesser user (403); inactive or limited full-role holders do not count', async () => {
    // Full role but inactive, and full role but a limited scope: neither is a full administrator.
    const inactive = await ctx.make.user({
      username: 'admin.nonaktif',
      roles_id: adminRole,
      company_ids: 'ALL',
    });
    await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${inactive.id}`,
      await editBodyOf(inactive.id, { is_active: 'false' }),
    );
    await ctx.make.user({
      username: 'admin.alpha',
      roles_id: adminRole,
      company_ids: [companyA],
    });
    const res = await api(almostAdmin.token, 'DELETE', `/api/user/${adminId}`);
    expect(res.statusCode).toBe(403);
    expect(await getUser(adminId)).toBeDefined();
    const self = await api(ctx.adminToken, 'DELETE', `/api/user/${adminId}`);
    expect(self.json()).toEqual({ success: false, message: 'Tidak dapat menghapus akun sendiri' });
  });

  it('with a second full administrator, can be demoted, narrowed, deactivated and deleted', async () => {
    const second = await ctx.make.user({
      username: 'admin.kedua',
      roles_id: adminRole,
      company_ids: 'ALL',
    });
    const demote = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${adminId}`,
      await editBodyOf(adminId, { roles_id: almostAdminRole }),
    );
    expect(demote.statusCode).toBe(200);
    expect(demote.json().roles_id).toBe(almostAdminRole);
    // Now the second is the last one, and holds more than the first: the first cannot take them down.
    const demoteSecond = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${second.id}`,
      await editBodyOf(second.id, { roles_id: readerRole }),
    );
    expect(demoteSecond.statusCode).toBe(403);
    expect((await api(ctx.adminToken, 'DELETE', `/api/user/${second.id}`)).statusCode).toBe(403);
    // Nor can the second demote or delete themselves.
    const selfDemote = await api(
      second.token,
      'PUT',
      `/api/user/${second.id}`,
      await editBodyOf(second.id, { roles_id: readerRole }),
    );
    expect(selfDemote.statusCode).toBe(422);
    expect(selfDemote.json().message).toBe(LAST_ADMIN_UPDATE);
    // The second restores the first, then narrows and deactivates them, then restores again.
    const restore = await api(
      second.token,
      'PUT',
      `/api/user/${adminId}`,
      await editBodyOf(adminId, { roles_id: adminRole }),
    );
    expect(restore.statusCode).toBe(200);
    const narrow = await api(
      second.token,
      'PUT',
      `/api/user/${adminId}`,
      await editBodyOf(adminId, { company_ids: JSON.stringify([companyA]) }),
    );
    expect(narrow.statusCode).toBe(200);
    const back = await api(
      second.token,
      'PUT',
      `/api/user/${adminId}`,
      await editBodyOf(adminId, { company_ids: '"ALL"' }),
    );
    expect(back.statusCode).toBe(200);
    const third = await ctx.make.user({
      username: 'admin.ketiga',
      roles_id: adminRole,
      company_ids: 'ALL',
    });
    const off = await api(
      second.token,
      'PUT',
      `/api/user/${third.id}`,
      await editBodyOf(third.id, { is_active: 'false' }),
    );
    expect(off.statusCode).toBe(200);
    expect((await api(third.token, 'GET', '/api/profile')).statusCode).toBe(401);
    // Deleting a full administrator while another remains succeeds.
    const del = await api(ctx.adminToken, 'DELETE', `/api/user/${second.id}`);
    expect(del.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect((await api(second.token, 'GET', '/api/profile')).statusCode).toBe(401);
    expect(await getUser(adminId)).toMatchObject({
      roles_id: adminRole,
      company_ids: 'ALL',
      is_active: 'true',
    });
    await login(ctx.app, 'admin', ADMIN_PASSWORD);
  });
});

describe('users holding more access than the caller', () => {
  it('cannot be edited or deleted by a user manager, who keeps managing lesser users', async () => {
    const manager = await ctx.make.user({
      username: 'pengelola.semua',
      roles_id: managerRole,
      company_ids: 'ALL',
    });
    const before = await editBodyOf(almostAdmin.id);
    const edit = await api(manager.token, 'PUT', `/api/user/${almostAdmin.id}`, {
      ...before,
      roles_id: readerRole,
      password: 'taken-over-1',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe('User ini memiliki akses yang tidak anda miliki');
    const del = await api(manager.token, 'DELETE', `/api/user/${almostAdmin.id}`);
    expect(del.statusCode).toBe(403);
    expect(await getUser(almostAdmin.id)).toMatchObject({ roles_id: almostAdminRole, is_active: 'true' });
    await login(ctx.app, 'hampir.admin', 'password-123');
    const lesser = await api(
      manager.token,
      'PUT',
      `/api/user/${userB.id}`,
      await editBodyOf(userB.id, { name: 'Dewi A.' }),
    );
    expect(lesser.statusCode).toBe(200);
  });
});

describe('users with an empty scope (not ALL, no company)', () => {
  it('lie inside no limited scope: only a scope-ALL administrator sees and manages them', async () => {
    const orphan = await ctx.make.user({
      username: 'tanpa.perusahaan',
      roles_id: readerRole,
      company_ids: [companyA],
      name: 'Tanpa Perusahaan',
    });
    // Data written before scopes were checked (or by hand) can leave a user with no company at all.
    await ctx.database.db.delete(userCompanies).where(eq(userCompanies.user_id, orphan.id));
    expect(await getUser(orphan.id)).toMatchObject({ company_ids: [] });
    // The limited administrator of company A: not in the list, not found by search, not editable.
    const list = await api(limited.token, 'GET', '/api/user?paginate=200');
    expect(list.json<ListResponse<UserRow>>().data.map((u) => u.id)).not.toContain(orphan.id);
    expect((await api(limited.token, 'GET', '/api/user?search=tanpa')).json()).toMatchObject({
      total: 0,
      data: [],
    });
    const edit = await api(limited.token, 'PUT', `/api/user/${orphan.id}`, {
      ...(await editBodyOf(orphan.id)),
      company_ids: JSON.stringify([companyA]),
      password: 'diambil-alih-1',
    });
    expect(edit.statusCode).toBe(404);
    expect((await api(limited.token, 'DELETE', `/api/user/${orphan.id}`)).statusCode).toBe(404);
    await login(ctx.app, 'tanpa.perusahaan', 'password-123');
    // A manager whose own scope is empty manages nobody, themselves included.
    const emptyManager = await ctx.make.user({
      username: 'pengelola.kosong',
      roles_id: managerRole,
      company_ids: [companyB],
    });
    await ctx.database.db.delete(userCompanies).where(eq(userCompanies.user_id, emptyManager.id));
    expect((await api(emptyManager.token, 'GET', '/api/user?paginate=200')).json()).toMatchObject({
      total: 0,
      data: [],
    });
    expect((await api(emptyManager.token, 'DELETE', `/api/user/${orphan.id}`)).statusCode).toBe(404);
    // The scope-ALL administrator sees them and gives them a scope again.
    const fixed = await api(
      ctx.adminToken,
      'PUT',
      `/api/user/${orphan.id}`,
      await editBodyOf(orphan.id, { company_ids: JSON.stringify([companyA]) }),
    );
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().company_ids).toEqual([companyA]);
    const seen = await api(limited.token, 'GET', '/api/user?search=tanpa');
    expect(seen.json<ListResponse<UserRow>>().data.map((u) => u.id)).toEqual([orphan.id]);
    for (const id of [orphan.id, emptyManager.id]) {
      expect((await api(ctx.adminToken, 'DELETE', `/api/user/${id}`)).json().success).toBe(true);
    }
  });
});

describe('escalation checks run in the transaction that writes', () => {
  // A second connection holds a row lock between the check and the write.
  it('a role gaining a permission while a user is being given it is seen by the check (403)', async () => {
    const creator = await ctx.make.user({
      username: 'pembuat.user',
      roles_id: managerRole,
      company_ids: 'ALL',
    });
    const shifting = await ctx.make.role('Peran Bergeser', ['statistik']);
    const ids = await permissionIds(ctx.app, ctx.adminToken);
    const db = ctx.database.db;
    let response: Promise<LightMyRequestResponse> | undefined;
    await db.transaction(async (tx) => {
      // Another administrator's role edit, under way: the role's row is locked and company:delete added.
      await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, shifting)).for('update');
      await tx.insert(rolePermissions).values({ role_id: shifting, permission_id: ids['company:delete']! });
      response = api(
        creator.token,
        'POST',
        '/api/user',
        newUserBody({ username: 'dapat.hapus', roles_id: shifting }),
      );
      // Commit only once the request waits on that lock.
      for (let i = 0; ; i++) {
        const waiting: unknown = await db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (Number((waiting as { rows: { n: number }[] }).rows[0]?.n) > 0) break;
        if (i > 600) throw new Error('the request never waited on the role lock');
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    const res = await response!;
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(NO_PERMISSION_ESCALATION);
    const all = await allUsers();
    expect([...all.values()].map((u) => u.username)).not.toContain('dapat.hapus');
  });
});
