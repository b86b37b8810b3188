import { asc, count, eq, inArray, type Placeholder, sql } from 'drizzle-orm';
import { type ListQuery, PERMISSION_KEYS, type Role } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { permissions, rolePermissions, roles, users } from '../../db/schema';
import { prepared, preparedShapes } from '../../db/prepared';
import { likePattern, listPage } from '../../lib/list';

type RoleRow = typeof roles.$inferSelect;

/**
 * Users holding the role. The outer column is named through its table on purpose: drizzle writes a
 * column in a single-table select list unqualified (`"id"`), which inside this subquery would mean
 * `u.id` and count nothing.
 */
const userCount = sql<number>`(select count(*) from ${users} u where u.roles_id = ${roles}.id)`.mapWith(
  Number,
);

/** The role's permission ids, read in the same query as the role. */
const permissionIdsOf = sql<string[]>`array(select rp.permission_id::text from ${rolePermissions} rp
  where rp.role_id = ${roles}.id)`;

const toRole = ({ role, users: n, permission }: { role: RoleRow; users: number; permission: string[] }) => ({
  id: role.id,
  name: role.name,
  permission: [...permission].sort(),
  user_count: n,
  created_at: role.created_at.toISOString(),
  updated_at: role.updated_at.toISOString(),
});

const roleColumns = { role: roles, users: userCount, permission: permissionIdsOf };
const nameMatches = (pattern: Placeholder) => sql`${roles.name} ilike ${pattern}`;

const countRoles = preparedShapes('role.count', ['search'], ['pattern'], (db, p, on, name) =>
  db
    .select({ n: count() })
    .from(roles)
    .where(on.search ? nameMatches(p.pattern) : undefined)
    .prepare(name),
);

const rolePage = preparedShapes('role.page', ['search'], ['pattern', 'limit', 'offset'], (db, p, on, name) =>
  db
    .select(roleColumns)
    .from(roles)
    .where(on.search ? nameMatches(p.pattern) : undefined)
    .orderBy(asc(sql`lower(${roles.name})`), asc(roles.id))
    .limit(p.limit)
    .offset(p.offset)
    .prepare(name),
);

export async function listRoles(db: Executor, query: ListQuery) {
  const on = { search: !!query.search };
  const pattern = likePattern(query.search);
  return listPage(
    query,
    async () => (await countRoles(db, on, { pattern }))[0]?.n ?? 0,
    async (limit, offset) => (await rolePage(db, on, { pattern, limit, offset })).map(toRole),
  );
}

const roleById = prepared('role.by-id', ['id'], (db, p, name) =>
  db.select(roleColumns).from(roles).where(eq(roles.id, p.id)).limit(1).prepare(name),
);

export async function findRole(db: Executor, id: string): Promise<Role | null> {
  const [row] = await roleById(db, { id });
  return row ? toRole(row) : null;
}

/** The role's row as stored, or undefined. */
export async function findRoleRow(db: Executor, id: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row;
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

export async function roleOptions(db: Executor) {
  return db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .orderBy(asc(sql`lower(${roles.name})`));
}
