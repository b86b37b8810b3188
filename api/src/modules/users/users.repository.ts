import { and, asc, count, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  ALL,
  type CompanyScope,
  type ListQuery,
  PERMISSION_KEYS,
  type User,
  toFlag,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { permissions, rolePermissions, roles, userCompanies, users } from '../../db/schema';
import { searchDocument } from '../../db/search';
import { likePattern, listPage, matchesSearch } from '../../lib/list';

type UserRow = typeof users.$inferSelect;

export function toUserDto(
  row: UserRow,
  role: { id: string; name: string } | null,
  scope: CompanyScope,
): User {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    roles_id: row.roles_id,
    roles: role,
    company_ids: scope,
    is_active: toFlag(row.is_active),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Users whose scope lies inside `scope` (DECISIONS.md section 3): everyone for scope ALL. A user with
 * an empty scope (not ALL, no company) lies inside no limited scope: only scope ALL manages them.
 * The outer id is named through its table: drizzle may write a bare `"id"`, which the subquery
 * would misread.
 */
export function usersWithinScope(scope: CompanyScope): SQL | undefined {
  if (scope === ALL) return undefined;
  const hasCompany = sql`exists (select 1 from ${userCompanies} uc where uc.user_id = ${users}.id)`;
  const outside = scope.length
    ? sql`exists (select 1 from ${userCompanies} uc where uc.user_id = ${users}.id and uc.company_id not in (${sql.join(
        scope.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : hasCompany;
  return sql`(${users.scope_all} = false and ${hasCompany} and not ${outside})`;
}

async function scopesOf(db: Executor, rows: UserRow[]): Promise<Map<string, string[]>> {
  const limited = rows.filter((r) => !r.scope_all).map((r) => r.id);
  const map = new Map<string, string[]>();
  if (!limited.length) return map;
  const links = await db
    .select()
    .from(userCompanies)
    .where(inArray(userCompanies.user_id, limited))
    .orderBy(asc(userCompanies.company_id));
  for (const link of links) map.set(link.user_id, [...(map.get(link.user_id) ?? []), link.company_id]);
  return map;
}

async function toDtos(db: Executor, rows: { user: UserRow; role: { id: string; name: string } | null }[]) {
  const scopes = await scopesOf(
    db,
    rows.map((r) => r.user),
  );
  return rows.map(({ user, role }) =>
    toUserDto(user, role?.id ? role : null, user.scope_all ? ALL : (scopes.get(user.id) ?? [])),
  );
}

const roleRef = { id: roles.id, name: roles.name };

/**
 * Search over name, username (users_search_idx) and the role's name. The few roles that match are
 * looked up first, so the users query stays on its indexes instead of joining to search.
 */
async function userSearch(db: Executor, search: string): Promise<SQL | undefined> {
  if (!search) return undefined;
  const byText = matchesSearch(searchDocument([users.name, users.username]), search);
  const matchingRoles = await db
    .select({ id: roles.id })
    .from(roles)
    .where(sql`${roles.name} ilike ${likePattern(search)}`);
  if (!matchingRoles.length) return byText;
  return or(
    byText,
    inArray(
      users.roles_id,
      matchingRoles.map((r) => r.id),
    ),
  );
}

export async function listUsers(db: Executor, query: ListQuery, viewerScope: CompanyScope) {
  const where = and(usersWithinScope(viewerScope), await userSearch(db, query.search));
  return listPage(
    query,
    async () => {
      const [row] = await db.select({ n: count() }).from(users).where(where);
      return row?.n ?? 0;
    },
    async (limit, offset) => {
      const rows = await db
        .select({ user: users, role: roleRef })
        .from(users)
        .leftJoin(roles, eq(roles.id, users.roles_id))
        .where(where)
        .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
        .limit(limit)
        .offset(offset);
      return toDtos(db, rows);
    },
  );
}

/** One user as the API shows it, if the viewer's scope covers them. */
export async function findUser(
  db: Executor,
  id: string,
  viewerScope: CompanyScope = ALL,
): Promise<User | null> {
  const rows = await db
    .select({ user: users, role: roleRef })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roles_id))
    .where(and(eq(users.id, id), usersWithinScope(viewerScope)))
    .limit(1);
  if (!rows.length) return null;
  const [dto] = await toDtos(db, rows);
  return dto ?? null;
}

export async function findUserRow(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.trim().toLowerCase()))
    .limit(1);
  return row;
}

export async function usernameTaken(db: Executor, username: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(sql`lower(${users.username})`, username.toLowerCase()),
        exceptId ? ne(users.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export async function setUserScope(db: Executor, userId: string, scope: CompanyScope): Promise<void> {
  await db.delete(userCompanies).where(eq(userCompanies.user_id, userId));
  if (scope !== ALL && scope.length) {
    await db.insert(userCompanies).values(scope.map((company_id) => ({ user_id: userId, company_id })));
  }
}

/**
 * Roles holding every permission key this version knows (PERMISSION_KEYS), counted by key: rows
 * for permissions this version does not know, or any other stray rows, never make a role "full".
 */
export function fullRoleIds(db: Executor) {
  return db
    .select({ id: rolePermissions.role_id })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(inArray(permissions.name, [...PERMISSION_KEYS]))
    .groupBy(rolePermissions.role_id)
    .having(sql`count(distinct ${permissions.name}) = ${PERMISSION_KEYS.length}`);
}

/**
 * Ids of the active users holding every permission with scope ALL. Every active scope-ALL user row
 * is locked first (FOR UPDATE, in id order), and only then are the full roles read: two concurrent
 * changes (a role edit, a demotion, a delete) wait for each other here, and the second one counts
 * with what the first one wrote, so they cannot both remove "the other" last administrator.
 */
export async function lockFullAdminIds(tx: Executor): Promise<string[]> {
  const candidates = await tx
    .select({ id: users.id, roles_id: users.roles_id })
    .from(users)
    .where(and(eq(users.is_active, true), eq(users.scope_all, true)))
    .orderBy(asc(users.id))
    .for('update');
  if (!candidates.length) return [];
  const full = new Set((await fullRoleIds(tx)).map((r) => r.id));
  return candidates.filter((u) => u.roles_id && full.has(u.roles_id)).map((u) => u.id);
}

export async function isFullAdmin(db: Executor, user: Pick<UserRow, 'is_active' | 'scope_all' | 'roles_id'>) {
  if (!user.is_active || !user.scope_all || !user.roles_id) return false;
  const full = await fullRoleIds(db);
  return full.some((r) => r.id === user.roles_id);
}
