import { MESSAGES } from '@sertifikasi/shared-contracts';
import { createdAudit, expect422, login } from '../../../test/helpers';
import * as cast from '../../../test/users-cast';

cast.useUsersCast();

describe('POST /api/user', () => {
  it('creates a user (201) who can sign in; the answer has the role and scope, no hash', async () => {
    const res = await cast.postUser(cast.ctx.adminToken, {
      name: '  Hana Wijaya  ',
      username: 'hana.w',
      company_ids: JSON.stringify([cast.companyB, cast.companyA, cast.companyA.toUpperCase()]),
    });
    expect(res.statusCode).toBe(201);
    const user = res.json<cast.UserRow>();
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user).toMatchObject({
      name: 'Hana Wijaya',
      username: 'hana.w',
      roles_id: cast.readerRole,
      roles: { id: cast.readerRole, name: 'Pembaca' },
      company_ids: [cast.companyA, cast.companyB].sort(),
      is_active: 'true',
    });
    expect(res.body).not.toMatch(cast.HASH);
    expect(res.body).not.toMatch(/password/);
    await login(cast.ctx.app, 'HANA.W', 'password-123');
    expect((await cast.getUser(user.id))?.username).toBe('hana.w');
  });

  it('reads company_ids as "ALL" in quotes, the bare word ALL, or a JSON array', async () => {
    const quoted = await cast.postUser(cast.ctx.adminToken, { username: 'scope.q' });
    expect(quoted.json().company_ids).toBe('ALL');
    const bare = await cast.postUser(cast.ctx.adminToken, { username: 'scope.bare', company_ids: 'ALL' });
    expect(bare.json().company_ids).toBe('ALL');
    const inactive = await cast.postUser(cast.ctx.adminToken, {
      username: 'scope.arr',
      company_ids: JSON.stringify([cast.companyB]),
      is_active: 'false',
    });
    expect(inactive.statusCode).toBe(201);
    expect(inactive.json()).toMatchObject({ company_ids: [cast.companyB], is_active: 'false' });
    const signIn = await cast.ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'scope.arr', password: 'password-123' },
    });
    expect(signIn.json().code).toBe('l-unverified');
  });

  it('refuses invalid input with 422 and Indonesian field errors, writing nothing', async () => {
    const before = await cast.userCount();
    const missing = await cast.api(cast.ctx.adminToken, 'POST', '/api/user', {});
    expect422.including(missing, {
      name: 'Nama User wajib diisi',
      username: 'Username wajib diisi',
      password: 'Password wajib diisi',
      roles_id: 'Akses User wajib diisi',
      company_ids: 'Akses perusahaan wajib diisi',
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
      const res = await cast.postUser(cast.ctx.adminToken, { username: 'tidak.jadi', ...over });
      expect({ over, status: res.statusCode }).toEqual({ over, status: 422 });
      expect(res.json()).toMatchObject({ code: 'validation', errors: { [field]: message } });
    }
    expect(await cast.userCount()).toBe(before);
  });

  it('refuses a username taken in any case with a field error', async () => {
    const res = await cast.postUser(cast.ctx.adminToken, { username: 'User.Alpha' });
    expect422.field(res, 'username', 'Username sudah digunakan');
    const admin = await cast.postUser(cast.ctx.adminToken, { username: 'ADMIN' });
    expect(admin.json().errors).toEqual({ username: 'Username sudah digunakan' });
  });

  it('401 without a token, 403 without user:create', async () => {
    expect((await cast.postUser(null, { username: 'tanpa.token' })).statusCode).toBe(401);
    const res = await cast.postUser(cast.viewer.token, { username: 'tanpa.izin' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden', message: MESSAGES.forbidden });
    const found = await cast.api(cast.ctx.adminToken, 'GET', '/api/user?search=tanpa');
    expect(found.json().total).toBe(0);
  });

  it('lets a limited-scope administrator create users inside their scope only', async () => {
    const ok = await cast.postUser(cast.limited.token, {
      username: 'cabang.alpha',
      company_ids: JSON.stringify([cast.companyA]),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().company_ids).toEqual([cast.companyA]);
    const before = await cast.userCount();
    for (const company_ids of [
      '"ALL"',
      'ALL',
      JSON.stringify([cast.companyB]),
      JSON.stringify([cast.companyA, cast.companyB]),
      // A company that does not exist is outside the scope too.
      JSON.stringify(['00000000-0000-4000-8000-000000000000']),
    ]) {
      const res = await cast.postUser(cast.limited.token, { username: 'cabang.luar', company_ids });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: cast.NO_SCOPE_ESCALATION });
    }
    expect(await cast.userCount()).toBe(before);
  });

  it('refuses to give a role holding a permission the caller lacks (403)', async () => {
    const before = await cast.userCount();
    for (const roles_id of [cast.almostAdminRole, cast.adminRole]) {
      const res = await cast.postUser(cast.limited.token, {
        username: 'naik.pangkat',
        roles_id,
        company_ids: JSON.stringify([cast.companyA]),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: cast.NO_PERMISSION_ESCALATION });
    }
    // Scope ALL does not help a caller who lacks a permission of the role.
    const almost = await cast.postUser(cast.almostAdmin.token, {
      username: 'naik.pangkat',
      roles_id: cast.adminRole,
    });
    expect(almost.statusCode).toBe(403);
    expect(almost.json().message).toBe(cast.NO_PERMISSION_ESCALATION);
    expect(await cast.userCount()).toBe(before);
    // The same role the caller holds is fine.
    const same = await cast.postUser(cast.limited.token, {
      username: 'sama.pangkat',
      roles_id: cast.managerRole,
      company_ids: JSON.stringify([cast.companyA]),
    });
    expect(same.statusCode).toBe(201);
  });

  it('writes the audit log naming the actor, without the password hash', async () => {
    const res = await cast.postUser(cast.ctx.adminToken, { username: 'diaudit' });
    const { id, row } = await createdAudit(cast.ctx, res, 'user');
    expect(row).toMatchObject({
      actor_id: cast.adminId,
      actor_username: 'admin',
      action: 'create',
      entity: 'user',
      entity_id: id,
      before: null,
      after: { id, username: 'diaudit', roles: { id: cast.readerRole, name: 'Pembaca' }, company_ids: 'ALL' },
    });
    expect(JSON.stringify(row)).not.toMatch(/argon2|password/);
  });
});
