import { count, eq, inArray } from 'drizzle-orm';
import { PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import type { Db } from '../db';
import { permissions, rolePermissions, roles, users } from '../db/schema';
import { type Argon2Cost, hashPassword, newId, randomPassword } from '../lib/crypto';

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

/** First start on an empty database: the Administrator role and one user with it and scope ALL. */
export async function seedAdministrator(
  db: Db,
  opts: { username: string; password?: string | undefined; cost: Argon2Cost },
): Promise<SeedResult> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return { createdAdmin: false };
  const password = opts.password ?? randomPassword();
  const passwordHash = await hashPassword(password, opts.cost);
  const created = await db.transaction(async (tx) => {
    const [again] = await tx.select({ n: count() }).from(users);
    if ((again?.n ?? 0) > 0) return false;
    let [role] = await tx.select().from(roles).where(eq(roles.name, ADMIN_ROLE_NAME));
    if (!role) {
      [role] = await tx.insert(roles).values({ id: newId(), name: ADMIN_ROLE_NAME }).returning();
      const all = await tx.select({ id: permissions.id }).from(permissions);
      await tx.insert(rolePermissions).values(all.map((p) => ({ role_id: role!.id, permission_id: p.id })));
    }
    await tx.insert(users).values({
      id: newId(),
      name: ADMIN_ROLE_NAME,
      username: opts.username,
      password_hash: passwordHash,
      roles_id: role!.id,
      scope_all: true,
      is_active: true,
    });
    return true;
  });
  if (!created) return { createdAdmin: false };
  return opts.password ? { createdAdmin: true } : { createdAdmin: true, generatedPassword: password };
}
