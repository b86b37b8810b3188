/**
 * Every write of a user (docs/architecture.md): create, update, delete, and the signed-in user's own
 * profile, and the command line's password reset. Each takes a service context (transaction, acting
 * user, clock, configuration) and does the checks, then the one write sequence
 * (services/write-sequence.ts: the write with its session revocation, the after-write steps, the
 * audit, the answer), in that transaction. The permission key of the action is the auth hook's (plugins/auth.ts); the rules of
 * docs/rules.md#permissions (no escalation, the last full administrator, users within the actor's
 * scope) are checked here, against the actor's authority as stored now (authority.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import {
  ALL,
  type CompanyScope,
  type DeleteResponse,
  MESSAGES,
  parseCompanyIds,
  type ProfileInput,
  scopeWithin,
  type User,
  type UserUpdateInput,
} from '@sertifikasi/shared-contracts';
import type { Config } from '../../config';
import type { Executor } from '../../db';
import { roles, userCompanies, users } from '../../db/schema';
import { hashPassword, newId } from '../../lib/crypto';
import { forbidden, invalid, notFound, refused, unauthenticated } from '../../lib/errors';
import type { Actor, ServiceContext } from '../../services/context';
import { recordWrites } from '../../services/record-writes';
import { permissionKeysOfRole, revokeUserSessions } from '../../services/sessions';
import { missingCompanies } from '../companies/companies.repository';
import { type Authority, lockAuthority, lockCaller } from './authority';
import {
  findUser,
  findUserRow,
  isFullAdmin,
  lockFullAdminIds,
  usernameTaken,
  usersWithinScope,
} from './users.repository';

export const NO_SELF_DEACTIVATION = 'Tidak dapat menonaktifkan akun sendiri';
export const NO_SELF_DELETE = 'Tidak dapat menghapus akun sendiri';
export const LAST_ADMIN_UPDATE =
  'Administrator terakhir dengan akses penuh tidak dapat dinonaktifkan atau diturunkan';
export const LAST_ADMIN_DELETE = 'Administrator terakhir dengan akses penuh tidak dapat dihapus';
export const NO_PERMISSION_ESCALATION = 'Tidak dapat memberikan akses yang tidak anda miliki';
export const NO_SCOPE_ESCALATION = 'Tidak dapat memberikan akses perusahaan di luar akses anda';

/**
 * A new password, hashed before the transaction (argon2 is slow; the rows stay locked only for the
 * write). Made by preparePassword; a service never sees the password itself.
 */
export interface PreparedPassword {
  readonly hash: string;
}

/** Hashes a new password with the app's argon2 settings; undefined when none was given. */
export async function preparePassword(
  config: Pick<Config, 'argon2'>,
  password: string,
): Promise<PreparedPassword>;
export async function preparePassword(
  config: Pick<Config, 'argon2'>,
  password: string | null | undefined,
): Promise<PreparedPassword | undefined>;
export async function preparePassword(
  config: Pick<Config, 'argon2'>,
  password: string | null | undefined,
): Promise<PreparedPassword | undefined> {
  return password ? { hash: await hashPassword(password, config.argon2) } : undefined;
}

/** The fields of a user write other than the password. */
type UserFields = Pick<
  UserUpdateInput,
  'name' | 'username' | 'email' | 'roles_id' | 'company_ids' | 'is_active'
>;

/**
 * No escalation (docs/rules.md#permissions): the role given must hold only permissions the actor
 * holds, and the scope must lie inside the actor's. Runs after lockAuthority locked the role given.
 * Returns the parsed scope and the role's id as stored (lower case, whatever case was sent).
 */
type UserRow = typeof users.$inferSelect;

/** A write of users through the one write sequence (services/record-writes.ts); audited under no company. */
const writeUsers = recordWrites<UserRow, User>({
  entity: 'user',
  noCompany: true,
  findRow: findUserRow,
  find: findUser,
});

/** Sets the companies a user may see (none stored for scope ALL): part of the user's write. */
async function setUserScope(db: Executor, userId: string, scope: CompanyScope): Promise<void> {
  await db.delete(userCompanies).where(eq(userCompanies.user_id, userId));
  if (scope !== ALL && scope.length) {
    await db.insert(userCompanies).values(scope.map((company_id) => ({ user_id: userId, company_id })));
  }
}

