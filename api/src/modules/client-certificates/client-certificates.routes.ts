import type { FastifyInstance } from 'fastify';
import { clientCertificateDetailSchema, clientCertificateSchema } from '@sertifikasi/shared-contracts';
import { notFound } from '../../lib/errors';
import { companyIdParams } from '../../lib/params';
import { defineResourceRoutes } from '../resource/resource.routes';
import { defineRoute } from '../../lib/route';
import { findClientDetail } from './client-certificates.repository';
import { clientCertificateService } from './client-certificates.service';

/**
 * Client certificates ('Sertifikasi Perusahaan', /api/company-certificate): the routes over client-certificates.service.ts,
 * plus the detail with its schemes.
 */
export default async function clientCertificateRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: clientCertificateService,
    noun: 'client certificate',
    answer: clientCertificateSchema,
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/company-certificate/:company_id/:id',
    summary:
      'A client certificate with its company’s settings and its schemes, newest issue first (company_id: its company, or ALL)',
    tags: ['company-certificate'],
    access: { permission: 'company-certificate' },
    params: companyIdParams,
    response: { 200: clientCertificateDetailSchema },
    handler: async (req) => {
      const { company_id: companyId, id } = req.params;
      const detail = await findClientDetail(
        app.db,
        id,
        companyId === 'ALL' ? 'ALL' : companyId.toLowerCase(),
        req.auth.scope,
        app.clock.today(),
      );
      if (!detail) throw notFound();
      return detail;
    },
  });
}
