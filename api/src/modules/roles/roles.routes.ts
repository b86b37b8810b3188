import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import {
  listQuerySchema,
  MESSAGES,
  type PermissionKey,
  roleInputSchema,
  roleSchema,
  roleUpdateSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { roles } from '../../db/schema';
import { forbidden, invalid, notFound, refused } from '../../lib/errors';
import { newId } from '../../lib/crypto';
import { listJsonSchema } from '../../lib/list';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { audit } from '../../services/audit';
import { contextOf } from '../../services/context';
import { permissionKeysOfRole } from '../../services/sessions';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { type Authority, lockAuthority, lockCaller } from '../users/authority';
import { lockFullAdminIds } from '../users/users.repository';
import { findRole, listRoles, resolvePermissions, setRolePermissions } from './roles.repository';

/** Permissions must exist, and a caller cannot hand out a permission they lack (DECISIONS.md section 3). */
async function checkPermissions(db: Executor, authority: Authority, ids: string[]) {
  const { rows, missing } = await resolvePermissions(db, ids);
  if (missing.length) throw invalid({ permission: 'Hak akses tidak ditemukan' });
  if (authority.lacksAny(rows.map((p) => p.name as PermissionKey))) {
    throw forbidden('Tidak dapat memberikan hak akses yang tidak anda miliki');
  }
  return rows.map((r) => r.id);
}

/**
 * Editing or deleting a role needs every permission it holds now (DECISIONS.md section 3): a role
 * editor cannot strip a stronger role, make its holders manageable, and take over their accounts.
 * Returns the caller's authority with the caller's and the role's rows locked FOR UPDATE.
 */
async function lockRoleForChange(tx: Executor, req: FastifyRequest, id: string, need: PermissionKey) {
  const authority = await lockAuthority(tx, await lockCaller(tx, req), {
    need,
    strength: 'update',
    roleIds: [id],
    scopeAll: true,
  });
  const before = await findRole(tx, id);
  if (!before) throw notFound();
  if (authority.lacksAny(await permissionKeysOfRole(tx, id))) {
    throw forbidden('Akses ini memiliki hak akses yang tidak anda miliki');
  }
  return { authority, before };
}

export default async function roleRoutes(app: FastifyInstance) {
  const tags = ['roles'];

  defineRoute(app, {
    method: 'GET',
    url: '/api/roles',
    summary: 'Access roles with their permission ids and user count',
    tags,
    access: { permission: 'roles' },
    query: listQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(roleSchema)) },
    handler: async (req) => listRoles(app.db, req.query),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/roles',
    summary: 'Create an access role (needs scope ALL)',
    tags,
    access: { permission: 'roles:create', scopeAll: true },
    body: roleInputSchema,
    response: { 201: roleSchema },
    handler: async (req, reply) => {
      const role = await app.db.transaction(async (tx) => {
        const authority = await lockAuthority(tx, await lockCaller(tx, req), {
          need: 'roles:create',
          strength: 'update',
          scopeAll: true,
        });
        const permissionIds = await checkPermissions(tx, authority, req.body.permission);
        const id = newId();
        await tx.insert(roles).values({ id, name: req.body.name });
        await setRolePermissions(tx, id, permissionIds);
        const created = (await findRole(tx, id))!;
        await audit(contextOf(app, req, tx), {
          action: 'create',
          entity: 'role',
          entityId: id,
          after: created,
        });
        return created;
      });
      return reply.status(201).send(role);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/roles/:id',
    summary: 'Update an access role (needs scope ALL)',
    tags,
    access: { permission: 'roles:edit', scopeAll: true },
    params: idParams,
    body: roleUpdateSchema,
    response: { 200: roleSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction(async (tx) => {
        // Locks every active scope-ALL user first, then the caller's and this role's rows.
        const adminsBefore = await lockFullAdminIds(tx);
        const { authority, before } = await lockRoleForChange(tx, req, id, 'roles:edit');
        // Without `permission` the role keeps its permissions.
        const permissionIds =
          req.body.permission === undefined
            ? undefined
            : await checkPermissions(tx, authority, req.body.permission);
        await tx.update(roles).set({ name: req.body.name, updated_at: new Date() }).where(eq(roles.id, id));
        if (permissionIds) await setRolePermissions(tx, id, permissionIds);
        // The last administrator with every permission cannot be demoted by editing their role.
        if (adminsBefore.length > 0 && (await lockFullAdminIds(tx)).length === 0) {
          throw refused(
            'Akses ini dipakai administrator terakhir dengan akses penuh; hak aksesnya tidak dapat dikurangi',
          );
        }
        const after = (await findRole(tx, id))!;
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity: 'role',
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
    url: '/api/roles/:id',
    summary: 'Delete an access role that no user has (needs scope ALL)',
    tags,
    access: { permission: 'roles:delete', scopeAll: true },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction(async (tx) => {
        const { before } = await lockRoleForChange(tx, req, id, 'roles:delete');
        if (before.user_count > 0) return { success: false, message: MESSAGES.inUseOrder };
        await tx.delete(roles).where(eq(roles.id, id));
        await audit(contextOf(app, req, tx), { action: 'delete', entity: 'role', entityId: id, before });
        return { success: true, message: MESSAGES.deleted };
      });
    },
  });
}
