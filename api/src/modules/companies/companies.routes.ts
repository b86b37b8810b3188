import type { FastifyInstance } from 'fastify';
import {
  COMPANY_IMAGE_LABELS,
  companyInputSchema,
  companySchema,
  listQuerySchema,
} from '@sertifikasi/shared-contracts';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { actorOf, contextOf } from '../../services/context';
import { prepareUploads } from '../../services/images';
import { listCompanies } from './companies.repository';
import { create, findInScope, remove, update } from './companies.service';

export default async function companyRoutes(app: FastifyInstance) {
  const tags = ['companies'];

  defineRoute(app, {
    method: 'GET',
    url: '/api/company',
    summary: 'Companies within the caller’s scope',
    tags,
    access: { permission: 'company' },
    query: listQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(companySchema)) },
    handler: async (req) => listCompanies(app.db, req.query, req.auth.scope),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/company',
    summary: 'Create a company (needs scope ALL); images as logo_file, logo_cert_file, ttd_cert_file',
    tags,
    access: { permission: 'company:create', scopeAll: true },
    multipart: true,
    body: companyInputSchema,
    response: { 201: companySchema },
    handler: async (req, reply) => {
      const uploads = await prepareUploads(req.body, COMPANY_IMAGE_LABELS, app.imageWork);
      const company = await app.db.transaction((tx) => create(contextOf(app, req, tx), req.body, uploads));
      return reply.status(201).send(company);
    },
  });

  defineRoute(app, {
    method: ['POST', 'PUT'],
    url: '/api/company/:id',
    summary: 'Update a company in scope (POST with _method=PUT, or PUT)',
    tags,
    access: { permission: 'company:edit' },
    multipart: true,
    params: idParams,
    body: companyInputSchema,
    response: { 200: companySchema },
    handler: async (req) => {
      // Outside the scope (or absent) answers 404 before any image work.
      await findInScope(app.db, actorOf(req), req.params.id);
      const uploads = await prepareUploads(req.body, COMPANY_IMAGE_LABELS, app.imageWork);
      return app.db.transaction((tx) => update(contextOf(app, req, tx), req.params.id, req.body, uploads));
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/company/:id',
    summary: 'Delete a company in scope that nothing refers to (else success false)',
    tags,
    access: { permission: 'company:delete' },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => remove(contextOf(app, req, tx), req.params.id)),
  });
}
