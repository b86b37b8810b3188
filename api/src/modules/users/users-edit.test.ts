import { MESSAGES } from '@sertifikasi/shared-contracts';
import { login, expect422 } from '../../../test/helpers';
import * as cast from '../../../test/users-cast';

cast.useUsersCast();

describe('PUT /api/user/:id', () => {
  it('updates name, username, role, scope and status; a blank password keeps the current one', async () => {
    const u = await cast.ctx.make.user({
      username: 'ubah.saya',
      roles_id: cast.readerRole,
      company_ids: 'ALL',
    });
    const res = await cast.api(cast.ctx.adminToken, 'PUT', `/api/user/${u.id}`, {
      name: 'Nama Diubah',
      username: 'Ubah.Diubah',
      password: '',
      roles_id: cast.viewerRole,
      company_ids: JSON.stringify([cast.companyB]),
      is_active: 'true',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: u.id,
      name: 'Nama Diubah',
      username: 'Ubah.Diubah',
      roles_id: cast.viewerRole,
      roles: { id: cast.viewerRole, name: 'Lihat User' },
      company_ids: [cast.companyB],
      is_active: 'true',
    });
    expect(res.body).not.toMatch(cast.HASH);
    expect(await cast.getUser(u.id)).toMatchObject({ name: 'Nama Diubah', company_ids: [cast.companyB] });
    // Password unchanged; the session still works; the new role's permission applies.
    expect((await cast.api(u.token, 'GET', '/api/user')).statusCode).toBe(200);
    await login(cast.ctx.app, 'ubah.diubah', 'password-123');
    // Back to ALL.
    const all = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await cast.editBodyOf(u.id, { company_ids: 'ALL' }),
    );
    expect(all.json().company_ids).toBe('ALL');
  });

  it('accepts a user keeping their own username in another case, refuses one taken by someone else', async () => {
    const own = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${cast.userB.id}`,
      await cast.editBodyOf(cast.userB.id, { username: 'USER.BETA' }),
    );
    expect(own.statusCode).toBe(200);
    expect(own.json().username).toBe('USER.BETA');
    const taken = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${cast.userB.id}`,
      await cast.editBodyOf(cast.userB.id, { username: 'user.ALPHA' }),
    );
    expect422.errors(taken, { username: 'Username sudah digunakan' });
    await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${cast.userB.id}`,
      await cast.editBodyOf(cast.userB.id, { username: 'user.beta' }),
    );
  });

  it('refuses invalid input with 422 and field errors, changing nothing', async () => {
    const before = await cast.getUser(cast.userB.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', 'Nama User wajib diisi'],
      [
        { username: 'bad name!' },
        'username',
        'Username 3 sampai 50 karakter: huruf, angka, titik, garis bawah atau strip',
      ],
      [{ password: 'pendek' }, 'password', 'Password minimal 8 karakter'],
      [{ roles: { id: cast.adminRole } }, 'roles', 'Field tidak dikenal'],
      [{ company_ids: 'null' }, 'company_ids', 'Akses perusahaan harus ALL atau daftar perusahaan'],
      [{ company_ids: '[]' }, 'company_ids', 'Pilih minimal satu perusahaan atau ALL'],
      [{ roles_id: '00000000-0000-4000-8000-000000000000' }, 'roles_id', 'Akses User tidak ditemukan'],
      [{ is_active: 'aktif' }, 'is_active', 'Status tidak valid'],
    ];
    for (const [over, field, message] of cases) {
      const res = await cast.api(
        cast.ctx.adminToken,
        'PUT',
        `/api/user/${cast.userB.id}`,
        cast.editBody(before!, over),
      );
      expect({ over, status: res.statusCode }).toEqual({ over, status: 422 });
      expect(res.json().errors).toMatchObject({ [field]: message });
    }
    expect(await cast.getUser(cast.userB.id)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const body = await cast.editBodyOf(cast.userB.id);
    const unknown = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      '/api/user/00000000-0000-4000-8000-000000000000',
      body,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: MESSAGES.notFound });
    expect((await cast.api(cast.ctx.adminToken, 'PUT', '/api/user/123', body)).statusCode).toBe(404);
  });

  it('401 without a token, 403 without user:edit', async () => {
    const body = await cast.editBodyOf(cast.userB.id, { name: 'Diretas' });
    expect((await cast.api(null, 'PUT', `/api/user/${cast.userB.id}`, body)).statusCode).toBe(401);
    const res = await cast.api(cast.viewer.token, 'PUT', `/api/user/${cast.userB.id}`, body);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await cast.getUser(cast.userB.id))?.name).toBe('Dewi Anggraini');
  });

  it('hides users outside a limited-scope administrator’s scope (404) and edits those inside', async () => {
    for (const target of [cast.userAB, cast.userB, cast.userAll, { id: cast.adminId }]) {
      const before = await cast.getUser(target.id);
      const res = await cast.api(
        cast.limited.token,
        'PUT',
        `/api/user/${target.id}`,
        cast.editBody(before!, {
          name: 'Diambil Alih',
          company_ids: JSON.stringify([cast.companyA]),
          password: 'ambil-alih-1',
        }),
      );
      expect(res.statusCode).toBe(404);
      expect(await cast.getUser(target.id)).toEqual(before);
    }
    const inside = await cast.api(
      cast.limited.token,
      'PUT',
      `/api/user/${cast.userA.id}`,
      await cast.editBodyOf(cast.userA.id, { name: 'Budi Santoso Jr' }),
    );
    expect(inside.statusCode).toBe(200);
    expect(inside.json().name).toBe('Budi Santoso Jr');
    await cast.api(
      cast.limited.token,
      'PUT',
      `/api/user/${cast.userA.id}`,
      await cast.editBodyOf(cast.userA.id, { name: 'Budi Santoso' }),
    );
  });

  it('refuses to give a role with a permission the caller lacks, to others and to themselves (403)', async () => {
    const a = await cast.getUser(cast.userA.id);
    const other = await cast.api(
      cast.limited.token,
      'PUT',
      `/api/user/${cast.userA.id}`,
      cast.editBody(a!, { roles_id: cast.almostAdminRole }),
    );
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ code: 'forbidden', message: cast.NO_PERMISSION_ESCALATION });
    const me = await cast.getUser(cast.limited.id);
    const self = await cast.api(
      cast.limited.token,
      'PUT',
      `/api/user/${cast.limited.id}`,
      cast.editBody(me!, { roles_id: cast.adminRole }),
    );
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(cast.NO_PERMISSION_ESCALATION);
    const almostSelf = await cast.api(
      cast.almostAdmin.token,
      'PUT',
      `/api/user/${cast.almostAdmin.id}`,
      await cast.editBodyOf(cast.almostAdmin.id, { roles_id: cast.adminRole }),
    );
    expect(almostSelf.statusCode).toBe(403);
    expect(await cast.getUser(cast.userA.id)).toEqual(a);
    expect(await cast.getUser(cast.limited.id)).toEqual(me);
    expect((await cast.getUser(cast.almostAdmin.id))?.roles_id).toBe(cast.almostAdminRole);
  });

  it('refuses to widen a scope beyond the caller’s, to others and to themselves (403)', async () => {
    const a = await cast.getUser(cast.userA.id);
    const me = await cast.getUser(cast.limited.id);
    for (const company_ids of [
      '"ALL"',
      JSON.stringify([cast.companyA, cast.companyB]),
      JSON.stringify([cast.companyB]),
    ]) {
      for (const target of [a!, me!]) {
        const res = await cast.api(
          cast.limited.token,
          'PUT',
          `/api/user/${target.id}`,
          cast.editBody(target, { company_ids }),
        );
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ code: 'forbidden', message: cast.NO_SCOPE_ESCALATION });
      }
    }
    expect(await cast.getUser(cast.userA.id)).toEqual(a);
    expect(await cast.getUser(cast.limited.id)).toEqual(me);
    const info = await cast.api(cast.limited.token, 'GET', '/api/user-info');
    expect(info.json().company_ids).toEqual([cast.companyA]);
  });

  it('refuses to deactivate oneself (422)', async () => {
    const res = await cast.api(
      cast.limited.token,
      'PUT',
      `/api/user/${cast.limited.id}`,
      await cast.editBodyOf(cast.limited.id, { is_active: 'false' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'validation',
      message: 'Tidak dapat menonaktifkan akun sendiri',
    });
    expect((await cast.api(cast.limited.token, 'GET', '/api/user')).statusCode).toBe(200);
  });

  it('deactivating a user ends their sessions; reactivating does not bring them back', async () => {
    const u = await cast.ctx.make.user({
      username: 'akan.nonaktif',
      roles_id: cast.viewerRole,
      company_ids: 'ALL',
    });
    const second = await login(cast.ctx.app, 'akan.nonaktif', 'password-123');
    expect((await cast.api(u.token, 'GET', '/api/user')).statusCode).toBe(200);
    const off = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await cast.editBodyOf(u.id, { is_active: 'false' }),
    );
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe('false');
    expect((await cast.api(u.token, 'GET', '/api/user')).statusCode).toBe(401);
    expect((await cast.api(second, 'GET', '/api/profile')).statusCode).toBe(401);
    const on = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await cast.editBodyOf(u.id, { is_active: 'true' }),
    );
    expect(on.json().is_active).toBe('true');
    expect((await cast.api(u.token, 'GET', '/api/profile')).statusCode).toBe(401);
    expect((await cast.api(second, 'GET', '/api/profile')).statusCode).toBe(401);
    const fresh = await login(cast.ctx.app, 'akan.nonaktif', 'password-123');
    expect((await cast.api(fresh, 'GET', '/api/profile')).statusCode).toBe(200);
  });

  it('a new password ends the user’s sessions; the old password stops working', async () => {
    const u = await cast.ctx.make.user({
      username: 'ganti.sandi',
      roles_id: cast.viewerRole,
      company_ids: 'ALL',
    });
    const res = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await cast.editBodyOf(u.id, { password: 'sandi-baru-77' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(cast.HASH);
    expect(res.body).not.toMatch(/sandi-baru/);
    expect((await cast.api(u.token, 'GET', '/api/profile')).statusCode).toBe(401);
    await expect(login(cast.ctx.app, 'ganti.sandi', 'password-123')).rejects.toThrow(/401/);
    await login(cast.ctx.app, 'ganti.sandi', 'sandi-baru-77');
    // Changing one's own password here keeps the current session and ends the others.
    const mine = await login(cast.ctx.app, 'terbatas', 'password-123');
    const me = await cast.api(
      cast.limited.token,
      'PUT',
      `/api/user/${cast.limited.id}`,
      await cast.editBodyOf(cast.limited.id, { password: 'terbatas-baru-1' }),
    );
    expect(me.statusCode).toBe(200);
    expect((await cast.api(cast.limited.token, 'GET', '/api/profile')).statusCode).toBe(200);
    expect((await cast.api(mine, 'GET', '/api/profile')).statusCode).toBe(401);
  });

  it('writes the audit log with before and after, without the password hash', async () => {
    const u = await cast.ctx.make.user({
      username: 'audit.ubah',
      roles_id: cast.readerRole,
      company_ids: 'ALL',
      name: 'Sebelum',
    });
    const res = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${u.id}`,
      await cast.editBodyOf(u.id, { name: 'Sesudah', password: 'rahasia-baru-1' }),
    );
    expect(res.statusCode).toBe(200);
    const rows = (await cast.auditRows(u.id)).filter((r) => r.action === 'update');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: cast.adminId,
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
    const u = await cast.ctx.make.user({
      username: 'dihapus',
      roles_id: cast.viewerRole,
      company_ids: 'ALL',
    });
    const res = await cast.api(cast.ctx.adminToken, 'DELETE', `/api/user/${u.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect(await cast.getUser(u.id)).toBeUndefined();
    expect((await cast.api(u.token, 'GET', '/api/profile')).statusCode).toBe(401);
    expect((await cast.api(cast.ctx.adminToken, 'DELETE', `/api/user/${u.id}`)).statusCode).toBe(404);
    const rows = (await cast.auditRows(u.id)).filter((r) => r.action === 'delete');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: cast.adminId,
      actor_username: 'admin',
      entity: 'user',
      before: { id: u.id, username: 'dihapus' },
      after: null,
    });
    expect(JSON.stringify(rows[0])).not.toMatch(/argon2|password/);
  });

  it('refuses to delete oneself with success false', async () => {
    const res = await cast.api(cast.limited.token, 'DELETE', `/api/user/${cast.limited.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: 'Tidak dapat menghapus akun sendiri' });
    expect(await cast.getUser(cast.limited.id)).toBeDefined();
  });

  it('answers 404 for unknown ids and users outside a limited scope, 401 and 403 as usual', async () => {
    const unknown = await cast.api(
      cast.ctx.adminToken,
      'DELETE',
      '/api/user/00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: MESSAGES.notFound });
    expect((await cast.api(cast.ctx.adminToken, 'DELETE', '/api/user/nope')).statusCode).toBe(404);
    for (const target of [cast.userAB, cast.userB, cast.userAll, { id: cast.adminId }]) {
      const res = await cast.api(cast.limited.token, 'DELETE', `/api/user/${target.id}`);
      expect(res.statusCode).toBe(404);
      expect(await cast.getUser(target.id)).toBeDefined();
    }
    expect((await cast.api(null, 'DELETE', `/api/user/${cast.userB.id}`)).statusCode).toBe(401);
    const forbidden = await cast.api(cast.viewer.token, 'DELETE', `/api/user/${cast.userB.id}`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('forbidden');
    expect(await cast.getUser(cast.userB.id)).toBeDefined();
  });

  it('lets a limited-scope administrator delete a user inside their scope', async () => {
    const u = await cast.ctx.make.user({
      username: 'hapus.alpha',
      roles_id: cast.readerRole,
      company_ids: [cast.companyA],
    });
    const res = await cast.api(cast.limited.token, 'DELETE', `/api/user/${u.id}`);
    expect(res.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect(await cast.getUser(u.id)).toBeUndefined();
  });
});
