import { and, asc, count, eq, inArray, ne, or, type Placeholder, sql, type SQL } from 'drizzle-orm';
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
import { type Placeholders, prepared, preparedShapes } from '../../db/prepared';
import { isAnyOf, likePattern, listPage, matchesPattern, scopeIds } from '../../lib/list';

type UserRow = typeof users.$inferSelect;

export function toUserDto(
  row: Pick<
    UserRow,
    'id' | 'name' | 'username' | 'email' | 'roles_id' | 'is_active' | 'created_at' | 'updated_at'
  >,
  role: { id: string; name: string } | null,
  scope: CompanyScope,
): User {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    roles_id: row.roles_id,
    roles: role,
    company_ids: scope,
    is_active: toFlag(row.is_active),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Users whose scope lies inside the company ids `scope` (a value or a prepared placeholder): not
 * scope ALL, at least one company, and none outside it. A user with an empty scope (not ALL, no
 * company) lies inside no limited scope: only scope ALL manages them. The outer id is named through
 * its table: drizzle may write a bare `"id"`, which the subquery would misread.
 */
const withinScope = (scope: Placeholder | SQL) =>
  sql`(${users.scope_all} = false
    and exists (select 1 from ${userCompanies} uc where uc.user_id = ${users}.id)
    and not exists (select 1 from ${userCompanies} uc
      where uc.user_id = ${users}.id and uc.company_id <> all(${scope})))`;

/** Users whose scope lies inside `scope` (docs/rules.md#scope): everyone for scope ALL. */
export function usersWithinScope(scope: CompanyScope): SQL | undefined {
  return scope === ALL ? undefined : withinScope(sql`${sql.param(scope)}::uuid[]`);
}

/** A user's companies (empty for scope ALL), read in the same query as the user. */
const companyIds = sql<string[]>`array(select uc.company_id::text from ${userCompanies} uc
  where uc.user_id = ${users}.id order by uc.company_id)`;

const roleRef = { id: roles.id, name: roles.name };

interface UserWithRole {
  user: UserRow;
  role: { id: string; name: string } | null;
  companies: string[];
}

const toDto = ({ user, role, companies }: UserWithRole) =>
  toUserDto(user, role?.id ? role : null, user.scope_all ? ALL : companies);

/** Roles whose name matches a search (the few there are): users of these roles match it too. */
const rolesMatching = prepared('user.search-roles', ['pattern'], (db, p, name) =>
  db
    .select({ id: roles.id })
    .from(roles)
    .where(sql`${roles.name} ilike ${p.pattern}`)
    .prepare(name),
);

type UserListKeys = 'scope' | 'pattern' | 'roleIds';
const USER_LIST_SHAPE = ['scoped', 'search', 'roles'] as const;
type UserListShape = Record<(typeof USER_LIST_SHAPE)[number], boolean>;

/**
 * Search over name, username (users_search_idx) and the role's name: the matching roles are looked
 * up first, so the users query stays on its indexes instead of joining to search.
 */
function userListWhere(p: Placeholders<UserListKeys>, on: UserListShape) {
  const byText = on.search
    ? matchesPattern(searchDocument([users.name, users.username]), p.pattern)
    : undefined;
  return and(
    on.scoped ? withinScope(p.scope) : undefined,
    on.roles ? or(byText, isAnyOf(users.roles_id, p.roleIds)) : byText,
  );
}

const countUsers = preparedShapes(
  'user.count',
  USER_LIST_SHAPE,
  ['scope', 'pattern', 'roleIds'],
  (db, p, on, name) => db.select({ n: count() }).from(users).where(userListWhere(p, on)).prepare(name),
);

const userPage = preparedShapes(
  'user.page',
  USER_LIST_SHAPE,
  ['scope', 'pattern', 'roleIds', 'limit', 'offset'],
  (db, p, on, name) =>
    db
      .select({ user: users, role: roleRef, companies: companyIds })
      .from(users)
      .leftJoin(roles, eq(roles.id, users.roles_id))
      .where(userListWhere(p, on))
      .orderBy(asc(sql`lower(${users.name})`), asc(users.id))
      .limit(p.limit)
      .offset(p.offset)
      .prepare(name),
);

export async function listUsers(db: Executor, query: ListQuery, viewerScope: CompanyScope) {
  const pattern = likePattern(query.search);
  const roleIds = query.search ? (await rolesMatching(db, { pattern })).map((r) => r.id) : [];
  const on = { scoped: viewerScope !== ALL, search: !!query.search, roles: roleIds.length > 0 };
  const values = { scope: scopeIds(viewerScope), pattern, roleIds };
  return listPage(
    query,
    async () => (await countUsers(db, on, values))[0]?.n ?? 0,
    async (limit, offset) => (await userPage(db, on, { ...values, limit, offset })).map(toDto),
  );
}

const userById = preparedShapes('user.by-id', ['scoped'], ['id', 'scope'], (db, p, on, name) =>
  db
    .select({ user: users, role: roleRef, companies: companyIds })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roles_id))
    .where(and(eq(users.id, p.id), on.scoped ? withinScope(p.scope) : undefined))
    .limit(1)
    .prepare(name),
);

/** One user as the API shows it, if the viewer's scope covers them. */
export async function findUser(
  db: Executor,
  id: string,
  viewerScope: CompanyScope = ALL,
): Promise<User | null> {
  const [row] = await userById(db, { scoped: viewerScope !== ALL }, { id, scope: scopeIds(viewerScope) });
  return row ? toDto(row) : null;
}

const userRowById = prepared('user.row-by-id', ['id'], (db, p, name) =>
  db.select().from(users).where(eq(users.id, p.id)).limit(1).prepare(name),
);

export async function findUserRow(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await userRowById(db, { id });
  return row;
}

const userRowByUsername = prepared('user.row-by-username', ['username'], (db, p, name) =>
  db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, p.username))
    .limit(1)
    .prepare(name),
);

export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  const [row] = await userRowByUsername(db, { username: username.trim().toLowerCase() });
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
