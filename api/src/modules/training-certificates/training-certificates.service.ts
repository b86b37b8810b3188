import { desc, sql } from 'drizzle-orm';
import { type TrainingCertificate, trainingCertificateInputSchema } from '@sertifikasi/shared-contracts';
import { trainingCertificates } from '../../db/schema';
import { invalid } from '../../lib/errors';
import { defineResourceService } from '../resource/resource.service';
import { typeOwners } from '../schemes/schemes.repository';

const t = trainingCertificates;

/**
 * Training certificates ('Sertifikasi Pelatihan'): the number is unique across all companies
 * (training_certificates_number_uq answers a duplicate); the certification type, when named, is of
 * the certificate's company (422); the QR (the signed public check URL) is made on create and
 * again when a signed field changes, by the after-write step services/signed-qr.ts. Every write (create, update, remove) takes a service context
 * (services/context.ts); see modules/resource/resource.service.ts.
 */
export const trainingCertificateService = defineResourceService({
  entity: 'training-certificate',
  entityName: 'training-certificate',
  table: t,
  input: trainingCertificateInputSchema,
  toAnswer: ({ row, company }): TrainingCertificate => ({
    id: row.id,
    company_id: row.company_id,
    company,
    certification_id: row.certification_id,
    name: row.name,
    certificate_number: row.certificate_number,
    training: row.training,
    location: row.location,
    date: row.date,
    desc: row.description,
    qrcode: row.qrcode,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }),
  values: (input) => ({
    name: input.name,
    certificate_number: input.certificate_number,
    training: input.training,
    location: input.location,
    date: input.date,
    description: input.desc ?? null,
    certification_id: input.certification_id?.toLowerCase() ?? null,
  }),
  search: [t.name, t.certificate_number, t.training, t.location],
  defaultOrder: [desc(t.date), desc(t.created_at)],
  sorts: {
    name: sql`lower(${t.name})`,
    certificate_number: sql`lower(${t.certificate_number})`,
    date: t.date,
  },
  // The named certification types, checked for all the writes at once (an import's chunk).
  beforeWrite: async (writes) => {
    const named = writes.filter((w) => w.input.certification_id);
    if (!named.length) return;
    const owners = await typeOwners(
      writes[0]!.ctx.tx,
      named.map((w) => w.input.certification_id!.toLowerCase()),
    );
    for (const w of named)
      if (owners.get(w.input.certification_id!.toLowerCase()) !== w.companyId)
        throw invalid({ certification_id: 'Sertifikat tidak ditemukan di perusahaan ini' });
  },
});
