import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { type ListResponse } from '@sertifikasi/shared-contracts';
import { rolePermissions, roles, userCompanies } from '../../db/schema';
import { ADMIN_PASSWORD, login, permissionIds } from '../../../test/helpers';
import * as cast from '../../../test/users-cast';

cast.useUsersCast();

describe('the last full administrator', () => {
  it('cannot deactivate, demote or narrow the scope of themselves (422)', async () => {
    const self = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${cast.adminId}`,
      await cast.editBodyOf(cast.adminId, { is_active: 'false' }),
    );
    expect(self.statusCode).toBe(422);
    expect(self.json().message).toBe('Tidak dapat menonaktifkan akun sendiri');
    for (const over of [
      { roles_id: cast.almostAdminRole },
      { roles_id: cast.readerRole },
      { company_ids: JSON.stringify([cast.companyA, cast.companyB]) },
    ]) {
      const res = await cast.api(
        cast.ctx.adminToken,
        'PUT',
        `/api/user/${cast.adminId}`,
        await cast.editBodyOf(cast.adminId, over),
      );
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ code: 'validation', message: cast.LAST_ADMIN_UPDATE });
    }
    expect(await cast.getUser(cast.adminId)).toMatchObject({
      roles_id: cast.adminRole,
      company_ids: 'ALL',
      is_active: 'true',
    });
    // Other changes still go through.
    const rename = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${cast.adminId}`,
      await cast.editBodyOf(cast.adminId, { name: 'Admin Utama' }),
    );
    expect(rename.statusCode).toBe(200);
  });

  it('accepts the role and user ids in any letter case without losing the protection', async () => {
    const body = await cast.editBodyOf(cast.adminId, {
      roles_id: cast.adminRole.toUpperCase(),
      name: 'Admin Utama',
    });
    const same = await cast.api(cast.ctx.adminToken, 'PUT', `/api/user/${cast.adminId}`, body);
    expect(same.statusCode).toBe(200);
    expect(same.json().roles_id).toBe(cast.adminRole);
    const upper = `/api/user/${cast.adminId.toUpperCase()}`;
    const deactivate = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      upper,
      await cast.editBodyOf(cast.adminId, { is_active: 'false' }),
    );
    expect(deactivate.statusCode).toBe(422);
    const demote = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      upper,
      await cast.editBodyOf(cast.adminId, { roles_id: cast.readerRole }),
    );
    expect(demote.statusCode).toBe(422);
    expect((await cast.api(cast.ctx.adminToken, 'DELETE', upper)).json()).toMatchObject({ success: false });
    // A lesser user cannot touch them at all.
    expect((await cast.api(cast.almostAdmin.token, 'DELETE', upper)).statusCode).toBe(403);
    expect(await cast.getUser(cast.adminId)).toMatchObject({
      roles_id: cast.adminRole,
      company_ids: 'ALL',
      is_active: 'true',
    });
  });

  it('cannot be deleted: by themselves (refused) nor by a lesser user (403); inactive or limited full-role holders do not count', async () => {
    // Full role but inactive, and full role but a limited scope: neither is a full administrator.
    const inactive = await cast.ctx.make.user({
      username: 'admin.nonaktif',
      roles_id: cast.adminRole,
      company_ids: 'ALL',
    });
    await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${inactive.id}`,
      await cast.editBodyOf(inactive.id, { is_active: 'false' }),
    );
    await cast.ctx.make.user({
      username: 'admin.alpha',
      roles_id: cast.adminRole,
      company_ids: [cast.companyA],
    });
    const res = await cast.api(cast.almostAdmin.token, 'DELETE', `/api/user/${cast.adminId}`);
    expect(res.statusCode).toBe(403);
    expect(await cast.getUser(cast.adminId)).toBeDefined();
    const self = await cast.api(cast.ctx.adminToken, 'DELETE', `/api/user/${cast.adminId}`);
    expect(self.json()).toEqual({ success: false, message: 'Tidak dapat menghapus akun sendiri' });
  });

  it('with a second full administrator, can be demoted, narrowed, deactivated and deleted', async () => {
    const second = await cast.ctx.make.user({
      username: 'admin.kedua',
      roles_id: cast.adminRole,
      company_ids: 'ALL',
    });
    const demote = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${cast.adminId}`,
      await cast.editBodyOf(cast.adminId, { roles_id: cast.almostAdminRole }),
    );
    expect(demote.statusCode).toBe(200);
    expect(demote.json().roles_id).toBe(cast.almostAdminRole);
    // Now the second is the last one, and holds more than the first: the first cannot take them down.
    const demoteSecond = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${second.id}`,
      await cast.editBodyOf(second.id, { roles_id: cast.readerRole }),
    );
    expect(demoteSecond.statusCode).toBe(403);
    expect((await cast.api(cast.ctx.adminToken, 'DELETE', `/api/user/${second.id}`)).statusCode).toBe(403);
    // Nor can the second demote or delete themselves.
    const selfDemote = await cast.api(
      second.token,
      'PUT',
      `/api/user/${second.id}`,
      await cast.editBodyOf(second.id, { roles_id: cast.readerRole }),
    );
    expect(selfDemote.statusCode).toBe(422);
    expect(selfDemote.json().message).toBe(cast.LAST_ADMIN_UPDATE);
    // The second restores the first, then narrows and deactivates them, then restores again.
    const restore = await cast.api(
      second.token,
      'PUT',
      `/api/user/${cast.adminId}`,
      await cast.editBodyOf(cast.adminId, { roles_id: cast.adminRole }),
    );
    expect(restore.statusCode).toBe(200);
    const narrow = await cast.api(
      second.token,
      'PUT',
      `/api/user/${cast.adminId}`,
      await cast.editBodyOf(cast.adminId, { company_ids: JSON.stringify([cast.companyA]) }),
    );
    expect(narrow.statusCode).toBe(200);
    const back = await cast.api(
      second.token,
      'PUT',
      `/api/user/${cast.adminId}`,
      await cast.editBodyOf(cast.adminId, { company_ids: '"ALL"' }),
    );
    expect(back.statusCode).toBe(200);
    const third = await cast.ctx.make.user({
      username: 'admin.ketiga',
      roles_id: cast.adminRole,
      company_ids: 'ALL',
    });
    const off = await cast.api(
      second.token,
      'PUT',
      `/api/user/${third.id}`,
      await cast.editBodyOf(third.id, { is_active: 'false' }),
    );
    expect(off.statusCode).toBe(200);
    expect((await cast.api(third.token, 'GET', '/api/profile')).statusCode).toBe(401);
    // Deleting a full administrator while another remains succeeds.
    const del = await cast.api(cast.ctx.adminToken, 'DELETE', `/api/user/${second.id}`);
    expect(del.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect((await cast.api(second.token, 'GET', '/api/profile')).statusCode).toBe(401);
    expect(await cast.getUser(cast.adminId)).toMatchObject({
      roles_id: cast.adminRole,
      company_ids: 'ALL',
      is_active: 'true',
    });
    await login(cast.ctx.app, 'admin', ADMIN_PASSWORD);
  });
});

describe('users holding more access than the caller', () => {
  it('cannot be edited or deleted by a user manager, who keeps managing lesser users', async () => {
    const manager = await cast.ctx.make.user({
      username: 'pengelola.semua',
      roles_id: cast.managerRole,
      company_ids: 'ALL',
    });
    const before = await cast.editBodyOf(cast.almostAdmin.id);
    const edit = await cast.api(manager.token, 'PUT', `/api/user/${cast.almostAdmin.id}`, {
      ...before,
      roles_id: cast.readerRole,
      password: 'taken-over-1',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toBe('User ini memiliki akses yang tidak anda miliki');
    const del = await cast.api(manager.token, 'DELETE', `/api/user/${cast.almostAdmin.id}`);
    expect(del.statusCode).toBe(403);
    expect(await cast.getUser(cast.almostAdmin.id)).toMatchObject({
      roles_id: cast.almostAdminRole,
      is_active: 'true',
    });
    await login(cast.ctx.app, 'hampir.admin', 'password-123');
    const lesser = await cast.api(
      manager.token,
      'PUT',
      `/api/user/${cast.userB.id}`,
      await cast.editBodyOf(cast.userB.id, { name: 'Dewi A.' }),
    );
    expect(lesser.statusCode).toBe(200);
  });
});

describe('users with an empty scope (not ALL, no company)', () => {
  it('lie inside no limited scope: only a scope-ALL administrator sees and manages them', async () => {
    const orphan = await cast.ctx.make.user({
      username: 'tanpa.perusahaan',
      roles_id: cast.readerRole,
      company_ids: [cast.companyA],
      name: 'Tanpa Perusahaan',
    });
    // Data written before scopes were checked (or by hand) can leave a user with no company at all.
    await cast.ctx.database.db.delete(userCompanies).where(eq(userCompanies.user_id, orphan.id));
    expect(await cast.getUser(orphan.id)).toMatchObject({ company_ids: [] });
    // The limited administrator of company A: not in the list, not found by search, not editable.
    const list = await cast.api(cast.limited.token, 'GET', '/api/user?paginate=200');
    expect(list.json<ListResponse<cast.UserRow>>().data.map((u) => u.id)).not.toContain(orphan.id);
    expect((await cast.api(cast.limited.token, 'GET', '/api/user?search=tanpa')).json()).toMatchObject({
      total: 0,
      data: [],
    });
    const edit = await cast.api(cast.limited.token, 'PUT', `/api/user/${orphan.id}`, {
      ...(await cast.editBodyOf(orphan.id)),
      company_ids: JSON.stringify([cast.companyA]),
      password: 'diambil-alih-1',
    });
    expect(edit.statusCode).toBe(404);
    expect((await cast.api(cast.limited.token, 'DELETE', `/api/user/${orphan.id}`)).statusCode).toBe(404);
    await login(cast.ctx.app, 'tanpa.perusahaan', 'password-123');
    // A manager whose own scope is empty manages nobody, themselves included.
    const emptyManager = await cast.ctx.make.user({
      username: 'pengelola.kosong',
      roles_id: cast.managerRole,
      company_ids: [cast.companyB],
    });
    await cast.ctx.database.db.delete(userCompanies).where(eq(userCompanies.user_id, emptyManager.id));
    expect((await cast.api(emptyManager.token, 'GET', '/api/user?paginate=200')).json()).toMatchObject({
      total: 0,
      data: [],
    });
    expect((await cast.api(emptyManager.token, 'DELETE', `/api/user/${orphan.id}`)).statusCode).toBe(404);
    // The scope-ALL administrator sees them and gives them a scope again.
    const fixed = await cast.api(
      cast.ctx.adminToken,
      'PUT',
      `/api/user/${orphan.id}`,
      await cast.editBodyOf(orphan.id, { company_ids: JSON.stringify([cast.companyA]) }),
    );
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json().company_ids).toEqual([cast.companyA]);
    const seen = await cast.api(cast.limited.token, 'GET', '/api/user?search=tanpa');
    expect(seen.json<ListResponse<cast.UserRow>>().data.map((u) => u.id)).toEqual([orphan.id]);
    for (const id of [orphan.id, emptyManager.id]) {
      expect((await cast.api(cast.ctx.adminToken, 'DELETE', `/api/user/${id}`)).json().success).toBe(true);
    }
  });
});

describe('escalation checks run in the transaction that writes', () => {
  // A second connection holds a row lock between the check and the write.
  it('a role gaining a permission while a user is being given it is seen by the check (403)', async () => {
    const creator = await cast.ctx.make.user({
      username: 'pembuat.user',
      roles_id: cast.managerRole,
      company_ids: 'ALL',
    });
    const shifting = await cast.ctx.make.role('Peran Bergeser', ['statistik']);
    const ids = await permissionIds(cast.ctx.app, cast.ctx.adminToken);
    const db = cast.ctx.database.db;
    let response: Promise<LightMyRequestResponse> | undefined;
    await db.transaction(async (tx) => {
      // Another administrator's role edit, under way: the role's row is locked and company:delete added.
      await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, shifting)).for('update');
      // Raw: a service write would commit at once; the race needs it held open in this transaction.
      await tx.insert(rolePermissions).values({ role_id: shifting, permission_id: ids['company:delete']! });
      response = cast.postUser(creator.token, { username: 'dapat.hapus', roles_id: shifting });
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
    expect(res.json().message).toBe(cast.NO_PERMISSION_ESCALATION);
    const all = await cast.allUsers();
    expect([...all.values()].map((u) => u.username)).not.toContain('dapat.hapus');
  });
});
