import { eq } from 'drizzle-orm';
import type { Executor } from '../../db';
import { prepared } from '../../db/prepared';
import { companies, schemes, trainingCertificates } from '../../db/schema';

/** The issuer (the certification body: the company) of a scheme, by the scheme's id. */
const schemeIssuer = prepared('credentials.scheme-issuer', ['id'], (db, p, name) =>
  db
    .select({ name: companies.name })
    .from(schemes)
    .innerJoin(companies, eq(companies.id, schemes.company_id))
    .where(eq(schemes.id, p.id))
    .limit(1)
    .prepare(name),
);

/** The issuer of a training certificate, by its number exactly as stored (unique). */
const trainingIssuer = prepared('credentials.training-issuer', ['number'], (db, p, name) =>
  db
    .select({ name: companies.name })
    .from(trainingCertificates)
    .innerJoin(companies, eq(companies.id, trainingCertificates.company_id))
    .where(eq(trainingCertificates.certificate_number, p.number))
    .limit(1)
    .prepare(name),
);

export async function findSchemeIssuer(db: Executor, schemeId: string): Promise<string | null> {
  return (await schemeIssuer(db, { id: schemeId }))[0]?.name ?? null;
}

export async function findTrainingIssuer(db: Executor, number: string): Promise<string | null> {
  return (await trainingIssuer(db, { number }))[0]?.name ?? null;
}
