/**
 * 'Auditor' (permission `auditor`; docs/rules.md#auditors-and-planned-audits): the auditor register of
 * the companies in scope: list, get, create, update, delete. Scope as everywhere: a company outside
 * it 403, a record outside it 404.
 */
import type { FastifyInstance } from 'fastify';
import { auditorInputSchema, auditorListQuerySchema, auditorSchema } from '@sertifikasi/shared-contracts';
import { notFound } from '../../lib/errors';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { contextOf } from '../../services/context';
import { findAuditor, listAuditors } from './auditors.repository';
import { createAuditor, removeAuditor, updateAuditor } from './auditors.service';

export default async function auditorRoutes(app: FastifyInstance) {
  const tags = ['auditors'];
  const access = { permission: 'auditor' } as const;

  defineRoute(app, {
    method: 'GET',
    url: '/api/auditor',
    summary: 'Auditors of the companies in the caller’s scope, by name',
    tags,
    access,
    query: auditorListQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(auditorSchema)) },
    handler: async (req) => listAuditors(app.db, req.query, companyFilter(req, req.query.company_id)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/auditor/:id',
    summary: 'One auditor with its qualifications and conflicts',
    tags,
    access,
    params: idParams,
    response: { 200: auditorSchema },
    handler: async (req) => {
      const auditor = await findAuditor(app.db, req.params.id, req.auth.scope);
      if (!auditor) throw notFound();
      return auditor;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/auditor',
    summary: 'Add an auditor',
    tags,
    access,
    body: auditorInputSchema,
    response: { 201: auditorSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction((tx) => createAuditor(contextOf(app, req, tx), req.body));
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/auditor/:id',
    summary: 'Change an auditor (its qualifications and conflicts are written again whole)',
    tags,
    access,
    params: idParams,
    body: auditorInputSchema,
    response: { 200: auditorSchema },
    handler: async (req) =>
      app.db.transaction((tx) => updateAuditor(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/auditor/:id',
    summary: 'Delete an auditor on no planned audit (else 409: deactivate it)',
    tags,
    access,
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => removeAuditor(contextOf(app, req, tx), req.params.id)),
  });
}
