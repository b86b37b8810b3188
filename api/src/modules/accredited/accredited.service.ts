import { asc, sql } from 'drizzle-orm';
import {
  ACCREDITED_IMAGE_LABELS,
  type Accredited,
  accreditedInputSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { accreditedBodies, schemes } from '../../db/schema';
import { referenced } from '../resource/resource.repository';
import { defineResourceService } from '../resource/resource.service';

/** Sort keys of the list (ACCREDITED_SORTS). */
export const accreditedName = sql`lower(${accreditedBodies.name})`;

/** Used while a scheme names it as its accreditation. */
export const accreditedInUse = (db: Executor, id: string) =>
  referenced(db, schemes, schemes.accredited_id, id);

/**
 * Accreditation bodies ('Akreditasi'): name and logo (required on create), per company. Every write
 * (create, update, remove) takes a service context (services/context.ts); see modules/resource/resource.service.ts.
 */
export const accreditedService = defineResourceService({
  entity: 'accredited',
  entityName: 'accreditation-body',
  table: accreditedBodies,
  input: accreditedInputSchema,
  toAnswer: ({ row, company }): Accredited => ({
    id: row.id,
    company_id: row.company_id,
    company,
    name: row.name,
    icon: row.icon,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }),
  values: (input) => ({ name: input.name }),
  search: [accreditedBodies.name],
  defaultOrder: [asc(accreditedName)],
  sorts: { name: accreditedName },
  images: { labels: ACCREDITED_IMAGE_LABELS, requiredOnCreate: true },
  inUse: accreditedInUse,
});
