// Long file: one describe per rule of roles (list, create, edit, stronger roles, last administrator, delete); they share the cast of roles and users of each strength, built once.
import { type ListResponse, MESSAGES, PERMISSION_KEYS, type Role } from '@sertifikasi/shared-contracts';
import { permissions, rolePermissions, roles } from '../../db/schema';
import { newId } from '../../lib/crypto';
import {
  call,
  permissionIds,
  seededAdmin,
  useTestContext,
  expect422,
  paging,
  auditRowsOf,
  createdAudit,
} from '../../../test/helpers';
import { allKeys } from '../../../test/fixtures';

/** A role as the API answers it. */
type RoleRow = Role;

const IN_USE = 'Gagal menghapus data karena data ini sudah dipakai di order';
const NEEDS_ALL = 'Tindakan ini memerlukan akses ke semua perusahaan';
const NO_ESCALATION = 'Tidak dapat memberikan hak akses yang tidak anda miliki';
const STRONGER_ROLE = 'Akses ini memiliki hak akses yang tidak anda miliki';
const LAST_ADMIN =
  'Akses ini dipakai administrator terakhir dengan akses penuh; hak aksesnya tidak dapat dikurangi';

const ctx = useTestContext();
let adminId: string;
let adminRole: string;
/** Permission id by key. */
let perm: Record<string, string>;
let allIds: string[];
let companyA: string;
/** statistik only. */
let readerRole: string;
/** statistik, roles (view only). */
let viewerRole: string;
/** statistik, roles with create/edit/delete, user. */
let managerRole: string;
/** user only (the user form's role selector). */
let userOnlyRole: string;
let reader: { id: string; token: string };
let viewer: { id: string; token: string };
let manager: { id: string; token: string };
/** managerRole with scope limited to company A. */
let limitedManager: { id: string; token: string };
let userOnly: { id: string; token: string };

