/**
 * The stored columns of scheme writes from their inputs (schemes.service.ts), once their references
 * are checked set-wise for all of them: what a form save, an import's chunk and the demo share.
 */
import { addValidity, type SchemeInput } from '@sertifikasi/shared-contracts';
import { invalid, notFound } from '../../lib/errors';
import type { ServiceContext } from '../../services/context';
import { bodyRefs, findClientRefs, type SchemeJoined, type SchemeRow, typeRefs } from './schemes.repository';
import { sectorCodesOf, siteClients, siteIdsOf, sitesOf } from './scheme-register';

/** What a scheme's answer shows of the records it points at (read when its references are checked). */
export type SchemeNames = Omit<SchemeJoined, 'scheme'>;

/**
 * The stored columns of schemes from their inputs, once the references are checked, set-wise for
 * all of them (a form save is a batch of one): the client (404 when absent or outside the actor's
 * scope), `company_id` equal to the client's, the type and the body of the client's company (422).
 * With each, the names its answer shows of them.
 */
export async function columnsFor(ctx: ServiceContext, inputs: readonly SchemeInput[]) {
  const { tx } = ctx;
  const clients = await findClientRefs(
    tx,
    inputs.map((i) => i.certificate_id.toLowerCase()),
    ctx.actor.scope,
  );
  const types = await typeRefs(
    tx,
    inputs.map((i) => i.certification_id.toLowerCase()),
  );
  const bodies = await bodyRefs(
    tx,
    inputs.flatMap((i) =>
      i.is_accredited === 'true' && i.accredited_id ? [i.accredited_id.toLowerCase()] : [],
    ),
  );
  const sites = await siteClients(tx, siteIdsOf(inputs));
  return inputs.map((input) => {
    const client = clients.get(input.certificate_id.toLowerCase());
    if (!client) throw notFound();
    const errors: Record<string, string> = {};
    const covered = sitesOf(input);
    // Only sites of the scheme's own client (docs/rules.md#register-data).
    if (covered.some((s) => sites.get(s.site_id) !== client.id))
      errors.sites = 'Lokasi tidak ditemukan pada klien';
    if (input.company_id && input.company_id.toLowerCase() !== client.company_id)
      errors.company_id = 'Perusahaan harus sama dengan perusahaan klien';
    const type = types.get(input.certification_id.toLowerCase());
    if (type?.company_id !== client.company_id)
      errors.certification_id = 'Sertifikat tidak ditemukan pada perusahaan klien';
    const accredited = input.is_accredited === 'true';
    const accreditedId = accredited && input.accredited_id ? input.accredited_id.toLowerCase() : null;
    const body = accreditedId ? bodies.get(accreditedId) : undefined;
    if (accreditedId && body?.company_id !== client.company_id)
      errors.accredited_id = 'Akreditasi tidak ditemukan pada perusahaan klien';
    if (Object.keys(errors).length) throw invalid(errors);
    const names: SchemeNames = {
      client: { name: client.name, certificate_number: client.certificate_number },
      cert_name: type!.name,
      accredited: body?.name ?? null,
    };
    const values = {
      company_id: client.company_id,
      certificate_id: client.id,
      certification_id: input.certification_id.toLowerCase(),
      // Cleared when the scheme is not accredited, whatever was sent.
      accredited_id: accreditedId,
      is_accredited: accredited,
      cert_number: input.cert_number,
      status: input.status,
      issue_date: input.issue_date,
      original_issue_date: input.original_issue_date ?? null,
      issue_date2: input.issue_date2 ?? null,
      valid_for: input.valid_for,
      valid_for_type: input.valid_for_type,
      valid_date: input.valid_date ?? null,
      // Never taken from the client (docs/rules.md#records).
      expired_date: addValidity(input.issue_date, input.valid_for, input.valid_for_type),
      surveillance_date: input.surveillance_date ?? null,
      decision_date: input.decision_date ?? null,
      description: input.desc ?? null,
      scope: input.scope ?? null,
      sector_codes: sectorCodesOf(input),
      sites: covered,
    } satisfies Partial<SchemeRow>;
    return { values, names };
  });
}
