import type { FastifyInstance } from 'fastify';
import {
  listQuerySchema,
  roleInputSchema,
  roleSchema,
  roleUpdateSchema,
} from '@sertifikasi/shared-contracts';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { contextOf } from '../../services/context';
import { listRoles } from './roles.repository';
import { create, remove, update } from './roles.service';

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
      const role = await app.db.transaction((tx) => create(contextOf(app, req, tx), req.body));
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
    handler: async (req) =>
      app.db.transaction((tx) => update(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/roles/:id',
    summary: 'Delete an access role that no user has (needs scope ALL)',
    tags,
    access: { permission: 'roles:delete', scopeAll: true },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => remove(contextOf(app, req, tx), req.params.id)),
  });
}
