import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import {
  schemeAuditInputSchema,
  schemeAuditSchema,
  schemeHistoryEntrySchema,
  schemeInputSchema,
  schemeSchema,
} from '@sertifikasi/shared-contracts';
import { notFound } from '../../lib/errors';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { contextOf } from '../../services/context';
import { schemeStatusHistory } from '../../services/scheme-history';
import { prepareSchemeQr } from '../../services/signed-qr';
import { findSchemeRow } from './schemes.repository';
import { addAudit, auditsOfScheme, removeAudit, updateAudit } from './scheme-audits.service';
import {
  create as createScheme,
  refreshQr,
  remove as removeScheme,
  update as updateScheme,
} from './schemes.service';

/**
 * Schemes of client certificates: JSON writes under the client certificate's permissions, each a
 * call of schemes.service.ts in one transaction with the caller as the actor; the status history.
 */
export default async function schemeRoutes(app: FastifyInstance) {
  const tags = ['company-certificate-scheme'];

  defineRoute(app, {
    method: 'POST',
    url: '/api/company-certificate-scheme',
    summary: 'Add a scheme to a client certificate in scope (expired_date is computed)',
    tags,
    access: { permission: 'company-certificate:create' },
    body: schemeInputSchema,
    response: { 201: schemeSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction((tx) => createScheme(contextOf(app, req, tx), req.body));
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/company-certificate-scheme/:id',
    summary: 'Update a scheme in scope (a new cert_number regenerates a stored QR)',
    tags,
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    body: schemeInputSchema,
    response: { 200: schemeSchema },
    handler: async (req) =>
      app.db.transaction((tx) => updateScheme(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/company-certificate-scheme/:id',
    summary: 'Delete a scheme in scope (nothing refers to a scheme; its audit trail stays)',
    tags,
    access: { permission: 'company-certificate:delete' },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => removeScheme(contextOf(app, req, tx), req.params.id)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/generate-qr-scheme/:id',
    summary:
      'Make and store the QR of a scheme in scope (PNG, base64) encoding its public check URL; answers the scheme',
    tags,
    // It writes the record, so it needs the right to edit it (the button shows to editors).
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    response: { 200: schemeSchema },
    handler: async (req) => {
      const { id } = req.params;
      const current = await findSchemeRow(app.db, id, req.auth.scope);
      if (!current) throw notFound();
      // Made before the transaction; the service makes it again if a signed field changed meanwhile.
      const prepared = await prepareSchemeQr(app.db, app.config, id);
      return app.db.transaction((tx) => refreshQr(contextOf(app, req, tx), id, prepared));
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/company-certificate-scheme/:id/history',
    summary: 'Status changes of a scheme in scope (from, to, at, effective_from, by), newest first',
    tags,
    access: { permission: 'company-certificate' },
    params: idParams,
    response: { 200: yup.array(schemeHistoryEntrySchema).defined() },
    handler: async (req) => {
      const { id } = req.params;
      if (!(await findSchemeRow(app.db, id, req.auth.scope))) throw notFound();
      return (await schemeStatusHistory(app.db, id, app.clock)).reverse();
    },
  });

  // Audits done ('Riwayat Audit'): read with the client certificate's permission, written with its
  // edit permission, through the schemes' service.

  defineRoute(app, {
    method: 'GET',
    url: '/api/company-certificate-scheme/:id/audits',
    summary: 'Audits done on a scheme in scope, newest first',
    tags,
    access: { permission: 'company-certificate' },
    params: idParams,
    response: { 200: yup.array(schemeAuditSchema).defined() },
    handler: async (req) => {
      const { id } = req.params;
      if (!(await findSchemeRow(app.db, id, req.auth.scope))) throw notFound();
      return auditsOfScheme(app.db, id);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/company-certificate-scheme/:id/audits',
    summary: "Record an audit done on a scheme in scope (the scheme's next item due follows)",
    tags,
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    body: schemeAuditInputSchema,
    response: { 201: schemeAuditSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction((tx) =>
        addAudit(contextOf(app, req, tx), req.params.id, req.body),
      );
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/scheme-audits/:id',
    summary: 'Change an audit done on a scheme in scope',
    tags,
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    body: schemeAuditInputSchema,
    response: { 200: schemeAuditSchema },
    handler: async (req) =>
      app.db.transaction((tx) => updateAudit(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/scheme-audits/:id',
    summary: 'Delete an audit done on a scheme in scope',
    tags,
    access: { permission: 'company-certificate:edit' },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => removeAudit(contextOf(app, req, tx), req.params.id)),
  });
}
