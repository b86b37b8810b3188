import { count, eq, inArray } from 'drizzle-orm';
import { ALL, PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import { DEFAULT_TIME_ZONE, loadConfig } from '../config';
import type { Db } from '../db';
import { permissions, rolePermissions, roles, users } from '../db/schema';
import { type Clock, createClock } from '../lib/clock';
import { type Argon2Cost, newId, randomPassword } from '../lib/crypto';
import * as roleService from '../modules/roles/roles.service';
import * as userService from '../modules/users/users.service';
import { preparePassword } from '../modules/users/users.service';
import { type ServiceContext, systemActor } from './context';

export const ADMIN_ROLE_NAME = 'Administrator';

/**
 * Keeps the permission catalogue complete. When keys are added, roles that held the whole previous
 * catalogue (such as Administrator) receive them too, so "holds every permission" keeps its meaning.
 */
export async function seedPermissions(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const existing = await tx.select().from(permissions);
    const known = new Set(existing.map((p) => p.name));
    const missing = PERMISSION_KEYS.filter((k) => !known.has(k));
    if (missing.length === 0) return;
    const fullRoles = existing.length
      ? (
          await tx
            .select({ role_id: rolePermissions.role_id, n: count() })
            .from(rolePermissions)
            .groupBy(rolePermissions.role_id)
        )
          .filter((r) => r.n >= existing.length)
          .map((r) => r.role_id)
      : [];
    const added = missing.map((name) => ({ id: newId(), name }));
    await tx.insert(permissions).values(added).onConflictDoNothing();
    const addedRows = await tx.select().from(permissions).where(inArray(permissions.name, missing));
    for (const roleId of fullRoles) {
      await tx
        .insert(rolePermissions)
        .values(addedRows.map((p) => ({ role_id: roleId, permission_id: p.id })))
        .onConflictDoNothing();
    }
  });
}

export interface SeedResult {
  /** Set when the administrator was created now with a generated password (print it once). */
  generatedPassword?: string;
  createdAdmin: boolean;
}

/**
 * First start on an empty database: the Administrator role (every permission) and one user with it
 * and scope ALL, written by the system through the roles and users services (the write sequence:
 * their audit rows, source `system`, and after-write steps), as an administrator would write them.
 * `clock`: the app's (the audit rows' instant); default one for `TZ`.
 */
export async function seedAdministrator(
  db: Db,
  opts: { username: string; password?: string | undefined; cost: Argon2Cost; clock?: Clock },
): Promise<SeedResult> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return { createdAdmin: false };
  const password = opts.password ?? randomPassword();
  const config = { ...loadConfig({}), argon2: opts.cost };
  const prepared = await preparePassword(config, password);
  const created = await db.transaction(async (tx) => {
    const [again] = await tx.select({ n: count() }).from(users);
    if ((again?.n ?? 0) > 0) return false;
    const ctx: ServiceContext = {
      tx,
      actor: systemActor('system'),
      clock: opts.clock ?? createClock(process.env.TZ || DEFAULT_TIME_ZONE),
      config,
    };
    let [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, ADMIN_ROLE_NAME));
    if (!role) {
      const all = await tx.select({ id: permissions.id }).from(permissions);
      role = await roleService.create(ctx, { name: ADMIN_ROLE_NAME, permission: all.map((p) => p.id) });
    }
    await userService.create(
      ctx,
      {
        name: ADMIN_ROLE_NAME,
        username: opts.username,
        email: null,
        roles_id: role.id,
        company_ids: ALL,
        is_active: 'true',
      },
      prepared,
    );
    return true;
  });
  if (!created) return { createdAdmin: false };
  return opts.password ? { createdAdmin: true } : { createdAdmin: true, generatedPassword: password };
}
