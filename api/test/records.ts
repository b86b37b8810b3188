import { randomUUID } from 'node:crypto';
import type { Executor } from '../src/db';
import {
  accreditedBodies,
  certificationTypes,
  clientCertificates,
  schemes,
  trainingCertificates,
} from '../src/db/schema';
import { rebuildDerived } from '../src/services/derived';

/**
 * Kept for the import and schemes tests until they move to `ctx.make` (test/fixtures.ts), which
 * writes through the services and needs no rebuild. Rows written straight to the database, for tests of one resource that need another's records
 * (a scheme that uses a type or an accreditation body) without depending on that resource's routes.
 * Each then rebuilds the derived tables, as a bulk load does (services/derived.ts).
 */
export async function insertCertificationType(
  db: Executor,
  companyId: string,
  name = 'ISO 9001',
): Promise<string> {
  const id = randomUUID();
  await db
    .insert(certificationTypes)
    .values({ id, company_id: companyId, name, category: 'Mutu', code: name });
  await rebuildDerived(db);
  return id;
}

export async function insertScheme(
  db: Executor,
  input: { companyId: string; certificationId: string; accreditedId?: string; number?: string },
): Promise<string> {
  const client = randomUUID();
  await db.insert(clientCertificates).values({
    id: client,
    company_id: input.companyId,
    certificate_number: `KL-${client.slice(0, 8)}`,
    region: 'Jakarta',
    name: `PT Klien ${client.slice(0, 4)}`,
  });
  const id = randomUUID();
  await db.insert(schemes).values({
    id,
    company_id: input.companyId,
    certificate_id: client,
    certification_id: input.certificationId,
    accredited_id: input.accreditedId ?? null,
    is_accredited: !!input.accreditedId,
    cert_number: input.number ?? `SK-${id.slice(0, 8)}`,
    status: 'ACTIVE',
    issue_date: '2025-01-01',
    valid_for: 3,
    valid_for_type: 'YEAR',
    expired_date: '2028-01-01',
  });
  await rebuildDerived(db);
  return id;
}

export async function insertAccredited(db: Executor, companyId: string, name = 'KAN'): Promise<string> {
  const id = randomUUID();
  await db.insert(accreditedBodies).values({ id, company_id: companyId, name });
  await rebuildDerived(db);
  return id;
}

export async function insertTraining(
  db: Executor,
  companyId: string,
  number = `PLT-${randomUUID()}`,
): Promise<string> {
  const id = randomUUID();
  await db.insert(trainingCertificates).values({
    id,
    company_id: companyId,
    certificate_number: number,
    name: 'Budi Santoso',
    training: 'Auditor Internal',
    location: 'Jakarta',
    date: '2025-01-15',
  });
  await rebuildDerived(db);
  return id;
}
