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
import { rolePermissions, roles, userCompanies, users } from '../../db/schema';
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
 * Users whose scope lies inside `scope` (DECISIONS.md section 3): everyone for scope ALL. The outer
 * id is named through its table: drizzle may write a bare `"id"`, which the subquery would misread.
 */
export function usersWithinScope(scope: CompanyScope): SQL | undefined {
  if (scope === ALL) return undefined;
  const outside = scope.length
    ? sql`exists (select 1 from ${userCompanies} uc where uc.user_id = ${users}.id and uc.company_id not in (${sql.join(
        scope.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : sql`exists (select 1 from ${userCompanies} uc where uc.user_id = ${users}.id)`;
  return sql`(${users.scope_all} = false and not ${outside})`;
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

/** Roles holding every permission of the catalogue. */
export function fullRoleIds(db: Executor) {
  return db
    .select({ id: rolePermissions.role_id })
    .from(rolePermissions)
    .groupBy(rolePermissions.role_id)
    .having(sql`count(*) >= ${PERMISSION_KEYS.length}`);
}

/**
 * Ids of the active users holding every permission with scope ALL, row-locked for the rest of the
 * transaction so that two concurrent changes cannot both remove "the other" last administrator.
 * `exceptRoleId` counts that role as no longer full (a role edit being checked).
 */
export async function lockFullAdminIds(
  tx: Executor,
  opts: { exceptRoleId?: string } = {},
): Promise<string[]> {
  const full = (await fullRoleIds(tx)).map((r) => r.id).filter((id) => id !== opts.exceptRoleId);
  if (!full.length) return [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.is_active, true), eq(users.scope_all, true), inArray(users.roles_id, full)))
    .for('update');
  return rows.map((r) => r.id);
}

export async function isFullAdmin(db: Executor, user: Pick<UserRow, 'is_active' | 'scope_all' | 'roles_id'>) {
  if (!user.is_active || !user.scope_all || !user.roles_id) return false;
  const full = await fullRoleIds(db);
  return full.some((r) => r.id === user.roles_id);
}
