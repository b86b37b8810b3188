import { asc, sql } from 'drizzle-orm';
import {
  CERTIFICATION_TYPE_IMAGE_LABELS,
  type CertificationType,
  certificationTypeInputSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { certificationTypes, schemes, trainingCertificates } from '../../db/schema';
import { referenced } from '../resource/resource.repository';
import { defineResourceService } from '../resource/resource.service';

/**
 * student_count is derived: the training certificates that name the type (docs/rules.md#data).
 * The outer table is named explicitly, so the subquery's own columns cannot shadow it.
 */
const studentCount =
  sql<number>`(select count(*) from ${trainingCertificates} tc where tc.certification_id = ${certificationTypes}.id)`.mapWith(
    Number,
  );

/** Used while a scheme or a training certificate names it. */
export const certificationTypeInUse = async (db: Executor, id: string) =>
  (await referenced(db, schemes, schemes.certification_id, id)) ||
  referenced(db, trainingCertificates, trainingCertificates.certification_id, id);

/**
 * Certification types ('Sertifikat'): ISO standards and the like, per company, with an icon. Every
 * write (create, update, remove) takes a service context (services/context.ts); see modules/resource/resource.service.ts.
 */
export const certificationTypeService = defineResourceService({
  entity: 'certification',
  entityName: 'certification-type',
  table: certificationTypes,
  input: certificationTypeInputSchema,
  toAnswer: ({ row, company, extra }): CertificationType => ({
    id: row.id,
    company_id: row.company_id,
    company,
    name: row.name,
    category: row.category,
    code: row.code,
    position: row.position,
    valid_for: row.valid_for,
    valid_for_type: row.valid_for_type as CertificationType['valid_for_type'],
    icon: row.icon,
    student_count: extra.student_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }),
  values: (input) => ({
    name: input.name,
    category: input.category,
    code: input.code,
    position: input.position,
    valid_for: input.valid_for ?? null,
    valid_for_type: input.valid_for_type ?? null,
  }),
  extras: { student_count: studentCount },
  search: [certificationTypes.name, certificationTypes.code, certificationTypes.category],
  defaultOrder: [asc(certificationTypes.position), asc(sql`lower(${certificationTypes.name})`)],
  images: { labels: CERTIFICATION_TYPE_IMAGE_LABELS, requiredOnCreate: true },
  inUse: certificationTypeInUse,
});
