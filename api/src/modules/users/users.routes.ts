import type { FastifyInstance } from 'fastify';
import {
  listQuerySchema,
  userCreateSchema,
  userSchema,
  userUpdateSchema,
} from '@sertifikasi/shared-contracts';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { contextOf } from '../../services/context';
import { listUsers } from './users.repository';
import { create, preparePassword, remove, update } from './users.service';

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
      const password = await preparePassword(app.config, req.body.password);
      const user = await app.db.transaction((tx) => create(contextOf(app, req, tx), req.body, password));
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
      const password = await preparePassword(app.config, req.body.password);
      return app.db.transaction((tx) => update(contextOf(app, req, tx), req.params.id, req.body, password));
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
    handler: async (req) => app.db.transaction((tx) => remove(contextOf(app, req, tx), req.params.id)),
  });
}
