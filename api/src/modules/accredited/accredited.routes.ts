import type { FastifyInstance } from 'fastify';
import { asc, sql } from 'drizzle-orm';
import {
  ACCREDITED_IMAGE_LABELS,
  type Accredited,
  accreditedInputSchema,
  accreditedSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { accreditedBodies, schemes } from '../../db/schema';
import { defineResource, referenced } from '../../lib/resource';

/** Sort keys of the list (ACCREDITED_SORTS). */
export const accreditedName = sql`lower(${accreditedBodies.name})`;

/** Used while a scheme names it as its accreditation. */
export const accreditedInUse = (db: Executor, id: string) =>
  referenced(db, schemes, schemes.accredited_id, id);

/** Accreditation bodies ('Akreditasi'): name and logo (required on create), per company. */
export default async function accreditedRoutes(app: FastifyInstance) {
  defineResource(app, {
    module: 'accredited',
    url: '/api/accredited',
    noun: 'accreditation body',
    table: accreditedBodies,
    input: accreditedInputSchema,
    answer: accreditedSchema,
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
}
