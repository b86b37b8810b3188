import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { clientSiteInputSchema, clientSiteSchema } from '@sertifikasi/shared-contracts';
import { notFound } from '../../lib/errors';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { contextOf } from '../../services/context';
import { findClientInScope, sitesOfClient } from './client-sites.repository';
import { createSite, removeSite, updateSite } from './client-sites.service';

const clientQuery = yup.object({
  client_id: yup.string().trim().lowercase().uuid('Klien tidak valid').required('Klien wajib diisi'),
});

/**
 * Sites ('Lokasi') of clients (docs/rules.md#register-data): read and written under the client
 * certificate's permissions and its company scope, each write a call of client-sites.service.ts in
 * one transaction with the caller as the actor.
 */
export default async function clientSiteRoutes(app: FastifyInstance) {
  const tags = ['client-site'];

  defineRoute(app, {
    method: 'GET',
    url: '/api/client-site',
    summary: 'The sites of a client in scope, by name',
    tags,
    access: { permission: 'company-certificate' },
    query: clientQuery,
    response: { 200: yup.array(clientSiteSchema).defined() },
    handler: async (req) => {
      const client = await findClientInScope(app.db, req.query.client_id, req.auth.scope);
      if (!client) throw notFound();
      return sitesOfClient(app.db, client.id);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/client-site',
    summary: 'Add a site to a client in scope',
    tags,
    access: { permission: 'company-certificate:create' },
    body: clientSiteInputSchema,
    response: { 201: clientSiteSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction((tx) => createSite(contextOf(app, req, tx), req.body));
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/client-site/:id',
    summary: 'Change a site in scope (it stays with its client)',
    tags,
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    body: clientSiteInputSchema,
    response: { 200: clientSiteSchema },
    handler: async (req) =>
      app.db.transaction((tx) => updateSite(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/client-site/:id',
    summary: 'Delete a site in scope (409 while a scheme covers it)',
    tags,
    access: { permission: 'company-certificate:delete' },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => removeSite(contextOf(app, req, tx), req.params.id)),
  });
}
