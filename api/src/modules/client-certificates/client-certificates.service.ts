import { asc, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  CLIENT_CERTIFICATE_IMAGE_LABELS,
  CLIENT_CERTIFICATE_SORTS,
  clientCertificateInputSchema,
  DEFAULT_COUNTRY,
} from '@sertifikasi/shared-contracts';
import { clientCertificates } from '../../db/schema';
import { defineResourceService } from '../resource/resource.service';
import { clientCertificateInUse, toClientCertificateDto } from './client-certificates.repository';

const lower = (column: AnyPgColumn) => sql`lower(${column})`;

/**
 * Client certificates ('Sertifikasi Perusahaan', docs/rules.md#screens, #entities, #validation and #calls): a company-owned
 * record with a logo; `certificate_number` unique within its company (client_certificates_number_uq
 * answers); delete refused, and the company fixed, while the client has schemes. Every write
 * (create, update, remove) takes a service context (services/context.ts); see modules/resource/resource.service.ts.
 */
export const clientCertificateService = defineResourceService({
  entity: 'company-certificate',
  entityName: 'client-certificate',
  table: clientCertificates,
  input: clientCertificateInputSchema,
  toAnswer: ({ row, company }) => toClientCertificateDto(row, company),
  values: (input) => ({
    name: input.name,
    name_en: input.name_en ?? null,
    certificate_number: input.certificate_number,
    region: input.region,
    address: input.address ?? null,
    city: input.city ?? null,
    province: input.province ?? null,
    postcode: input.postcode ?? null,
    country: input.country ?? DEFAULT_COUNTRY,
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
    // Absent (an update from a form or file without the switch) keeps the stored value.
    ...(input.send_reminders !== undefined ? { send_reminders: input.send_reminders === 'true' } : {}),
  }),
  search: [clientCertificates.name, clientCertificates.certificate_number, clientCertificates.region],
  defaultOrder: [asc(lower(clientCertificates.name))],
  sorts: Object.fromEntries(CLIENT_CERTIFICATE_SORTS.map((key) => [key, lower(clientCertificates[key])])),
  images: { labels: CLIENT_CERTIFICATE_IMAGE_LABELS },
  inUse: clientCertificateInUse,
});
