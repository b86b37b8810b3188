import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { CompanyScope, PermissionKey } from '@sertifikasi/shared-contracts';
import { ALL, PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { prepared } from '../db/prepared';
import { permissions, rolePermissions, roles, sessions, userCompanies, users } from '../db/schema';
import { hashToken, newId, newToken } from '../lib/crypto';

/** A session ends after 12 hours unused and 7 days at most (docs/rules.md#sign-in). */
export const IDLE_MS = 12 * 60 * 60 * 1000;
export const MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** last_used_at is written at most this often, to keep reads cheap. */
const TOUCH_MS = 60 * 1000;

export interface AuthUser {
  id: string;
  name: string;
  username: string;
  roles_id: string | null;
  is_active: boolean;
  /** The user's role as the API shows it (`roles`), read with the session. */
  role: { id: string; name: string } | null;
  created_at: Date;
  updated_at: Date;
}

export interface AuthContext {
  user: AuthUser;
  sessionId: string;
  permissions: Set<PermissionKey>;
  scope: CompanyScope;
}

/** A new session of the user, started at `now` (the app clock's: `app.clock.now()`); answers its token. */
export async function createSession(db: Executor, userId: string, now: Date): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    id: newId(),
    user_id: userId,
    token_hash: hashToken(token),
    created_at: now,
    last_used_at: now,
    expires_at: new Date(now.getTime() + MAX_MS),
  });
  // Housekeeping: ended sessions of this user go.
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.user_id, userId),
        or(lt(sessions.expires_at, now), lt(sessions.last_used_at, new Date(now.getTime() - IDLE_MS))),
      ),
    );
  return token;
}

export async function revokeToken(db: Executor, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.token_hash, hashToken(token)));
}

/** Ends every session of a user, or every one but `keepSessionId`. */
export async function revokeUserSessions(
  db: Executor,
  userId: string,
  keepSessionId?: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepSessionId
        ? and(eq(sessions.user_id, userId), ne(sessions.id, keepSessionId))
        : eq(sessions.user_id, userId),
    );
}

export async function permissionKeysOfRole(db: Executor, roleId: string | null): Promise<PermissionKey[]> {
  if (!roleId) return [];
  const rows = await db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(eq(rolePermissions.role_id, roleId));
  return knownKeys(rows.map((r) => r.name));
}

const KNOWN_KEYS = new Set<string>(PERMISSION_KEYS);

/** The names that are permission keys this version knows (a newer catalogue may hold more). */
function knownKeys(names: readonly string[]): PermissionKey[] {
  return names.filter((n): n is PermissionKey => KNOWN_KEYS.has(n));
}

/** The items of a comma-separated list as string_agg writes it ('' for none). */
const listOf = (text: string): string[] => (text === '' ? [] : text.split(','));

/**
 * The session behind a token hash with its user, the role's permission keys and the user's
 * companies, in one round trip: every signed-in request pays for this query, so it is prepared.
 */
const sessionByToken = prepared('session.authenticate', ['tokenHash', 'now', 'idleSince'], (db, p, name) =>
  db
    .select({
      sessionId: sessions.id,
      lastUsed: sessions.last_used_at,
      id: users.id,
      name: users.name,
      username: users.username,
      roles_id: users.roles_id,
      is_active: users.is_active,
      scope_all: users.scope_all,
      created_at: users.created_at,
      updated_at: users.updated_at,
      role_name: roles.name,
      // Comma-separated text rather than arrays: splitting it is native, where the drivers parse an
      // array literal character by character in JavaScript (a visible part of every request's cost).
      // No permission key or UUID holds a comma (a stray name that does is left out, never split).
      keys: sql<string>`coalesce((select string_agg(${permissions.name}, ',')
        filter (where strpos(${permissions.name}, ',') = 0) from ${rolePermissions}
        join ${permissions} on ${permissions.id} = ${rolePermissions.permission_id}
        where ${rolePermissions.role_id} = ${users.roles_id}), '')`,
      // Not read at all for scope ALL; unordered (an ordered aggregate costs a sort per call), so
      // authenticate sorts the few ids.
      companies: sql<string>`case when ${users.scope_all} then '' else coalesce((select
        string_agg(${userCompanies.company_id}::text, ',') from ${userCompanies}
        where ${userCompanies.user_id} = ${users.id}), '') end`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .leftJoin(roles, eq(roles.id, users.roles_id))
    .where(
      and(
        eq(sessions.token_hash, p.tokenHash),
        gt(sessions.expires_at, p.now),
        gt(sessions.last_used_at, p.idleSince),
      ),
    )
    .limit(1)
    .prepare(name),
);

/**
 * The signed-in caller behind a bearer token at `now` (the app clock's), or null when the token is
 * unknown, ended or the user inactive.
 */
export async function authenticate(db: Executor, token: string, now: Date): Promise<AuthContext | null> {
  const [row] = await sessionByToken(db, {
    tokenHash: hashToken(token),
    now: now.toISOString(),
    idleSince: new Date(now.getTime() - IDLE_MS).toISOString(),
  });
  if (!row || !row.is_active) return null;
  if (now.getTime() - row.lastUsed.getTime() > TOUCH_MS) {
    await db.update(sessions).set({ last_used_at: now }).where(eq(sessions.id, row.sessionId));
  }
  return {
    user: {
      id: row.id,
      name: row.name,
      username: row.username,
      roles_id: row.roles_id,
      is_active: row.is_active,
      role: row.roles_id && row.role_name !== null ? { id: row.roles_id, name: row.role_name } : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    },
    sessionId: row.sessionId,
    permissions: new Set(knownKeys(listOf(row.keys))),
    scope: row.scope_all ? ALL : listOf(row.companies).sort(),
  };
}

/** Removes sessions that have ended by `now` (run now and then). */
export async function purgeEndedSessions(db: Executor, now: Date): Promise<void> {
  await db
    .delete(sessions)
    .where(
      or(lt(sessions.expires_at, now), lt(sessions.last_used_at, sql`${new Date(now.getTime() - IDLE_MS)}`)),
    );
}
