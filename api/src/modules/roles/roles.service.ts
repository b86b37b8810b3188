/**
 * Every write of an access role (docs/architecture.md): create, update, delete. Each takes a service
 * context and does the checks, then the one write sequence (services/write-sequence.ts: the write,
 * the after-write steps, the audit, the answer) in its transaction.
 * The permission key of the action is the auth hook's; the rules of docs/rules.md#permissions are
 * checked here against the actor's authority as stored now (users/authority.ts): roles are shared
 * by every company (scope ALL), nobody hands out a permission they lack, a role is changed only by
 * someone holding all it holds, and the last full administrator keeps every permission.
 */
import { eq } from 'drizzle-orm';
import {
  type DeleteResponse,
  MESSAGES,
  type PermissionKey,
  type Role,
  type RoleInput,
  type RoleUpdateInput,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { rolePermissions, roles } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { forbidden, invalid, notFound, refused } from '../../lib/errors';
import type { Actor, ServiceContext } from '../../services/context';
import { recordWrites } from '../../services/record-writes';
import { permissionKeysOfRole } from '../../services/sessions';
import { type Authority, lockAuthority, lockCaller } from '../users/authority';
import { lockFullAdminIds } from '../users/users.repository';
import { findRole, findRoleRow, resolvePermissions } from './roles.repository';

export const NO_PERMISSION_ESCALATION = 'Tidak dapat memberikan hak akses yang tidak anda miliki';
export const STRONGER_ROLE = 'Akses ini memiliki hak akses yang tidak anda miliki';
export const LAST_ADMIN_ROLE =
  'Akses ini dipakai administrator terakhir dengan akses penuh; hak aksesnya tidak dapat dikurangi';

type RoleRow = typeof roles.$inferSelect;

/** A write of roles through the one write sequence (services/record-writes.ts); audited under no company. */
const writeRoles = recordWrites<RoleRow, Role>({
  entity: 'role',
  noCompany: true,
  findRow: findRoleRow,
  find: findRole,
});

/** Sets the permissions a role holds: part of the role's write. */
async function setRolePermissions(db: Executor, roleId: string, permissionIds: string[]) {
  await db.delete(rolePermissions).where(eq(rolePermissions.role_id, roleId));
  if (permissionIds.length) {
    await db
      .insert(rolePermissions)
      .values(permissionIds.map((permission_id) => ({ role_id: roleId, permission_id })));
  }
}

/** Permissions must exist, and an actor cannot hand out a permission they lack. */
async function checkPermissions(db: Executor, authority: Authority, ids: string[]) {
  const { rows, missing } = await resolvePermissions(db, ids);
  if (missing.length) throw invalid({ permission: 'Hak akses tidak ditemukan' });
  if (authority.lacksAny(rows.map((p) => p.name as PermissionKey))) throw forbidden(NO_PERMISSION_ESCALATION);
  return rows.map((r) => r.id);
}

/**
 * Editing or deleting a role needs every permission it holds now: a role editor cannot strip a
 * stronger role, make its holders manageable, and take over their accounts. Returns the actor's
 * authority with the actor's and the role's rows locked FOR UPDATE, and the role as stored.
 */
async function lockRoleForChange(tx: Executor, actor: Actor, id: string) {
  const authority = await lockAuthority(tx, await lockCaller(tx, actor), {
    strength: 'update',
    roleIds: [id],
    scopeAll: true,
  });
  const row = await findRoleRow(tx, id);
  const before = row && (await findRole(tx, row.id));
  if (!row || !before) throw notFound();
  if (authority.lacksAny(await permissionKeysOfRole(tx, row.id))) throw forbidden(STRONGER_ROLE);
  return { authority, row, before };
}

/** Creates a role holding the permissions given (ids), all of them held by the actor. */
export async function create(ctx: ServiceContext, input: RoleInput): Promise<Role> {
  const { tx } = ctx;
  const authority = await lockAuthority(tx, await lockCaller(tx, ctx.actor), {
    strength: 'update',
    scopeAll: true,
  });
  const permissionIds = await checkPermissions(tx, authority, input.permission);
  const id = newId();
  const now = ctx.clock.now();
  const [created] = await writeRoles(ctx, 'create', [{ id, current: null }], async () => {
    await tx.insert(roles).values({ id, name: input.name, created_at: now, updated_at: now });
    await setRolePermissions(tx, id, permissionIds);
  });
  return created!;
}

/** Renames a role and, when `permission` is given, sets its permissions (without, it keeps them). */
export async function update(ctx: ServiceContext, id: string, input: RoleUpdateInput): Promise<Role> {
  const { tx } = ctx;
  // Locks every active scope-ALL user first, then the actor's and this role's rows.
  const adminsBefore = await lockFullAdminIds(tx);
  const { authority, row, before } = await lockRoleForChange(tx, ctx.actor, id);
  const permissionIds =
    input.permission === undefined ? undefined : await checkPermissions(tx, authority, input.permission);
  const [after] = await writeRoles(ctx, 'update', [{ id: row.id, current: row, before }], async () => {
    await tx.update(roles).set({ name: input.name, updated_at: ctx.clock.now() }).where(eq(roles.id, row.id));
    if (permissionIds) await setRolePermissions(tx, row.id, permissionIds);
    // The last administrator with every permission cannot be demoted by editing their role.
    if (adminsBefore.length > 0 && (await lockFullAdminIds(tx)).length === 0) throw refused(LAST_ADMIN_ROLE);
  });
  return after!;
}

/** Deletes a role nobody holds (`success: false` while users hold it, active or not). */
export async function remove(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const { tx } = ctx;
  const { row, before } = await lockRoleForChange(tx, ctx.actor, id);
  if (before.user_count > 0) return { success: false, message: MESSAGES.inUseOrder };
  await writeRoles(ctx, 'delete', [{ id: row.id, current: row, before }], async () => {
    await tx.delete(roles).where(eq(roles.id, row.id));
  });
  return { success: true, message: MESSAGES.deleted };
}
