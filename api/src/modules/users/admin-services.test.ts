/**
 * The company, role and user services called as the import or the command line will call them: no
 * HTTP, one transaction, an acting user and a clock. What a form save does (checks, write, audit,
 * sessions, after-write steps) happens the same way, and the rules of docs/rules.md#permissions are
 * the service's own, whoever calls it.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { ALL, PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { auditLog, companies, roles, sessions, users } from '../../db/schema';
import { createClock } from '../../lib/clock';
import { hashToken } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type * as AfterWriteModule from '../../services/after-write';
import { afterWrite } from '../../services/after-write';
import type { Actor, ServiceContext } from '../../services/context';
import { systemActor } from '../../services/context';
import { call, login, permissionIds, useTestContext } from '../../../test/helpers';
import * as companyService from '../companies/companies.service';
import * as roleService from '../roles/roles.service';
import * as userService from './users.service';

// The after-write steps run as they do in the app; the test sees every call (and can make one fail).
jest.mock('../../services/after-write', () => {
  const actual = jest.requireActual<typeof AfterWriteModule>('../../services/after-write');
  return { ...actual, afterWrite: jest.fn(actual.afterWrite) };
});
const steps = jest.mocked(afterWrite);

const ctx = useTestContext();
let ids: Record<string, string>;
let adminId: string;
let adminRoleId: string;
beforeAll(async () => {
  ids = await permissionIds(ctx.app, ctx.adminToken);
  const profile = (await call(ctx.app, ctx.adminToken, 'GET', '/api/profile')).json<{
    id: string;
    roles_id: string;
  }>();
  adminId = profile.id;
  adminRoleId = profile.roles_id;
});
beforeEach(() => steps.mockClear());

/** A fixed instant, so the audit rows and updated_at show they came from the context's clock. */
const AT = new Date('2026-03-02T03:04:05.000Z');
const clock = createClock('Asia/Jakarta');
clock.set(AT);

const actorFor = (user: { id: string; username: string }, over: Partial<Actor> = {}): Actor => ({
  user,
  permissions: new Set(PERMISSION_KEYS),
  scope: ALL,
  requestId: null,
  source: 'cli',
  ...over,
});
const contextFor = (tx: Executor, actor: Actor): ServiceContext => ({
  tx,
  actor,
  clock,
  config: ctx.app.config,
});

