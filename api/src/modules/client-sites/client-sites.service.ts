/**
 * The writes of sites ('Lokasi') of clients (docs/rules.md#register-data), each one function of a
 * service context and its input, usable without HTTP: under their client (404 when absent or outside
 * the actor's scope), in the client's company; a site a scheme covers is not deleted (409). Every
 * write goes through the one write sequence (services/record-writes.ts) with its audit row.
 */
import { eq } from 'drizzle-orm';
import {
  type ClientSite,
  type ClientSiteInput,
  DEFAULT_COUNTRY,
  type DeleteResponse,
  MESSAGES,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { clientSites } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { ServiceContext } from '../../services/context';
import { recordWrites } from '../../services/record-writes';
import {
  type ClientSiteRow,
  findClientInScope,
  findSiteRow,
  siteCovered,
  toClientSiteDto,
} from './client-sites.repository';

/** The audit entity of sites, in the audit log. */
export const CLIENT_SITE_ENTITY = 'client-site';

const siteRow = async (db: Executor, id: string): Promise<ClientSiteRow | undefined> =>
  (await db.select().from(clientSites).where(eq(clientSites.id, id)).limit(1))[0];

const writeSites = recordWrites<ClientSiteRow, ClientSite>({
  entity: CLIENT_SITE_ENTITY,
  findRow: siteRow,
  find: async (db, id) => {
    const row = await siteRow(db, id);
    return row && toClientSiteDto(row);
  },
});

const columnsOf = (input: ClientSiteInput) => ({
  name: input.name,
  address: input.address ?? null,
  city: input.city ?? null,
  province: input.province ?? null,
  postcode: input.postcode ?? null,
  country: input.country ?? DEFAULT_COUNTRY,
});

/** The stored site in the actor's scope; 404 otherwise. */
async function siteInScope(ctx: ServiceContext, id: string, lock = false): Promise<ClientSiteRow> {
  const row = await findSiteRow(ctx.tx, id, ctx.actor.scope, lock);
  if (!row) throw notFound();
  return row;
}

/** Adds a site to a client in the actor's scope (404 otherwise); answers it. */
export async function createSite(ctx: ServiceContext, input: ClientSiteInput): Promise<ClientSite> {
  const client = await findClientInScope(ctx.tx, input.client_id.toLowerCase(), ctx.actor.scope);
  if (!client) throw notFound();
  const id = newId();
  const now = ctx.clock.now();
  const [answer] = await writeSites(
    ctx,
    'create',
    [{ id, companyId: client.company_id, current: null }],
    () =>
      ctx.tx.insert(clientSites).values({
        id,
        company_id: client.company_id,
        client_id: client.id,
        ...columnsOf(input),
        created_at: now,
        updated_at: now,
      }),
  );
  return answer!;
}

/** Changes a site in the actor's scope; it stays with its client (422 on another). Answers it. */
export async function updateSite(
  ctx: ServiceContext,
  id: string,
  input: ClientSiteInput,
): Promise<ClientSite> {
  const current = await siteInScope(ctx, id);
  if (input.client_id.toLowerCase() !== current.client_id)
    throw invalid({ client_id: 'Klien lokasi tidak dapat diubah' });
  const [answer] = await writeSites(
    ctx,
    'update',
    [{ id, companyId: current.company_id, current, before: toClientSiteDto(current) }],
    () =>
      ctx.tx
        .update(clientSites)
        .set({ ...columnsOf(input), updated_at: ctx.clock.now() })
        .where(eq(clientSites.id, id)),
  );
  return answer!;
}

/**
 * Deletes a site in the actor's scope; 409 while a scheme covers it. The site's row is locked
 * first: a scheme save covering it meanwhile waits, then finds it gone (422).
 */
export async function removeSite(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const current = await siteInScope(ctx, id, true);
  if (await siteCovered(ctx.tx, current)) throw conflict(MESSAGES.siteInUse);
  await writeSites(
    ctx,
    'delete',
    [{ id, companyId: current.company_id, current, before: toClientSiteDto(current) }],
    () => ctx.tx.delete(clientSites).where(eq(clientSites.id, id)),
  );
  return { success: true, message: MESSAGES.deleted };
}

/** The site service: every write of a client's site. */
export const clientSiteService = { create: createSite, update: updateSite, remove: removeSite } as const;