async function checkAssignable(
  tx: Executor,
  authority: Authority,
  roleId: string,
  rawScope: unknown,
): Promise<{ scope: CompanyScope; roleId: string }> {
  const scope = parseCompanyIds(rawScope);
  if (!scope) throw invalid({ company_ids: 'Akses perusahaan harus ALL atau daftar perusahaan' });
  const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId)).limit(1);
  if (!role) throw invalid({ roles_id: 'Akses User tidak ditemukan' });
  if (authority.lacksAny(await permissionKeysOfRole(tx, roleId))) throw forbidden(NO_PERMISSION_ESCALATION);
  if (!scopeWithin(scope, authority.scope)) throw forbidden(NO_SCOPE_ESCALATION);
  if (scope !== ALL) {
    const missing = await missingCompanies(tx, scope);
    if (missing.length) throw invalid({ company_ids: 'Perusahaan tidak ditemukan' });
  }
  return { scope, roleId: role.id };
}

/**
 * For an edit or delete: the target user's row, locked FOR UPDATE, if the actor's scope (as stored
 * now) covers them (404 otherwise); then the actor's authority with the actor's role, the target's
 * role and `roleIds` locked.
 */
async function lockTarget(tx: Executor, actor: Actor, id: string, roleIds: string[] = []) {
  const caller = await lockCaller(tx, actor);
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), usersWithinScope(caller.scope)))
    .limit(1)
    .for('update');
  if (!row) throw notFound();
  const authority = await lockAuthority(tx, caller, {
    strength: 'share',
    roleIds: [row.roles_id, ...roleIds],
  });
  return { row, authority };
}

/** A user whose role holds a permission the actor lacks is not the actor's to edit or delete. */
async function checkManageable(
  tx: Executor,
  actor: Actor,
  authority: Authority,
  row: { id: string; roles_id: string | null },
) {
  if (row.id === actor.user?.id) return;
  if (authority.lacksAny(await permissionKeysOfRole(tx, row.roles_id))) {
    throw forbidden('User ini memiliki akses yang tidak anda miliki');
  }
}

/** Creates a user with the role and scope given, within what the actor holds. */
export async function create(
  ctx: ServiceContext,
  input: UserFields,
  password: PreparedPassword,
): Promise<User> {
  const { tx } = ctx;
  const authority = await lockAuthority(tx, await lockCaller(tx, ctx.actor), {
    strength: 'share',
    roleIds: [input.roles_id],
  });
  const { scope, roleId } = await checkAssignable(tx, authority, input.roles_id, input.company_ids);
  const id = newId();
  const now = ctx.clock.now();
  const [created] = await writeUsers(ctx, 'create', [{ id, current: null }], async () => {
    await tx.insert(users).values({
      id,
      name: input.name,
      username: input.username,
      email: input.email ?? null,
      password_hash: password.hash,
      roles_id: roleId,
      scope_all: scope === ALL,
      is_active: input.is_active === 'true',
      created_at: now,
      updated_at: now,
    });
    await setUserScope(tx, id, scope);
  });
  return created!;
}

/**
 * Updates a user in the actor's scope: name, username, role, scope, status and (when given) the
 * password. Nobody deactivates themselves; the last active full administrator cannot be
 * deactivated, demoted or narrowed. Deactivation ends the user's sessions; a new password ends
 * their other sessions (all of them unless the actor changes their own).
 */
