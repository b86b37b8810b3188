import { MESSAGES } from '@sertifikasi/shared-contracts';
import { login } from '../../../test/helpers';
import {
  NO_PERMISSION_ESCALATION,
  NO_SCOPE_ESCALATION,
  HASH,
  ctx,
  adminId,
  companyA,
  companyB,
  adminRole,
  readerRole,
  viewerRole,
  almostAdminRole,
  limited,
  userA,
  userAB,
  userB,
  userAll,
  viewer,
  almostAdmin,
  api,
  getUser,
  editBody,
  editBodyOf,
  auditRows,
  useUsersCast,
} from '../../../test/users-cast';

useUsersCast();

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
