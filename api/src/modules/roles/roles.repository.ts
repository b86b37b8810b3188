import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { type ListQuery, PERMISSION_KEYS, type Role } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { permissions, rolePermissions, roles, users } from '../../db/schema';
import { listPage, searchAny } from '../../lib/list';

type RoleRow = typeof roles.$inferSelect;

/**
 * Users holding the role. The outer column is named through its table on purpose: drizzle writes a
 * column in a single-table select list unqualified (`"id"`), which inside this subquery would mean
 * `u.id` and count nothing.
 */
const userCount = sql<number>`(select count(*) from ${users} u where u.roles_id = ${roles}.id)`.mapWith(
  Number,
);

async function withPermissions(db: Executor, rows: { role: RoleRow; users: number }[]): Promise<Role[]> {
  const ids = rows.map((r) => r.role.id);
  const links = ids.length
    ? await db.select().from(rolePermissions).where(inArray(rolePermissions.role_id, ids))
    : [];
  const byRole = new Map<string, string[]>();
  for (const l of links) byRole.set(l.role_id, [...(byRole.get(l.role_id) ?? []), l.permission_id]);
  return rows.map(({ role, users: n }) => ({
    id: role.id,
    name: role.name,
    permission: (byRole.get(role.id) ?? []).sort(),
    user_count: n,
    created_at: role.created_at.toISOString(),
    updated_at: role.updated_at.toISOString(),
  }));
}

export async function listRoles(db: Executor, query: ListQuery) {
  const where = searchAny(query.search, [roles.name]);
  return listPage(
    query,
    async () => (await db.select({ n: count() }).from(roles).where(where))[0]?.n ?? 0,
    async (limit, offset) =>
      withPermissions(
        db,
        await db
          .select({ role: roles, users: userCount })
          .from(roles)
          .where(where)
          .orderBy(asc(sql`lower(${roles.name})`), asc(roles.id))
          .limit(limit)
          .offset(offset),
      ),
  );
}

export async function findRole(db: Executor, id: string): Promise<Role | null> {
  const rows = await db
    .select({ role: roles, users: userCount })
    .from(roles)
    .where(eq(roles.id, id))
    .limit(1);
  return (await withPermissions(db, rows))[0] ?? null;
}

export async function roleNameTaken(db: Executor, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(eq(sql`lower(${roles.name})`, name.toLowerCase()), exceptId ? ne(roles.id, exceptId) : undefined),
    )
    .limit(1);
  return !!row;
}

/** The permission rows behind the ids sent, in catalogue order; unknown ids are reported. */
export async function resolvePermissions(db: Executor, ids: string[]) {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = unique.length
    ? await db.select().from(permissions).where(inArray(permissions.id, unique))
    : [];
  const missing = unique.filter((id) => !rows.some((r) => r.id === id));
  return { rows, missing };
}

/** `[{id, name}]` of every permission, in catalogue order. */
export async function permissionOptions(db: Executor) {
  const rows = await db.select().from(permissions);
  const order = new Map(PERMISSION_KEYS.map((k, i) => [k as string, i]));
  return rows.filter((r) => order.has(r.name)).sort((a, b) => order.get(a.name)! - order.get(b.name)!);
}

export async function setRolePermissions(db: Executor, roleId: string, permissionIds: string[]) {
  await db.delete(rolePermissions).where(eq(rolePermissions.role_id, roleId));
  if (permissionIds.length) {
    await db
      .insert(rolePermissions)
      .values(permissionIds.map((permission_id) => ({ role_id: roleId, permission_id })));
  }
}

export async function roleOptions(db: Executor) {
  return db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .orderBy(asc(sql`lower(${roles.name})`));
}
