import type { FastifyInstance } from 'fastify';
import { asc, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  CLIENT_IMAGE_LABELS,
  CLIENT_SORTS,
  clientCertificateDetailSchema,
  clientCertificateInputSchema,
  clientCertificateSchema,
  todayIn,
} from '@sertifikasi/shared-contracts';
import { clientCertificates } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { companyIdParams } from '../../lib/params';
import { defineResource } from '../../lib/resource';
import { defineRoute } from '../../lib/route';
import { clientInUse, findClientDetail, toClientDto } from './client-certificates.repository';

const lower = (column: AnyPgColumn) => sql`lower(${column})`;

/**
 * Client certificates ('Sertifikasi Perusahaan', SPEC.md sections 2, 3, 5, 7): a company-owned
 * resource with a logo; `certificate_number` unique within its company (client_certificates_number_uq
 * answers); delete refused while the client has schemes. Plus the detail with its schemes.
 */
export default async function clientCertificateRoutes(app: FastifyInstance) {
  defineResource(app, {
    module: 'company-certificate',
    url: '/api/company-certificate',
    noun: 'client certificate',
    table: clientCertificates,
    input: clientCertificateInputSchema,
    answer: clientCertificateSchema,
    toAnswer: ({ row, company }) => toClientDto(row, company),
    values: (input) => ({
      name: input.name,
      certificate_number: input.certificate_number,
      region: input.region,
      address: input.address ?? null,
      scope: input.scope ?? null,
      ea_code: input.ea_code ?? null,
      nace_code: input.nace_code ?? null,
      president: input.president ?? null,
      management_representative: input.management_representative ?? null,
      foundation_day: input.foundation_day ?? null,
      employees_number: input.employees_number ?? null,
      employees_active: input.employees_active ?? null,
      phone: input.phone ?? null,
      handphone: input.handphone ?? null,
      fax: input.fax ?? null,
      email: input.email ?? null,
      website: input.website ?? null,
    }),
    search: [clientCertificates.name, clientCertificates.certificate_number, clientCertificates.region],
    defaultOrder: [asc(lower(clientCertificates.name))],
    sorts: Object.fromEntries(CLIENT_SORTS.map((key) => [key, lower(clientCertificates[key])])),
    images: { labels: CLIENT_IMAGE_LABELS },
    inUse: clientInUse,
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
