import type { FastifyInstance } from 'fastify';
import { and, desc, eq, sql } from 'drizzle-orm';
import { type Training, trainingInputSchema, trainingSchema } from '@sertifikasi/shared-contracts';
import { certificationTypes, trainingCertificates } from '../../db/schema';
import { invalid } from '../../lib/errors';
import { defineResource } from '../../lib/resource';
import { publicCheckUrl, qrPngBase64 } from '../../services/qr';

/**
 * Training certificates ('Sertifikasi Pelatihan'): the number is unique across all companies
 * (training_certificates_number_uq answers a duplicate); the QR is made on create and again when
 * the number changes.
 */
export default async function trainingRoutes(app: FastifyInstance) {
  const t = trainingCertificates;
  defineResource(app, {
    module: 'training-certificate',
    url: '/api/training-certificate',
    noun: 'training certificate',
    table: t,
    input: trainingInputSchema,
    answer: trainingSchema,
    toAnswer: ({ row, company }): Training => ({
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
    getOne: true,
    beforeWrite: async ({ tx, input, companyId, current }) => {
      if (input.certification_id) {
        const [type] = await tx
          .select({ id: certificationTypes.id })
          .from(certificationTypes)
          .where(
            and(
              eq(certificationTypes.id, input.certification_id.toLowerCase()),
              eq(certificationTypes.company_id, companyId),
            ),
          );
        if (!type) throw invalid({ certification_id: 'Sertifikat tidak ditemukan di perusahaan ini' });
      }
      if (current && current.certificate_number === input.certificate_number) return;
      const url = publicCheckUrl(app.config.publicBaseUrl, 'training', input.certificate_number);
      return { qrcode: await qrPngBase64(url) };
    },
  });
}
