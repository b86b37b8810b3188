import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import {
  COMPANY_IMAGE_LABELS,
  companyInputSchema,
  companySchema,
  listQuerySchema,
  MESSAGES,
} from '@sertifikasi/shared-contracts';
import { companies } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/crypto';
import { listJsonSchema } from '../../lib/list';
import { defineDeleteRoute } from '../../lib/resource';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { audit } from '../../services/audit';
import { contextOf } from '../../services/context';
import { applyImageFields, prepareUploads } from '../../services/images';
import { idParams } from '../../lib/params';
import { companyInUse, findCompany, findCompanyRow, listCompanies } from './companies.repository';

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
      const body = req.body;
      const uploads = await prepareUploads(body, COMPANY_IMAGE_LABELS, app.imageWork);
      const company = await app.db.transaction(async (tx) => {
        const id = newId();
        // A new company has no images yet: a name other than empty is one the API never gave it (422).
        const imageValues = await applyImageFields(tx, COMPANY_IMAGE_LABELS, body, uploads, {});
        await tx.insert(companies).values({
          id,
          name: body.name,
          email: body.email ?? null,
          phone: body.phone ?? null,
          address: body.address ?? null,
          website: body.website,
          ...imageValues,
          simple_dates: body.simple_dates === 'true',
          public_certificate_download: body.public_certificate_download === 'true',
        });
        const created = (await findCompany(tx, id, 'ALL'))!;
        await audit(contextOf(app, req, tx), {
          action: 'create',
          entity: 'company',
          entityId: id,
          companyId: id,
          after: created,
        });
        return created;
      });
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
      const { id } = req.params;
      const body = req.body;
      if (!(await findCompanyRow(app.db, id, req.auth.scope))) throw notFound();
      const uploads = await prepareUploads(body, COMPANY_IMAGE_LABELS, app.imageWork);
      return app.db.transaction(async (tx) => {
        const current = await findCompanyRow(tx, id, req.auth.scope);
        if (!current) throw notFound();
        const before = await findCompany(tx, id, req.auth.scope);
        const imageValues = await applyImageFields(tx, COMPANY_IMAGE_LABELS, body, uploads, current);
        await tx
          .update(companies)
          .set({
            name: body.name,
            email: body.email ?? null,
            phone: body.phone ?? null,
            address: body.address ?? null,
            website: body.website,
            ...imageValues,
            simple_dates: body.simple_dates === 'true',
            public_certificate_download: body.public_certificate_download === 'true',
            updated_at: new Date(),
          })
          .where(eq(companies.id, id));
        const after = (await findCompany(tx, id, req.auth.scope))!;
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity: 'company',
          entityId: id,
          companyId: id,
          before,
          after,
        });
        return after;
      });
    },
  });

  defineDeleteRoute(app, {
    module: 'company',
    url: '/api/company/:id',
    noun: 'company',
    tags,
    table: companies,
    findRow: findCompanyRow,
    find: findCompany,
    companyOf: (row) => row.id,
    imageFields: Object.keys(COMPANY_IMAGE_LABELS),
    inUse: companyInUse,
    inUseMessage: MESSAGES.inUseProduct,
  });
}
