import { asc, sql } from 'drizzle-orm';
import {
  ACCREDITATION_BODY_IMAGE_LABELS,
  type AccreditationBody,
  accreditationBodyInputSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { accreditationBodies, schemes } from '../../db/schema';
import { referenced } from '../resource/resource.repository';
import { defineResourceService } from '../resource/resource.service';

/** Sort keys of the list (ACCREDITATION_BODY_SORTS). */
export const accreditationBodyName = sql`lower(${accreditationBodies.name})`;

/** Used while a scheme names it as its accreditation. */
export const accreditationBodyInUse = (db: Executor, id: string) =>
  referenced(db, schemes, schemes.accredited_id, id);

/**
 * Accreditation bodies ('Akreditasi'): name and logo (required on create), per company. Every write
 * (create, update, remove) takes a service context (services/context.ts); see modules/resource/resource.service.ts.
 */
export const accreditationBodyService = defineResourceService({
  entity: 'accredited',
  entityName: 'accreditation-body',
  table: accreditationBodies,
  input: accreditationBodyInputSchema,
  toAnswer: ({ row, company }): AccreditationBody => ({
    id: row.id,
    company_id: row.company_id,
    company,
    name: row.name,
    acronym: row.acronym,
    icon: row.icon,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }),
  values: (input) => ({ name: input.name, acronym: input.acronym ?? null }),
  search: [accreditationBodies.name],
  defaultOrder: [asc(accreditationBodyName)],
  sorts: { name: accreditationBodyName },
  images: { labels: ACCREDITATION_BODY_IMAGE_LABELS, requiredOnCreate: true },
  inUse: accreditationBodyInUse,
});
