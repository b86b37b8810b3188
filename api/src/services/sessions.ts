import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { CompanyScope, PermissionKey } from '@sertifikasi/shared-contracts';
import { ALL, PERMISSION_KEYS } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { permissions, rolePermissions, sessions, userCompanies, users } from '../db/schema';
import { hashToken, newId, newToken } from '../lib/crypto';

/** A session ends after 12 hours unused and 7 days at most (DECISIONS.md section 2). */
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
}

export interface AuthContext {
  user: AuthUser;
  sessionId: string;
  permissions: Set<PermissionKey>;
  scope: CompanyScope;
}

export async function createSession(db: Executor, userId: string, now = new Date()): Promise<string> {
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
  const known = new Set<string>(PERMISSION_KEYS);
  return rows.map((r) => r.name).filter((n): n is PermissionKey => known.has(n));
}

export async function scopeOfUser(db: Executor, userId: string, scopeAll: boolean): Promise<CompanyScope> {
  if (scopeAll) return ALL;
  const rows = await db
    .select({ id: userCompanies.company_id })
    .from(userCompanies)
    .where(eq(userCompanies.user_id, userId));
  return rows.map((r) => r.id);
}

/** The signed-in caller behind a bearer token, or null when the token is unknown, ended or the user inactive. */
export async function authenticate(
  db: Executor,
  token: string,
  now = new Date(),
): Promise<AuthContext | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      lastUsed: sessions.last_used_at,
      id: users.id,
      name: users.name,
      username: users.username,
      roles_id: users.roles_id,
      is_active: users.is_active,
      scope_all: users.scope_all,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(
      and(
        eq(sessions.token_hash, hashToken(token)),
        gt(sessions.expires_at, now),
        gt(sessions.last_used_at, new Date(now.getTime() - IDLE_MS)),
      ),
    )
    .limit(1);
  if (!row || !row.is_active) return null;
  if (now.getTime() - row.lastUsed.getTime() > TOUCH_MS) {
    await db.update(sessions).set({ last_used_at: now }).where(eq(sessions.id, row.sessionId));
  }
  const [keys, scope] = await Promise.all([
    permissionKeysOfRole(db, row.roles_id),
    scopeOfUser(db, row.id, row.scope_all),
  ]);
  return {
    user: {
      id: row.id,
      name: row.name,
      username: row.username,
      roles_id: row.roles_id,
      is_active: row.is_active,
    },
    sessionId: row.sessionId,
    permissions: new Set(keys),
    scope,
  };
}

/** Removes sessions that have ended (run now and then). */
export async function purgeEndedSessions(db: Executor, now = new Date()): Promise<void> {
  await db
    .delete(sessions)
    .where(
      or(lt(sessions.expires_at, now), lt(sessions.last_used_at, sql`${new Date(now.getTime() - IDLE_MS)}`)),
    );
}