/** The error a service call was refused with. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('company, role and user services without HTTP', () => {
  it('create, update and delete in one transaction, each audited with the actor and the clock, each through the after-write steps', async () => {
    const db = ctx.database.db;
    const admin = actorFor({ id: adminId, username: 'admin' });
    const password = await userService.preparePassword(ctx.app.config, 'password-123');
    const written = await db.transaction(async (tx) => {
      const sc = contextFor(tx, admin);
      const company = await companyService.create(sc, {
        name: 'PT Tanpa HTTP',
        website: 'https://tanpa-http.co.id',
        simple_dates: 'true',
        public_certificate_download: 'false',
      });
      const role = await roleService.create(sc, { name: 'Peran Tanpa HTTP', permission: [ids.statistik!] });
      const user = await userService.create(
        sc,
        {
          name: 'Pengguna Tanpa HTTP',
          username: 'tanpa.http',
          roles_id: role.id,
          company_ids: JSON.stringify([company.id]),
          is_active: 'true',
        },
        password,
      );
      expect(user).toMatchObject({
        roles: { id: role.id, name: 'Peran Tanpa HTTP' },
        company_ids: [company.id],
      });

      const renamed = await companyService.update(sc, company.id, {
        name: 'PT Tanpa HTTP Baru',
        website: 'https://tanpa-http.co.id',
        simple_dates: 'false',
        public_certificate_download: 'true',
      });
      expect(renamed).toMatchObject({ name: 'PT Tanpa HTTP Baru', public_certificate_download: 'true' });
      expect(renamed.updated_at).toBe(AT.toISOString());
      const widened = await roleService.update(sc, role.id, {
        name: 'Peran Tanpa HTTP',
        permission: [ids.statistik!, ids.company!],
      });
      expect(widened.permission).toEqual([ids.statistik, ids.company].sort());
      const moved = await userService.update(sc, user.id, {
        name: 'Pengguna Tanpa HTTP',
        username: 'tanpa.http',
        roles_id: role.id,
        company_ids: '"ALL"',
        is_active: 'true',
      });
      expect(moved.company_ids).toBe(ALL);

      // Still in use: the company by the user's scope (now ALL: no longer), the role by the user.
      expect(await roleService.remove(sc, role.id)).toMatchObject({ success: false });
      expect(await userService.remove(sc, user.id)).toEqual({ success: true, message: expect.any(String) });
      expect(await roleService.remove(sc, role.id)).toMatchObject({ success: true });
      expect(await companyService.remove(sc, company.id)).toMatchObject({ success: true });
      return { company: company.id, role: role.id, user: user.id };
    });

    const rows = await db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.entity_id, Object.values(written)));
    const seen = rows.map((r) => `${r.entity} ${r.action}`).sort();
    expect(seen).toEqual(
      ['company', 'role', 'user'].flatMap((e) => [`${e} create`, `${e} delete`, `${e} update`]).sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({ actor_id: adminId, actor_username: 'admin', request_id: null });
      expect(row.at.toISOString()).toBe(AT.toISOString());
      expect(JSON.stringify(row)).not.toMatch(/argon2|password_hash/);
    }
    const companyUpdate = rows.find((r) => r.entity === 'company' && r.action === 'update')!;
    expect(companyUpdate).toMatchObject({
      company_id: written.company,
      before: expect.objectContaining({ name: 'PT Tanpa HTTP' }),
      after: expect.objectContaining({ name: 'PT Tanpa HTTP Baru' }),
    });

    // Every write went through the after-write steps with the stored rows, in the order made.
    const events = steps.mock.calls.map(([, e]) => [e.entity, e.action, e.id, !!e.before, !!e.after]);
    expect(events).toEqual([
      ['company', 'create', written.company, false, true],
      ['role', 'create', written.role, false, true],
      ['user', 'create', written.user, false, true],
      ['company', 'update', written.company, true, true],
      ['role', 'update', written.role, true, true],
      ['user', 'update', written.user, true, true],
      ['user', 'delete', written.user, true, false],
      ['role', 'delete', written.role, true, false],
      ['company', 'delete', written.company, true, false],
    ]);
    const companyEvent = steps.mock.calls.find(
      ([, e]) => e.entity === 'company' && e.action === 'update',
    )![1];
    expect(companyEvent.before).toMatchObject({ name: 'PT Tanpa HTTP', simple_dates: true });
    expect(companyEvent.after).toMatchObject({ name: 'PT Tanpa HTTP Baru', simple_dates: false });
    expect((companyEvent.after as { updated_at: Date }).updated_at.toISOString()).toBe(AT.toISOString());
    // Nothing of them is left.
    expect(await db.select().from(companies).where(eq(companies.id, written.company))).toEqual([]);
    expect(await db.select().from(roles).where(eq(roles.id, written.role))).toEqual([]);
    expect(await db.select().from(users).where(eq(users.id, written.user))).toEqual([]);
  });

  it('a step that throws rolls the whole write back, audit included', async () => {
    steps.mockRejectedValueOnce(new Error('langkah gagal'));
    const db = ctx.database.db;
    await expect(
      db.transaction((tx) =>
        companyService.create(contextFor(tx, systemActor('import')), {
          name: 'PT Digulung Balik',
          website: 'https://digulung.co.id',
          simple_dates: 'false',
          public_certificate_download: 'false',
        }),
      ),
    ).rejects.toThrow('langkah gagal');
    expect(await db.select().from(companies).where(eq(companies.name, 'PT Digulung Balik'))).toEqual([]);
    expect(
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'company'), eq(auditLog.action, 'create'))),
    ).not.toContainEqual(
      expect.objectContaining({ after: expect.objectContaining({ name: 'PT Digulung Balik' }) }),
    );
  });

  it('refuses an escalation itself, reading the actor’s authority as stored, whatever the actor claims', async () => {
    const companyA = await ctx.make.company('PT Eskalasi Alpha');
    const companyB = await ctx.make.company('PT Eskalasi Beta');
    const managerRole = await ctx.make.role('Pengelola Eskalasi', [
      'statistik',
      'user',
      'user:create',
      'user:edit',
      'roles',
      'roles:create',
    ]);
    const manager = await ctx.make.user({
      username: 'pengelola.eskalasi',
      roles_id: managerRole,
      company_ids: [companyA],
    });
    const strongRole = await ctx.make.role('Peran Kuat', ['statistik', 'company:delete']);
    const weakRole = await ctx.make.role('Peran Lemah', ['statistik']);
    // The actor claims every permission and scope ALL: the services read the stored role and scope.
    const claimsAll = actorFor({ id: manager.id, username: 'pengelola.eskalasi' });
    const db = ctx.database.db;
    const newUser = (roles_id: string, company_ids: string) => ({
      name: 'Calon Pengguna',
      username: 'calon.pengguna',
      roles_id,
      company_ids,
      is_active: 'true' as const,
    });
    const password = await userService.preparePassword(ctx.app.config, 'password-123');
    const usersBefore = (await db.select().from(users)).length;

    const role = await refusal(
      db.transaction((tx) =>
        userService.create(
          contextFor(tx, claimsAll),
          newUser(strongRole, JSON.stringify([companyA])),
          password,
        ),
      ),
    );
    expect([role.statusCode, role.message]).toEqual([403, userService.NO_PERMISSION_ESCALATION]);
    const scope = await refusal(
      db.transaction((tx) =>
        userService.create(
          contextFor(tx, claimsAll),
          newUser(weakRole, JSON.stringify([companyA, companyB])),
          password,
        ),
      ),
    );
    expect([scope.statusCode, scope.message]).toEqual([403, userService.NO_SCOPE_ESCALATION]);
    const all = await refusal(
      db.transaction((tx) =>
        userService.create(contextFor(tx, claimsAll), newUser(weakRole, '"ALL"'), password),
      ),
    );
    expect([all.statusCode, all.message]).toEqual([403, userService.NO_SCOPE_ESCALATION]);
    // Roles are shared by every company: a limited scope cannot write one, whatever it claims.
    const shared = await refusal(
      db.transaction((tx) =>
        roleService.create(contextFor(tx, claimsAll), { name: 'Peran Baru', permission: [ids.statistik!] }),
      ),
    );
    expect(shared.statusCode).toBe(403);
    expect((await db.select().from(users)).length).toBe(usersBefore);

    // Within what the manager holds, the same call goes through.
    const made = await db.transaction((tx) =>
      userService.create(contextFor(tx, claimsAll), newUser(weakRole, JSON.stringify([companyA])), password),
    );
    expect(made).toMatchObject({ username: 'calon.pengguna', company_ids: [companyA] });

    // A full-scope role manager still cannot hand out a permission they lack.
    const roleManager = await ctx.make.user({
      username: 'pengelola.peran',
      roles_id: managerRole,
      company_ids: 'ALL',
    });
    const stronger = await refusal(
      db.transaction((tx) =>
        roleService.create(contextFor(tx, actorFor({ id: roleManager.id, username: 'pengelola.peran' })), {
          name: 'Peran Hapus Perusahaan',
          permission: [ids.statistik!, ids['company:delete']!],
        }),
      ),
    );
    expect([stronger.statusCode, stronger.message]).toEqual([403, roleService.NO_PERMISSION_ESCALATION]);
    expect(await db.select().from(roles).where(eq(roles.name, 'Peran Hapus Perusahaan'))).toEqual([]);
  });

  it('the profile: a new password ends the other sessions but the actor’s own; nobody deactivates themselves', async () => {
    const db = ctx.database.db;
    const me = await ctx.make.user({ username: 'profil.layanan', keys: ['statistik'], company_ids: 'ALL' });
    const other = await login(ctx.app, 'profil.layanan', 'password-123');
    const [kept] = await db
      .select()
      .from(sessions)
      .where(eq(sessions.token_hash, hashToken(me.token)));
    const actor = actorFor({ id: me.id, username: 'profil.layanan' }, { sessionId: kept!.id });
    const password = await userService.preparePassword(ctx.app.config, 'sandi-baru-123');
    const after = await db.transaction((tx) =>
      userService.updateProfile(
        contextFor(tx, actor),
        { name: 'Profil Layanan', username: 'profil.layanan' },
        password,
      ),
    );
    expect(after).toMatchObject({ name: 'Profil Layanan', updated_at: AT.toISOString() });
    expect((await call(ctx.app, me.token, 'GET', '/api/profile')).statusCode).toBe(200);
    expect((await call(ctx.app, other, 'GET', '/api/profile')).statusCode).toBe(401);
    await login(ctx.app, 'profil.layanan', 'sandi-baru-123');
    const [audited] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity_id, me.id), eq(auditLog.action, 'update')));
    expect(audited).toMatchObject({
      actor_id: me.id,
      before: expect.objectContaining({ name: 'profil.layanan' }),
    });

    // The user service refuses a self-deactivation (422), even from an actor that may edit users.
    const self = await refusal(
      db.transaction((tx) =>
        userService.update(
          contextFor(tx, actorFor({ id: adminId, username: 'admin' })),
          adminId.toUpperCase(),
          {
            name: 'Administrator',
            username: 'admin',
            roles_id: adminRoleId,
            company_ids: '"ALL"',
            is_active: 'false',
          },
        ),
      ),
    );
    expect([self.statusCode, self.message]).toEqual([422, userService.NO_SELF_DEACTIVATION]);
  });
});
