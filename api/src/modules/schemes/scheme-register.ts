/**
 * What a scheme's certificate covers and shows (docs/rules.md#register-data): the client's sites it
 * covers, its sector codes, and whether a save changes what the certificate shows (its revision).
 */
import { inArray } from 'drizzle-orm';
import type { SchemeInput } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { clientSites, type schemes } from '../../db/schema';

type SchemeValues = Partial<typeof schemes.$inferInsert>;
type SchemeSiteValue = { site_id: string; scope: string | null };

/**
 * The client of each of the sites `ids` that exist, by id (one query for many). The rows are
 * share-locked until the transaction ends: a site a save is about to cover is not deleted under it
 * (a delete takes the row's lock, then looks for the schemes that cover it).
 */
export async function siteClients(tx: Executor, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await tx
    .select({ id: clientSites.id, client_id: clientSites.client_id })
    .from(clientSites)
    .where(inArray(clientSites.id, [...new Set(ids)]))
    .for('share');
  return new Map(rows.map((r) => [r.id, r.client_id]));
}

/** The site ids a batch of inputs names (lower case). */
export const siteIdsOf = (inputs: readonly SchemeInput[]): string[] =>
  inputs.flatMap((i) => (i.sites ?? []).map((s) => s.site_id.toLowerCase()));

/** The sites of an input as stored: ids in lower case, an empty scope as null, in the order given. */
export const sitesOf = (input: SchemeInput): SchemeSiteValue[] =>
  (input.sites ?? []).map((s) => ({ site_id: s.site_id.toLowerCase(), scope: s.scope ?? null }));

/** The sector codes of an input as stored: ascending, without repeats. */
export const sectorCodesOf = (input: SchemeInput): number[] =>
  [...new Set((input.sector_codes ?? []).map(Number))].sort((a, b) => a - b);

/** The columns whose change is a change of what the certificate shows (docs/rules.md#register-data). */
const SHOWN = [
  'cert_number',
  'certification_id',
  'is_accredited',
  'accredited_id',
  'issue_date',
  'issue_date2',
  'original_issue_date',
  'expired_date',
  'scope',
] as const satisfies readonly (keyof SchemeValues)[];

const sitesKey = (sites: readonly SchemeSiteValue[] | undefined) =>
  JSON.stringify(
    [...(sites ?? [])]
      .map((s) => [s.site_id, s.scope ?? null])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );

/** True when storing `next` over `current` changes what the certificate shows. */
export function changesCertificate(current: typeof schemes.$inferSelect, next: SchemeValues): boolean {
  for (const key of SHOWN) {
    if (!(key in next)) continue;
    if ((next[key] ?? null) !== (current[key] ?? null)) return true;
  }
  if (next.sector_codes && next.sector_codes.join(',') !== current.sector_codes.join(',')) return true;
  if (next.sites && sitesKey(next.sites) !== sitesKey(current.sites)) return true;
  return false;
}
