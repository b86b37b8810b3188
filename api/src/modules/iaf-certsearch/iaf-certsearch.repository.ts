/**
 * The reads of IAF CertSearch (docs/rules.md#iaf-certsearch): the schemes of a company that go
 * (accredited, not DRAFT) with everything the mapping reads, in id order by keyset, a batch at a
 * time (docs/architecture.md#long-reads); the settings; the uploads' log.
 */
import { and, desc, eq, gt, inArray, ne } from 'drizzle-orm';
import type { IafUpload } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { keysetBatches } from '../../db/keyset';
import {
  accreditationBodies,
  certificationTypes,
  clientCertificates,
  clientSites,
  iafCertsearchSettings,
  iafCertsearchUploads,
  schemes,
} from '../../db/schema';
import type { IafSource } from './iaf-certsearch.mapping';

/** Schemes read in one batch. */
const BATCH = 500;

const latest = (...dates: Date[]) => new Date(Math.max(...dates.map((d) => d.getTime())));

/** The schemes of `companyId` that go to IAF CertSearch, as the mapping reads them, a batch at a time. */
export function iafSources(db: Executor, companyId: string): AsyncGenerator<IafSource[]> {
  return keysetBatches(
    BATCH,
    async (after: { id: string } | null) => {
      const rows = await db
        .select({
          s: schemes,
          c: clientCertificates,
          t: {
            name: certificationTypes.name,
            category: certificationTypes.category,
            updated_at: certificationTypes.updated_at,
          },
          b: {
            name: accreditationBodies.name,
            acronym: accreditationBodies.acronym,
            updated_at: accreditationBodies.updated_at,
          },
        })
        .from(schemes)
        .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
        .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id))
        .innerJoin(accreditationBodies, eq(accreditationBodies.id, schemes.accredited_id))
        .where(
          and(
            eq(schemes.company_id, companyId),
            eq(schemes.is_accredited, true),
            ne(schemes.status, 'DRAFT'),
            after ? gt(schemes.id, after.id) : undefined,
          ),
        )
        .orderBy(schemes.id)
        .limit(BATCH);
      const siteIds = [...new Set(rows.flatMap((r) => r.s.sites.map((site) => site.site_id)))];
      const sites = siteIds.length
        ? await db.select().from(clientSites).where(inArray(clientSites.id, siteIds))
        : [];
      const byId = new Map(sites.map((site) => [site.id, site]));
      return rows.map((r) => ({ id: r.s.id, row: r, byId }));
    },
    (rows) =>
      rows.map(({ row: { s, c, t, b }, byId }): IafSource => {
        const covered = s.sites.flatMap((ref) => {
          const site = byId.get(ref.site_id);
          return site ? [{ ...site, scope: ref.scope }] : [];
        });
        return {
          id: s.id,
          cert_number: s.cert_number,
          status: s.status as IafSource['status'],
          issue_date: s.issue_date,
          original_issue_date: s.original_issue_date,
          issue_date2: s.issue_date2,
          expired_date: s.expired_date,
          scope: s.scope,
          sector_codes: s.sector_codes,
          client: {
            id: c.id,
            name: c.name,
            name_en: c.name_en,
            address: c.address,
            city: c.city,
            province: c.province,
            postcode: c.postcode,
            country: c.country,
            scope: c.scope,
          },
          type: { name: t.name, category: t.category },
          body: { name: b.name, acronym: b.acronym },
          sites: covered,
          changed_at: latest(
            s.updated_at,
            c.updated_at,
            t.updated_at,
            b.updated_at,
            ...covered.map((site) => site.updated_at),
          ),
        };
      }),
  );
}

export async function readSettings(db: Executor, companyId: string) {
  const [row] = await db
    .select()
    .from(iafCertsearchSettings)
    .where(eq(iafCertsearchSettings.company_id, companyId));
  return row;
}

type UploadRow = typeof iafCertsearchUploads.$inferSelect;

export const toUpload = (row: UploadRow): IafUpload => ({
  id: row.id,
  company_id: row.company_id,
  trigger: row.trigger as IafUpload['trigger'],
  all: row.all_records,
  state: row.state as IafUpload['state'],
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
  sent: row.sent,
  accepted: row.accepted,
  refused: row.refused,
  error: row.error,
});

/** The uploads of a company, newest first (the last `limit`). */
export async function listUploads(db: Executor, companyId: string, limit = 100): Promise<IafUpload[]> {
  const rows = await db
    .select()
    .from(iafCertsearchUploads)
    .where(eq(iafCertsearchUploads.company_id, companyId))
    .orderBy(desc(iafCertsearchUploads.created_at), desc(iafCertsearchUploads.id))
    .limit(limit);
  return rows.map(toUpload);
}

/** When the last successful upload of a company started (its changes are in IAF), or null. */
export async function lastSuccess(db: Executor, companyId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: iafCertsearchUploads.started_at })
    .from(iafCertsearchUploads)
    .where(and(eq(iafCertsearchUploads.company_id, companyId), eq(iafCertsearchUploads.state, 'done')))
    .orderBy(desc(iafCertsearchUploads.started_at))
    .limit(1);
  return row?.at ?? null;
}
