import { asc, eq, inArray } from 'drizzle-orm';
import { ALL, type CompanyScope, type PermissionKey } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { roles, userCompanies, users } from '../../db/schema';
import { forbidden, unauthenticated } from '../../lib/errors';
import type { Actor } from '../../services/context';
import { permissionKeysOfRole } from '../../services/sessions';

/**
 * What the escalation rules of docs/rules.md#permissions compare against, read inside the transaction
 * that writes. The auth hook's copy (req.auth) was read before the transaction began: a concurrent
 * change to the caller's role or scope could slip in between. Here the caller's user row and the
 * role rows involved stay locked until the write commits, so the check and the write see the same
 * permissions and scope.
 */
export interface Caller {
  /** The acting user's id; null for the system (seed, demo, command line). */
  id: string | null;
  rolesId: string | null;
  scope: CompanyScope;
  /** The system's own permissions (it holds no role); undefined for a user, whose role says. */
  permissions?: ReadonlySet<PermissionKey>;
}

export interface Authority {
  scope: CompanyScope;
  permissions: ReadonlySet<PermissionKey>;
  /** True when any of `keys` is one the caller does not hold. */
  lacksAny(keys: readonly PermissionKey[]): boolean;
}

/**
 * The acting user's row as stored now, locked FOR SHARE (a concurrent edit of the caller, which
 * writes that row together with their companies, waits for this transaction, and this one for it).
 * 401 when the caller is gone or was deactivated meanwhile. The system actor is taken as it is.
 */
export async function lockCaller(tx: Executor, actor: Actor): Promise<Caller> {
  if (!actor.user) return { id: null, rolesId: null, scope: actor.scope, permissions: actor.permissions };
  const id = actor.user.id;
  const [row] = await tx
    .select({ roles_id: users.roles_id, scope_all: users.scope_all, is_active: users.is_active })
    .from(users)
    .where(eq(users.id, id))
    .for('share');
  if (!row?.is_active) throw unauthenticated();
  const scope = row.scope_all
    ? ALL
    : (
        await tx
          .select({ id: userCompanies.company_id })
          .from(userCompanies)
          .where(eq(userCompanies.user_id, id))
      ).map((r) => r.id);
  return { id, rolesId: row.roles_id, scope };
}

/**
 * Locks the role rows of the caller and of `roleIds` in one statement, in id order (so concurrent
 * requests cannot deadlock on them), then reads the caller's permissions. Role edits and deletes
 * lock FOR UPDATE, user writes FOR SHARE: a role cannot change between a check that read its
 * permissions and the write that relies on them. The permission key of the action itself is the
 * auth hook's to check (plugins/auth.ts); what is read here is what the escalation rules compare
 * against. 403 when `scopeAll` asks for scope ALL and the caller's scope, as stored now, is not.
 */
export async function lockAuthority(
  tx: Executor,
  caller: Caller,
  opts: {
    strength: 'share' | 'update';
    roleIds?: (string | null | undefined)[];
    scopeAll?: boolean;
  },
): Promise<Authority> {
  const ids = [
    ...new Set(
      [caller.rolesId, ...(opts.roleIds ?? [])]
        .filter((id): id is string => !!id)
        .map((id) => id.toLowerCase()),
    ),
  ].sort();
  if (ids.length) {
    await tx
      .select({ id: roles.id })
      .from(roles)
      .where(inArray(roles.id, ids))
      .orderBy(asc(roles.id))
      .for(opts.strength);
  }
  const permissions = caller.permissions ?? new Set(await permissionKeysOfRole(tx, caller.rolesId));
  if (opts.scopeAll && caller.scope !== ALL)
    throw forbidden('Tindakan ini memerlukan akses ke semua perusahaan');
  return {
    scope: caller.scope,
    permissions,
    lacksAny: (keys) => keys.some((key) => !permissions.has(key)),
  };
}
