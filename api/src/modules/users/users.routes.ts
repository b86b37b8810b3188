import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import {
  ALL,
  type CompanyScope,
  listQuerySchema,
  MESSAGES,
  parseCompanyIds,
  type PermissionKey,
  scopeWithin,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { roles, users } from '../../db/schema';
import { forbidden, invalid, notFound, refused } from '../../lib/errors';
import { hashPassword, newId } from '../../lib/crypto';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { audit } from '../../services/audit';
import { contextOf } from '../../services/context';
import { permissionKeysOfRole, revokeUserSessions } from '../../services/sessions';
import { type Authority, lockAuthority, lockCaller } from './authority';
import { missingCompanies } from '../companies/companies.repository';
import {
  findUser,
  isFullAdmin,
  listUsers,
  lockFullAdminIds,
  setUserScope,
  usersWithinScope,
} from './users.repository';

/**
 * No escalation (DECISIONS.md section 3): the role given must hold only permissions the caller
 * holds, and the scope must lie inside the caller's. Runs inside the writing transaction, after
 * lockAuthority locked the role given. Returns the parsed scope and the role's id as stored (lower
 * case, whatever case was sent).
 */
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
  if (authority.lacksAny(await permissionKeysOfRole(tx, roleId))) {
    throw forbidden('Tidak dapat memberikan akses yang tidak anda miliki');
  }
  if (!scopeWithin(scope, authority.scope)) {
    throw forbidden('Tidak dapat memberikan akses perusahaan di luar akses anda');
  }
  if (scope !== ALL) {
    const missing = await missingCompanies(tx, scope);
    if (missing.length) throw invalid({ company_ids: 'Perusahaan tidak ditemukan' });
  }
  return { scope, roleId: role.id };
}

/**
 * For an edit or delete: the target user's row, locked FOR UPDATE, if the caller's scope (as stored
 * now) covers them (404 otherwise); then the caller's authority with the caller's role, the
 * target's role and `roleIds` locked.
 */
async function lockTarget(
  tx: Executor,
  req: FastifyRequest,
  id: string,
  need: PermissionKey,
  roleIds: string[] = [],
) {
  const caller = await lockCaller(tx, req);
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), usersWithinScope(caller.scope)))
    .limit(1)
    .for('update');
  if (!row) throw notFound();
  const authority = await lockAuthority(tx, caller, {
    need,
    strength: 'share',
    roleIds: [row.roles_id, ...roleIds],
  });
  return { row, authority };
}

/** A user whose role holds a permission the caller lacks is not the caller's to edit or delete. */
async function checkManageable(
  tx: Executor,
  req: FastifyRequest,
  authority: Authority,
  row: { id: string; roles_id: string | null },
) {
  if (row.id === req.auth.user.id) return;
  if (authority.lacksAny(await permissionKeysOfRole(tx, row.roles_id))) {
    throw forbidden('User ini memiliki akses yang tidak anda miliki');
  }
}

export default async function userRoutes(app: FastifyInstance) {
  const tags = ['users'];

  defineRoute(app, {
    method: 'GET',
    url: '/api/user',
    summary: 'Users within the caller’s company scope',
    tags,
    access: { permission: 'user' },
    query: listQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(userSchema)) },
    handler: async (req) => listUsers(app.db, req.query, req.auth.scope),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/user',
    summary: 'Create a user',
    tags,
    access: { permission: 'user:create' },
    body: userCreateSchema,
    response: { 201: userSchema },
    handler: async (req, reply) => {
      const body = req.body;
      const passwordHash = await hashPassword(body.password, app.config.argon2);
      const user = await app.db.transaction(async (tx) => {
        const authority = await lockAuthority(tx, await lockCaller(tx, req), {
          need: 'user:create',
          strength: 'share',
          roleIds: [body.roles_id],
        });
        const { scope, roleId } = await checkAssignable(tx, authority, body.roles_id, body.company_ids);
        const id = newId();
        await tx.insert(users).values({
          id,
          name: body.name,
          username: body.username,
          password_hash: passwordHash,
          roles_id: roleId,
          scope_all: scope === ALL,
          is_active: body.is_active === 'true',
        });
        await setUserScope(tx, id, scope);
        const created = (await findUser(tx, id))!;
        await audit(contextOf(app, req, tx), {
          action: 'create',
          entity: 'user',
          entityId: id,
          after: created,
        });
        return created;
      });
      return reply.status(201).send(user);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/user/:id',
    summary: 'Update a user (blank password keeps the current one)',
    tags,
    access: { permission: 'user:edit' },
    params: idParams,
    body: userUpdateSchema,
    response: { 200: userSchema },
    handler: async (req) => {
      const { id } = req.params;
      const body = req.body;
      const isSelf = id === req.auth.user.id;
      const active = body.is_active === 'true';
      const passwordHash = body.password ? await hashPassword(body.password, app.config.argon2) : undefined;
      return app.db.transaction(async (tx) => {
        // Every active scope-ALL user first, then the caller, the target and the roles involved.
        const fullAdmins = await lockFullAdminIds(tx);
        const { row: current, authority } = await lockTarget(tx, req, id, 'user:edit', [body.roles_id]);
        await checkManageable(tx, req, authority, current);
        const { scope, roleId } = await checkAssignable(tx, authority, body.roles_id, body.company_ids);
        if (isSelf && !active) throw refused('Tidak dapat menonaktifkan akun sendiri');
        const next = { is_active: active, scope_all: scope === ALL, roles_id: roleId };
        if (fullAdmins.includes(id) && !(await isFullAdmin(tx, next)) && fullAdmins.length <= 1) {
          throw refused(
            'Administrator terakhir dengan akses penuh tidak dapat dinonaktifkan atau diturunkan',
          );
        }
        const before = await findUser(tx, id);
        await tx
          .update(users)
          .set({
            name: body.name,
            username: body.username,
            ...next,
            ...(passwordHash ? { password_hash: passwordHash } : {}),
            updated_at: new Date(),
          })
          .where(eq(users.id, id));
        await setUserScope(tx, id, scope);
        // Deactivation ends every session; a new password ends the others.
        if (current.is_active && !active) await revokeUserSessions(tx, id);
        else if (passwordHash) await revokeUserSessions(tx, id, isSelf ? req.auth.sessionId : undefined);
        const after = (await findUser(tx, id))!;
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity: 'user',
          entityId: id,
          before,
          after,
        });
        return after;
      });
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/user/:id',
    summary: 'Delete a user',
    tags,
    access: { permission: 'user:delete' },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction(async (tx) => {
        const fullAdmins = await lockFullAdminIds(tx);
        const { row, authority } = await lockTarget(tx, req, id, 'user:delete');
        await checkManageable(tx, req, authority, row);
        if (id === req.auth.user.id) return { success: false, message: 'Tidak dapat menghapus akun sendiri' };
        if (fullAdmins.includes(id) && fullAdmins.length <= 1) {
          return { success: false, message: 'Administrator terakhir dengan akses penuh tidak dapat dihapus' };
        }
        const before = await findUser(tx, id);
        if (!before) throw notFound();
        await tx.delete(users).where(eq(users.id, id));
        await audit(contextOf(app, req, tx), { action: 'delete', entity: 'user', entityId: id, before });
        return { success: true, message: MESSAGES.deleted };
      });
    },
  });
}