const api = (
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => call(ctx.app, token, method, url, payload);

const idsOf = (keys: string[]) => keys.map((k) => perm[k]!).sort();

async function allRoles(): Promise<Map<string, RoleRow>> {
  const res = await api(ctx.adminToken, 'GET', '/api/roles?paginate=200');
  expect(res.statusCode).toBe(200);
  return new Map(res.json<ListResponse<RoleRow>>().data.map((r) => [r.id, r]));
}

const getRole = async (id: string) => (await allRoles()).get(id);

async function roleCount(): Promise<number> {
  return (await ctx.database.db.select({ id: roles.id }).from(roles)).length;
}

const auditRows = (entityId: string) => auditRowsOf(ctx, 'role', entityId);

/** The permission keys a token's user holds now. */
async function keysOf(token: string): Promise<string[]> {
  const res = await api(token, 'GET', '/api/user-info');
  expect(res.statusCode).toBe(200);
  return res.json<{ roles: string[] }>().roles;
}

beforeAll(async () => {
  ({ id: adminId, roles_id: adminRole } = await seededAdmin(ctx));
  perm = await permissionIds(ctx.app, ctx.adminToken);
  allIds = Object.values(perm).sort();
  companyA = await ctx.make.company('PT Alpha Akses');
  readerRole = await ctx.make.role('Pembaca', ['statistik']);
  viewerRole = await ctx.make.role('Lihat Akses', ['statistik', 'roles']);
  managerRole = await ctx.make.role('Pengelola Akses', ['statistik', ...allKeys('roles'), 'user']);
  userOnlyRole = await ctx.make.role('Hanya User', ['user']);
  const make = (username: string, roles_id: string, company_ids: 'ALL' | string[]) =>
    ctx.make.user({ username, roles_id, company_ids });
  reader = await make('pembaca', readerRole, 'ALL');
  viewer = await make('pelihat.akses', viewerRole, 'ALL');
  manager = await make('pengelola', managerRole, 'ALL');
  limitedManager = await make('pengelola.alpha', managerRole, [companyA]);
  userOnly = await make('hanya.user', userOnlyRole, 'ALL');
});

describe('GET /api/roles', () => {
  it('lists roles with their permission ids and user count', async () => {
    const res = await api(ctx.adminToken, 'GET', '/api/roles');
    expect(res.statusCode).toBe(200);
    const body = res.json<ListResponse<RoleRow>>();
    expect(body).toMatchObject({ total: 5, per_page: 20, current_page: 1, last_page: 1, from: 1, to: 5 });
    // Ordered by name, ignoring case.
    expect(body.data.map((r) => r.name)).toEqual([
      'Administrator',
      'Hanya User',
      'Lihat Akses',
      'Pembaca',
      'Pengelola Akses',
    ]);
    const admin = body.data.find((r) => r.id === adminRole)!;
    expect(admin).toMatchObject({ name: 'Administrator', user_count: 1 });
    expect(admin.permission).toEqual(allIds);
    expect(allIds).toHaveLength(PERMISSION_KEYS.length);
    const managers = body.data.find((r) => r.id === managerRole)!;
    expect(managers).toEqual({
      id: managerRole,
      name: 'Pengelola Akses',
      permission: idsOf(['statistik', 'roles', 'roles:create', 'roles:edit', 'roles:delete', 'user']),
      user_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('counts inactive users too', async () => {
    const role = await ctx.make.role('Dihitung', ['statistik']);
    const u = await ctx.make.user({ username: 'dihitung', roles_id: role, company_ids: 'ALL' });
    const off = await api(ctx.adminToken, 'PUT', `/api/user/${u.id}`, {
      name: 'dihitung',
      username: 'dihitung',
      roles_id: role,
      company_ids: '"ALL"',
      is_active: 'false',
    });
    expect(off.statusCode).toBe(200);
    expect((await getRole(role))?.user_count).toBe(1);
  });

  it('searches role names case-insensitively, wildcards taken literally', async () => {
    const found = await api(ctx.adminToken, 'GET', '/api/roles?search=%20pENGELOLA%20');
    expect(found.json<ListResponse<RoleRow>>().data.map((r) => r.id)).toEqual([managerRole]);
    expect(found.json().total).toBe(1);
    const akses = await api(ctx.adminToken, 'GET', '/api/roles?search=akses');
    expect(
      akses
        .json<ListResponse<RoleRow>>()
        .data.map((r) => r.name)
        .sort(),
    ).toEqual(['Lihat Akses', 'Pengelola Akses']);
    expect((await api(ctx.adminToken, 'GET', '/api/roles?search=%25')).json().total).toBe(0);
    expect((await api(ctx.adminToken, 'GET', '/api/roles?search=_')).json().total).toBe(0);
  });

  it('pages through the list', async () => {
    for (let i = 1; i <= 22; i++) {
      const res = await api(ctx.adminToken, 'POST', '/api/roles', {
        name: `Halaman ${String(i).padStart(2, '0')}`,
        permission: [],
      });
      expect(res.statusCode).toBe(201);
    }
    const first = await api(ctx.adminToken, 'GET', '/api/roles?search=halaman');
    expect(paging(first)).toEqual({ rows: [1, 20], total: 22, page: [1, 2], per_page: 20 });
    const second = await api(ctx.adminToken, 'GET', '/api/roles?search=HALAMAN&page=2');
    const page2 = second.json<ListResponse<RoleRow>>();
    expect(page2).toMatchObject({ total: 22, per_page: 20, current_page: 2, last_page: 2, from: 21, to: 22 });
    expect(page2.data.map((r) => r.name)).toEqual(['Halaman 21', 'Halaman 22']);
    const hundred = await api(ctx.adminToken, 'GET', '/api/roles?search=halaman&paginate=100');
    expect(hundred.json()).toMatchObject({ per_page: 100, last_page: 1, from: 1, to: 22 });
  });

  it('refuses a page size other than 20, 50, 100, 200 and unknown parameters (422)', async () => {
    const res = await api(ctx.adminToken, 'GET', '/api/roles?paginate=30');
    expect422.including(res, { paginate: 'Jumlah per halaman harus 20, 50, 100 atau 200' });
    const page = await api(ctx.adminToken, 'GET', '/api/roles?page=-1');
    expect(page.json().errors).toEqual({ page: 'Halaman minimal 1' });
    const unknown = await api(ctx.adminToken, 'GET', '/api/roles?order=name');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty('order');
  });

  it('refuses company_id like any unknown parameter (422): roles are shared by every company', async () => {
    for (const value of ['ALL', '3f2a1c4e-0000-4000-8000-000000000001']) {
      const res = await api(ctx.adminToken, 'GET', `/api/roles?company_id=${value}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation', errors: { company_id: expect.any(String) } });
    }
  });

  it('401 without a token, 403 without the roles permission; viewing needs no scope ALL', async () => {
    expect((await api(null, 'GET', '/api/roles')).statusCode).toBe(401);
    const res = await api(reader.token, 'GET', '/api/roles');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden', message: MESSAGES.forbidden });
    expect((await api(userOnly.token, 'GET', '/api/roles')).statusCode).toBe(403);
    expect((await api(viewer.token, 'GET', '/api/roles')).statusCode).toBe(200);
    expect((await api(limitedManager.token, 'GET', '/api/roles')).statusCode).toBe(200);
  });
});

describe('POST /api/roles', () => {
  it('creates a role (201) with its permission ids, deduplicated, in any letter case', async () => {
    const res = await api(ctx.adminToken, 'POST', '/api/roles', {
      name: '  Auditor Mutu  ',
      permission: [perm['company']!, perm['company']!.toUpperCase(), perm['statistik']!],
    });
    expect(res.statusCode).toBe(201);
    const role = res.json<RoleRow>();
    expect(role).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Auditor Mutu',
      permission: idsOf(['company', 'statistik']),
      user_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await getRole(role.id)).toEqual(role);
    const empty = await api(ctx.adminToken, 'POST', '/api/roles', { name: 'Tanpa Hak' });
    expect(empty.statusCode).toBe(201);
    expect(empty.json().permission).toEqual([]);
  });

  it('refuses invalid input with 422 and Indonesian field errors, writing nothing', async () => {
    const before = await roleCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ permission: [] }, 'name', 'Nama Akses wajib diisi'],
      [{ name: ' ', permission: [] }, 'name', 'Nama Akses wajib diisi'],
      [{ name: 'x'.repeat(101) }, 'name', 'Nama Akses maksimal 100 karakter'],
      [{ name: 'Salah', permission: 'semua' }, 'permission', 'Hak akses harus berupa daftar'],
      [{ name: 'Salah', permission: ['bukan-uuid'] }, 'permission[0]', 'Hak akses tidak valid'],
      [
        { name: 'Salah', permission: ['00000000-0000-4000-8000-000000000000'] },
        'permission',
        'Hak akses tidak ditemukan',
      ],
      [{ name: 'Salah', permission: [], user_count: 5 }, 'user_count', 'Field tidak dikenal'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await api(ctx.adminToken, 'POST', '/api/roles', payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 422 });
      expect(res.json()).toMatchObject({ code: 'validation', errors: { [field]: message } });
    }
    expect(await roleCount()).toBe(before);
  });

  it('refuses a name taken in any case with a field error', async () => {
    for (const name of ['ADMINISTRATOR', 'pembaca', ' Pengelola akses ']) {
      const res = await api(ctx.adminToken, 'POST', '/api/roles', { name, permission: [] });
      expect422.field(res, 'name', 'Nama akses sudah digunakan');
    }
  });

  it('401 without a token; 403 without roles:create and for a caller with a limited scope', async () => {
    const before = await roleCount();
    const payload = { name: 'Tidak Boleh', permission: [perm['statistik']] };
    expect((await api(null, 'POST', '/api/roles', payload)).statusCode).toBe(401);
    const noPermission = await api(viewer.token, 'POST', '/api/roles', payload);
    expect(noPermission.statusCode).toBe(403);
    expect(noPermission.json()).toEqual({ code: 'forbidden', message: MESSAGES.forbidden });
    const limited = await api(limitedManager.token, 'POST', '/api/roles', payload);
    expect(limited.statusCode).toBe(403);
    expect(limited.json()).toEqual({ code: 'forbidden', message: NEEDS_ALL });
    expect(await roleCount()).toBe(before);
  });

  it('refuses a role holding a permission the caller lacks (403); allows one within theirs', async () => {
    const before = await roleCount();
    for (const keys of [['company'], ['statistik', 'user:create'], PERMISSION_KEYS as readonly string[]]) {
      const res = await api(manager.token, 'POST', '/api/roles', {
        name: 'Naik Pangkat',
        permission: idsOf([...keys]),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'forbidden', message: NO_ESCALATION });
    }
    expect(await roleCount()).toBe(before);
    const ok = await api(manager.token, 'POST', '/api/roles', {
      name: 'Sebagian',
      permission: idsOf(['statistik', 'roles']),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().permission).toEqual(idsOf(['statistik', 'roles']));
  });

  it('writes the audit log naming the actor', async () => {
    const res = await api(manager.token, 'POST', '/api/roles', {
      name: 'Diaudit',
      permission: idsOf(['user']),
    });
    const { id, row } = await createdAudit(ctx, res, 'role');
    expect(row).toMatchObject({
      actor_id: manager.id,
      actor_username: 'pengelola',
      action: 'create',
      entity: 'role',
      entity_id: id,
      before: null,
      after: { id, name: 'Diaudit', permission: idsOf(['user']), user_count: 0 },
    });
  });
});

describe('PUT /api/roles/:id', () => {
  it('renames and changes permissions; holders get the new permissions at once; audit written', async () => {
    const role = await ctx.make.role('Operator', ['statistik']);
    const holder = await ctx.make.user({ username: 'operator', roles_id: role, company_ids: 'ALL' });
    expect(await keysOf(holder.token)).toEqual(['statistik']);
    const res = await api(ctx.adminToken, 'PUT', `/api/roles/${role}`, {
      name: 'Operator Senior',
      permission: idsOf(['statistik', 'company']),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: role,
      name: 'Operator Senior',
      permission: idsOf(['statistik', 'company']),
      user_count: 1,
    });
    expect((await keysOf(holder.token)).sort()).toEqual(['company', 'statistik']);
    expect((await api(holder.token, 'GET', '/api/company')).statusCode).toBe(200);
    const rows = (await auditRows(role)).filter((r) => r.action === 'update');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: adminId,
      actor_username: 'admin',
      entity: 'role',
      before: { id: role, name: 'Operator', permission: idsOf(['statistik']) },
      after: { id: role, name: 'Operator Senior', permission: idsOf(['statistik', 'company']) },
    });
  });

  it('keeps its own name in another case; refuses another role’s name (422)', async () => {
    const own = await api(ctx.adminToken, 'PUT', `/api/roles/${readerRole}`, {
      name: 'PEMBACA',
      permission: idsOf(['statistik']),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().name).toBe('PEMBACA');
    const taken = await api(ctx.adminToken, 'PUT', `/api/roles/${readerRole}`, {
      name: 'lihat akses',
      permission: idsOf(['statistik']),
    });
    expect422.errors(taken, { name: 'Nama akses sudah digunakan' });
    expect((await getRole(readerRole))?.name).toBe('PEMBACA');
  });

  it('refuses invalid input with 422, changing nothing', async () => {
    const before = await getRole(readerRole);
    for (const [payload, field] of [
      [{ name: '', permission: [] }, 'name'],
      [{ name: 'Pembaca', permission: [42] }, 'permission[0]'],
      [{ name: 'Pembaca', permission: ['00000000-0000-4000-8000-000000000000'] }, 'permission'],
      [{ name: 'Pembaca', permission: [], id: readerRole }, 'id'],
    ] as [Record<string, unknown>, string][]) {
      const res = await api(ctx.adminToken, 'PUT', `/api/roles/${readerRole}`, payload);
      expect({ payload, status: res.statusCode }).toEqual({ payload, status: 422 });
      expect(res.json().errors).toHaveProperty([field]);
    }
    expect(await getRole(readerRole)).toEqual(before);
  });

  it('answers 404 for an unknown or malformed id, and reads an id in capitals', async () => {
    const payload = { name: 'Siapa', permission: [] };
    const unknown = await api(
      ctx.adminToken,
      'PUT',
      '/api/roles/00000000-0000-4000-8000-000000000000',
      payload,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: MESSAGES.notFound });
    expect((await api(ctx.adminToken, 'PUT', '/api/roles/abc', payload)).statusCode).toBe(404);
    const upper = await api(ctx.adminToken, 'PUT', `/api/roles/${readerRole.toUpperCase()}`, {
      name: 'Pembaca',
      permission: idsOf(['statistik']),
    });
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toMatchObject({ id: readerRole, name: 'Pembaca' });
  });

  it('401 without a token; 403 without roles:edit, for a limited scope, and for permissions the caller lacks', async () => {
    const before = await getRole(readerRole);
    const payload = { name: 'Pembaca Diubah', permission: idsOf(['statistik']) };
    expect((await api(null, 'PUT', `/api/roles/${readerRole}`, payload)).statusCode).toBe(401);
    expect((await api(viewer.token, 'PUT', `/api/roles/${readerRole}`, payload)).json()).toEqual({
      code: 'forbidden',
      message: MESSAGES.forbidden,
    });
    const limited = await api(limitedManager.token, 'PUT', `/api/roles/${readerRole}`, payload);
    expect(limited.statusCode).toBe(403);
    expect(limited.json().message).toBe(NEEDS_ALL);
    const widen = await api(manager.token, 'PUT', `/api/roles/${readerRole}`, {
      name: 'Pembaca',
      permission: idsOf(['statistik', 'company:delete']),
    });
    expect(widen.statusCode).toBe(403);
    expect(widen.json()).toEqual({ code: 'forbidden', message: NO_ESCALATION });
    expect(await getRole(readerRole)).toEqual(before);
    // Nor can the caller widen their own role.
    const own = await getRole(managerRole);
    const self = await api(manager.token, 'PUT', `/api/roles/${managerRole}`, {
      name: 'Pengelola Akses',
      permission: [...own!.permission, perm['user:create']],
    });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(NO_ESCALATION);
    expect(await getRole(managerRole)).toEqual(own);
    expect(await keysOf(manager.token)).not.toContain('user:create');
  });
});

describe('editing or deleting a stronger role', () => {
  /** Holds roles:edit/delete, user and user:edit with scope ALL, but far from everything. */
  let attackerRole: string;
  let attacker: { id: string; token: string };
  /** Every permission but company:delete, held by one user. */
  let strongRole: string;
  let strong: { id: string; token: string };
  const ATTACKER_KEYS = ['statistik', 'roles', 'roles:edit', 'roles:delete', 'user', 'user:edit'];

  beforeAll(async () => {
    attackerRole = await ctx.make.role('Pengubah Akses', ATTACKER_KEYS);
    attacker = await ctx.make.user({
      username: 'pengubah.akses',
      roles_id: attackerRole,
      company_ids: 'ALL',
    });
    strongRole = await ctx.make.role(
      'Hampir Penuh',
      PERMISSION_KEYS.filter((k) => k !== 'company:delete'),
    );
    strong = await ctx.make.user({ username: 'hampir.penuh', roles_id: strongRole, company_ids: 'ALL' });
  });

  it('cannot strip a stronger role down to their own permissions and then take over its holder (403)', async () => {
    const before = await getRole(strongRole);
    const strip = await api(attacker.token, 'PUT', `/api/roles/${strongRole}`, {
      name: 'Hampir Penuh',
      permission: idsOf(ATTACKER_KEYS),
    });
    expect(strip.statusCode).toBe(403);
    expect(strip.json()).toEqual({ code: 'forbidden', message: STRONGER_ROLE });
    expect(await getRole(strongRole)).toEqual(before);
    expect(await keysOf(strong.token)).toContain('company:create');
    // So the holder stays out of reach: their password cannot be set by the attacker.
    const takeover = await api(attacker.token, 'PUT', `/api/user/${strong.id}`, {
      name: 'hampir.penuh',
      username: 'hampir.penuh',
      password: 'diambil-alih-1',
      roles_id: strongRole,
      company_ids: '"ALL"',
      is_active: 'true',
    });
    expect(takeover.statusCode).toBe(403);
    expect(await keysOf(strong.token)).toContain('company:create');
    // Nor the Administrator role, even while a second full administrator exists.
    const admin = await getRole(adminRole);
    const stripAdmin = await api(attacker.token, 'PUT', `/api/roles/${adminRole}`, {
      name: admin!.name,
      permission: idsOf(ATTACKER_KEYS),
    });
    expect(stripAdmin.statusCode).toBe(403);
    expect(stripAdmin.json().message).toBe(STRONGER_ROLE);
    expect(await getRole(adminRole)).toEqual(admin);
    // Renaming it needs the same: editing is editing.
    const rename = await api(attacker.token, 'PUT', `/api/roles/${strongRole}`, { name: 'Lemah' });
    expect(rename.statusCode).toBe(403);
  });

  it('cannot delete a stronger role, even one nobody holds (403); can delete one within theirs', async () => {
    const unused = await ctx.make.role('Kuat Tak Terpakai', ['statistik', 'company:delete']);
    const res = await api(attacker.token, 'DELETE', `/api/roles/${unused}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'forbidden', message: STRONGER_ROLE });
    expect(await getRole(unused)).toBeDefined();
    const weak = await ctx.make.role('Lemah Tak Terpakai', ['statistik']);
    const ok = await api(attacker.token, 'DELETE', `/api/roles/${weak}`);
    expect(ok.json()).toEqual({ success: true, message: MESSAGES.deleted });
    expect(await getRole(weak)).toBeUndefined();
  });

  it('can edit a role within their own permissions', async () => {
    const weak = await ctx.make.role('Lemah Diubah', ['statistik', 'user']);
    const res = await api(attacker.token, 'PUT', `/api/roles/${weak}`, {
      name: 'Lemah Diubah',
      permission: idsOf(['statistik']),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().permission).toEqual(idsOf(['statistik']));
  });
});

describe('an update without permission', () => {
  it('renames the role and keeps its permissions', async () => {
    const id = await ctx.make.role('Tetap Utuh', ['statistik', 'user', 'company']);
    const res = await api(ctx.adminToken, 'PUT', `/api/roles/${id}`, { name: 'Tetap Utuh Baru' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Tetap Utuh Baru',
      permission: idsOf(['statistik', 'user', 'company']),
    });
    expect((await getRole(id))?.permission).toEqual(idsOf(['statistik', 'user', 'company']));
    // An explicit empty list still empties it.
    const emptied = await api(ctx.adminToken, 'PUT', `/api/roles/${id}`, {
      name: 'Tetap Utuh Baru',
      permission: [],
    });
    expect(emptied.json().permission).toEqual([]);
  });
});

describe('the role of the last full administrator', () => {
  it('cannot lose a permission (422); renaming it is fine', async () => {
    const res = await api(ctx.adminToken, 'PUT', `/api/roles/${adminRole}`, {
      name: 'Administrator',
      permission: allIds.filter((id) => id !== perm['company:delete']),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ code: 'validation', message: LAST_ADMIN });
    expect((await getRole(adminRole))?.permission).toEqual(allIds);
    expect(await keysOf(ctx.adminToken)).toContain('company:delete');
    const emptied = await api(ctx.adminToken, 'PUT', `/api/roles/${adminRole}`, {
      name: 'Administrator',
      permission: [],
    });
    expect(emptied.statusCode).toBe(422);
    const rename = await api(ctx.adminToken, 'PUT', `/api/roles/${adminRole}`, {
      name: 'Administrator Utama',
      permission: allIds,
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json()).toMatchObject({ name: 'Administrator Utama', permission: allIds, user_count: 1 });
  });

  it('counts only roles holding every known key as full, whatever stray rows a role has', async () => {
    // A role one key short of everything, padded with a permission this version does not know, so it
    // has as many rows as the catalogue has keys. Its holder is not a full administrator.
    const padded = await ctx.make.role(
      'Penuh Palsu',
      PERMISSION_KEYS.filter((k) => k !== 'company:delete'),
    );
    // Raw: the services only write permissions of this version's catalogue; a stray one is a leftover.
    const strayId = newId();
    await ctx.database.db.insert(permissions).values({ id: strayId, name: 'modul-lama' });
    await ctx.database.db.insert(rolePermissions).values({ role_id: padded, permission_id: strayId });
    await ctx.make.user({ username: 'penuh.palsu', roles_id: padded, company_ids: 'ALL' });
    const res = await api(ctx.adminToken, 'PUT', `/api/roles/${adminRole}`, {
      name: 'Administrator Utama',
      permission: allIds.filter((id) => id !== perm['statistik']),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ code: 'validation', message: LAST_ADMIN });
    expect((await getRole(adminRole))?.permission).toEqual(allIds);
  });

  it('can lose a permission while another full administrator remains', async () => {
    const fullRole = await ctx.make.role('Penuh Kedua', [...PERMISSION_KEYS]);
    const second = await ctx.make.user({ username: 'admin.kedua', roles_id: fullRole, company_ids: 'ALL' });
    const res = await api(ctx.adminToken, 'PUT', `/api/roles/${adminRole}`, {
      name: 'Administrator',
      permission: allIds.filter((id) => id !== perm['company:delete']),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().permission).toHaveLength(allIds.length - 1);
    expect(await keysOf(ctx.adminToken)).not.toContain('company:delete');
    // Now the second is the last one: their role cannot lose a permission either.
    const drop = await api(second.token, 'PUT', `/api/roles/${fullRole}`, {
      name: 'Penuh Kedua',
      permission: allIds.filter((id) => id !== perm['statistik']),
    });
    expect(drop.statusCode).toBe(422);
    expect(drop.json().message).toBe(LAST_ADMIN);
    // The second administrator gives the permission back.
    const restore = await api(second.token, 'PUT', `/api/roles/${adminRole}`, {
      name: 'Administrator',
      permission: allIds,
    });
    expect(restore.statusCode).toBe(200);
    expect(await keysOf(ctx.adminToken)).toContain('company:delete');
  });
});

describe('DELETE /api/roles/:id', () => {
  it('refuses to delete a role that users hold, active or not, and deletes nothing', async () => {
    const before = await roleCount();
    const res = await api(ctx.adminToken, 'DELETE', `/api/roles/${managerRole}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, message: IN_USE });
    // 'Dihitung' is held by an inactive user only.
    const inactiveOnly = [...(await allRoles()).values()].find((r) => r.name === 'Dihitung')!;
    expect(inactiveOnly.user_count).toBe(1);
    const refused = await api(ctx.adminToken, 'DELETE', `/api/roles/${inactiveOnly.id}`);
    expect(refused.json()).toEqual({ success: false, message: IN_USE });
    expect(await roleCount()).toBe(before);
    expect(await getRole(managerRole)).toBeDefined();
  });

  it('deletes an unused role: success message, gone, audit written', async () => {
    const role = await ctx.make.role('Sementara', ['statistik', 'user']);
    const res = await api(manager.token, 'DELETE', `/api/roles/${role}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect(await getRole(role)).toBeUndefined();
    expect((await api(ctx.adminToken, 'DELETE', `/api/roles/${role}`)).statusCode).toBe(404);
    const rows = (await auditRows(role)).filter((r) => r.action === 'delete');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: manager.id,
      actor_username: 'pengelola',
      entity: 'role',
      before: { id: role, name: 'Sementara', permission: idsOf(['statistik', 'user']), user_count: 0 },
      after: null,
    });
  });

  it('deletes a role once its last user is gone', async () => {
    const role = await ctx.make.role('Sekali Pakai', ['statistik']);
    const u = await ctx.make.user({ username: 'sekali', roles_id: role, company_ids: 'ALL' });
    expect((await api(ctx.adminToken, 'DELETE', `/api/roles/${role}`)).json().success).toBe(false);
    expect((await api(ctx.adminToken, 'DELETE', `/api/user/${u.id}`)).json().success).toBe(true);
    expect((await api(ctx.adminToken, 'DELETE', `/api/roles/${role}`)).json()).toEqual({
      success: true,
      message: 'Berhasil menghapus data',
    });
  });

  it('answers 404 for unknown ids; 401 without a token; 403 without roles:delete or scope ALL', async () => {
    const role = await ctx.make.role('Tetap Ada', []);
    const unknown = await api(ctx.adminToken, 'DELETE', '/api/roles/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not-found', message: MESSAGES.notFound });
    expect((await api(ctx.adminToken, 'DELETE', '/api/roles/xyz')).statusCode).toBe(404);
    expect((await api(null, 'DELETE', `/api/roles/${role}`)).statusCode).toBe(401);
    const noPermission = await api(viewer.token, 'DELETE', `/api/roles/${role}`);
    expect(noPermission.statusCode).toBe(403);
    expect(noPermission.json().code).toBe('forbidden');
    const limited = await api(limitedManager.token, 'DELETE', `/api/roles/${role}`);
    expect(limited.statusCode).toBe(403);
    expect(limited.json()).toEqual({ code: 'forbidden', message: NEEDS_ALL });
    expect(await getRole(role)).toBeDefined();
  });
});

describe('GET /api/select/roles and /api/select/permission', () => {
  it('select/roles gives {id, name} by name to holders of user or roles', async () => {
    for (const token of [userOnly.token, viewer.token, ctx.adminToken]) {
      const res = await api(token, 'GET', '/api/select/roles');
      expect(res.statusCode).toBe(200);
      const options = res.json<{ id: string; name: string }[]>();
      expect(options).toContainEqual({ id: managerRole, name: 'Pengelola Akses' });
      expect(Object.keys(options[0]!).sort()).toEqual(['id', 'name']);
      const names = options.map((o) => o.name.toLowerCase());
      expect(names).toEqual([...names].sort());
    }
    expect((await api(reader.token, 'GET', '/api/select/roles')).statusCode).toBe(403);
    expect((await api(null, 'GET', '/api/select/roles')).statusCode).toBe(401);
  });

  it('select/permission gives the whole catalogue in order to holders of roles', async () => {
    const res = await api(viewer.token, 'GET', '/api/select/permission');
    expect(res.statusCode).toBe(200);
    const options = res.json<{ id: string; name: string }[]>();
    expect(options.map((o) => o.name)).toEqual([...PERMISSION_KEYS]);
    expect(options.map((o) => o.id).sort()).toEqual(allIds);
    expect((await api(userOnly.token, 'GET', '/api/select/permission')).statusCode).toBe(403);
    expect((await api(null, 'GET', '/api/select/permission')).statusCode).toBe(401);
  });
});
