/**
 * The cast of the users tests (users.test.ts, users-edit.test.ts, users-admin.test.ts): two companies,
 * roles from reading to almost everything, and users of each scope; each test file calling
 * `useUsersCast()` gets its own database with them.
 */
import { type ListResponse, PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { users } from '../src/db/schema';
import { allKeys } from './fixtures';
import { auditRowsOf, call, createTestContext, seededAdmin, type TestContext } from './helpers';
export interface UserRow {
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

export const LAST_ADMIN_UPDATE =
  'Administrator terakhir dengan akses penuh tidak dapat dinonaktifkan atau diturunkan';
export const NO_PERMISSION_ESCALATION = 'Tidak dapat memberikan akses yang tidak anda miliki';
export const NO_SCOPE_ESCALATION = 'Tidak dapat memberikan akses perusahaan di luar akses anda';
export const HASH = /argon2|password_hash|token_hash/;

export let ctx: TestContext;
export let adminId: string;
export let companyA: string;
export let companyB: string;
/** Administrator (seeded): every permission. */
export let adminRole: string;
/** statistik only. */
export let readerRole: string;
/** user (list) only: no create/edit/delete. */
export let viewerRole: string;
/** Manages users: statistik, user, user:create, user:edit, user:delete. */
export let managerRole: string;
/** Every permission but company:delete. */
export let almostAdminRole: string;
/** A manager limited to company A. */
export let limited: { id: string; token: string };
/** Reader users with various scopes. */
export let userA: { id: string; token: string };
export let userAB: { id: string; token: string };
export let userB: { id: string; token: string };
export let userAll: { id: string; token: string };
export let viewer: { id: string; token: string };
export let almostAdmin: { id: string; token: string };

export const api = (
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => call(ctx.app, token, method, url, payload);

/** Every user the administrator sees, by id. */
export async function allUsers(): Promise<Map<string, UserRow>> {
  const res = await api(ctx.adminToken, 'GET', '/api/user?paginate=200');
  expect(res.statusCode).toBe(200);
  return new Map(res.json<ListResponse<UserRow>>().data.map((u) => [u.id, u]));
}

export async function getUser(id: string): Promise<UserRow | undefined> {
  return (await allUsers()).get(id);
}

/** The PUT body that keeps a user as they are, with overrides. */
export function editBody(user: UserRow, over: Record<string, unknown> = {}) {
  return {
    name: user.name,
    username: user.username,
    roles_id: user.roles_id,
    company_ids: JSON.stringify(user.company_ids),
    is_active: user.is_active,
    ...over,
  };
}

export async function editBodyOf(id: string, over: Record<string, unknown> = {}) {
  const user = await getUser(id);
  if (!user) throw new Error(`user ${id} not found`);
  return editBody(user, over);
}

export const newUserBody = (over: Record<string, unknown> = {}) => ({
  name: 'Pengguna Baru',
  username: 'pengguna.baru',
  password: 'password-123',
  roles_id: readerRole,
  company_ids: '"ALL"',
  is_active: 'true',
  ...over,
});

/** A user created through POST /api/user by `token`'s holder: newUserBody with `over`. */
export const postUser = (token: string | null, over: Record<string, unknown> = {}) =>
  api(token, 'POST', '/api/user', newUserBody(over));

/** The audit rows of a user, oldest first. */
export const auditRows = (entityId: string) => auditRowsOf(ctx, 'user', entityId);

export async function userCount(): Promise<number> {
  return (await ctx.database.db.select({ id: users.id }).from(users)).length;
}

/** Registers the set-up of a users test file: a new context and the cast above. */
export function useUsersCast(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ id: adminId, roles_id: adminRole } = await seededAdmin(ctx));
    companyA = await ctx.make.company('PT Alpha Sertifikasi');
    companyB = await ctx.make.company('PT Beta Sertifikasi');
    readerRole = await ctx.make.role('Pembaca', ['statistik']);
    viewerRole = await ctx.make.role('Lihat User', ['statistik', 'user']);
    managerRole = await ctx.make.role('Pengelola User', ['statistik', ...allKeys('user')]);
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
}