export async function update(
  ctx: ServiceContext,
  id: string,
  input: UserFields,
  password?: PreparedPassword,
): Promise<User> {
  const { tx, actor } = ctx;
  // Ids compare as strings below (self, last administrator): the stored form is lower case.
  id = id.toLowerCase();
  const isSelf = id === actor.user?.id;
  const active = input.is_active === 'true';
  // Every active scope-ALL user first, then the actor, the target and the roles involved.
  const fullAdmins = await lockFullAdminIds(tx);
  const { row: current, authority } = await lockTarget(tx, actor, id, [input.roles_id]);
  await checkManageable(tx, actor, authority, current);
  const { scope, roleId } = await checkAssignable(tx, authority, input.roles_id, input.company_ids);
  if (isSelf && !active) throw refused(NO_SELF_DEACTIVATION);
  const next = { is_active: active, scope_all: scope === ALL, roles_id: roleId };
  if (fullAdmins.includes(id) && !(await isFullAdmin(tx, next)) && fullAdmins.length <= 1) {
    throw refused(LAST_ADMIN_UPDATE);
  }
  const before = await findUser(tx, id);
  const [after] = await writeUsers(ctx, 'update', [{ id, current, before }], async () => {
    await tx
      .update(users)
      .set({
        name: input.name,
        username: input.username,
        // Absent keeps the address; empty removes it.
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...next,
        ...(password ? { password_hash: password.hash } : {}),
        updated_at: ctx.clock.now(),
      })
      .where(eq(users.id, id));
    await setUserScope(tx, id, scope);
    // Deactivation ends every session; a new password ends the others.
    if (current.is_active && !active) await revokeUserSessions(tx, id);
    else if (password) await revokeUserSessions(tx, id, (isSelf && actor.sessionId) || undefined);
  });
  return after!;
}

/**
 * Deletes a user in the actor's scope (with their sessions and scope rows, by the foreign keys).
 * Refused (`success: false`) for the actor themselves and for the last full administrator.
 */
export async function remove(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const { tx, actor } = ctx;
  id = id.toLowerCase();
  const fullAdmins = await lockFullAdminIds(tx);
  const { row, authority } = await lockTarget(tx, actor, id);
  await checkManageable(tx, actor, authority, row);
  if (id === actor.user?.id) return { success: false, message: NO_SELF_DELETE };
  if (fullAdmins.includes(id) && fullAdmins.length <= 1)
    return { success: false, message: LAST_ADMIN_DELETE };
  const before = await findUser(tx, id);
  if (!before) throw notFound();
  await writeUsers(ctx, 'delete', [{ id, current: row, before }], async () => {
    await tx.delete(users).where(eq(users.id, id));
  });
  return { success: true, message: MESSAGES.deleted };
}

/**
 * The acting user's own profile: name, username and (when given) a new password, which ends their
 * other sessions. Whoever calls it has checked the current password (the route does, counting
 * guesses as failed sign-ins).
 */
export async function updateProfile(
  ctx: ServiceContext,
  input: Pick<ProfileInput, 'name' | 'username' | 'email'>,
  password?: PreparedPassword,
): Promise<User> {
  const { tx, actor } = ctx;
  const me = actor.user?.id;
  if (!me) throw unauthenticated();
  if (await usernameTaken(tx, input.username, me)) throw invalid({ username: 'Username sudah digunakan' });
  const current = await findUserRow(tx, me);
  if (!current) throw unauthenticated();
  const before = await findUser(tx, me);
  const [after] = await writeUsers(ctx, 'update', [{ id: me, current, before }], async () => {
    await tx
      .update(users)
      .set({
        name: input.name,
        username: input.username,
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(password ? { password_hash: password.hash } : {}),
        updated_at: ctx.clock.now(),
      })
      .where(eq(users.id, me));
    // A password change ends the user's other sessions.
    if (password) await revokeUserSessions(tx, me, actor.sessionId ?? undefined);
  });
  return after!;
}

/** No user of that name (the reset-admin command). */
export class NoSuchUserError extends Error {}

/**
 * Sets a new password on the user named `username` (any case) and activates them, ending every
 * session of theirs: the administrator's way back in (`reset-admin`, run on the server with the
 * context's actor the command line). Answers the user. Throws NoSuchUserError when nobody has that name.
 */
export async function resetPassword(
  ctx: ServiceContext,
  username: string,
  password: PreparedPassword,
): Promise<User> {
  const { tx } = ctx;
  const [current] = await tx
    .select()
    .from(users)
    .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
    .limit(1)
    .for('update');
  if (!current) throw new NoSuchUserError(`No user named "${username}".`);
  const before = await findUser(tx, current.id);
  const [after] = await writeUsers(ctx, 'update', [{ id: current.id, current, before }], async () => {
    await tx
      .update(users)
      .set({ password_hash: password.hash, is_active: true, updated_at: ctx.clock.now() })
      .where(eq(users.id, current.id));
    await revokeUserSessions(tx, current.id);
  });
  return after!;
}
