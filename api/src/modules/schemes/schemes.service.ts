/**
 * The writes of schemes (docs/rules.md#entities, #validation, #calls, #permissions, #records, #data and #status), each one
 * function of a service context (services/context.ts) and its input, usable without HTTP:
 * - the client (404 when absent or outside the actor's scope: it is the record a scheme is written
 *   under), `company_id` equal to the client's, the certification type and the accreditation body
 *   of the client's company (422);
 * - `expired_date` computed from the issue date and the validity (`addValidity`), never taken from
 *   the input; `cert_number` unique across all companies (schemes_cert_number_uq answers);
 * - the QR carries the signed public check URL: made on demand (`refreshQr`); a stored one is made
 *   again when a signed field changes, none stays none (the after-write step services/signed-qr.ts
 *   decides that, for every way a signed field can change);
 * - every write handed to the after-write steps with the stored rows, then audited with the scheme
 *   as the API answers it after them (the status history is derived from those rows:
 *   services/scheme-history.ts), in the caller's transaction.
 */
import { eq } from 'drizzle-orm';
import type * as yup from 'yup';
import {
  addValidity,
  type DeleteResponse,
  MESSAGES,
  type Scheme,
  type SchemeInput,
  schemeInputSchema,
  type SchemeStatus,
} from '@sertifikasi/shared-contracts';
import { schemes } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { invalid, notFound } from '../../lib/errors';
import { afterWrite } from '../../services/after-write';
import { audit } from '../../services/audit';
import type { ServiceContext } from '../../services/context';
import { SCHEME_AUDIT_ENTITY } from '../../services/scheme-history';
import { type PreparedQr, schemeQr } from '../../services/signed-qr';
import {
  bodyBelongs,
  findClientRef,
  findScheme,
  findSchemeRow,
  type SchemeRow,
  typeBelongs,
} from './schemes.repository';

/**
 * The stored columns of a scheme from its input, once the references are checked: the client
 * (404 when absent or outside the actor's scope), `company_id` equal to the client's, the type and
 * the body of the client's company (422).
 */
async function columnsFor(ctx: ServiceContext, input: SchemeInput) {
  const { tx } = ctx;
  const client = await findClientRef(tx, input.certificate_id.toLowerCase(), ctx.actor.scope);
  if (!client) throw notFound();
  const errors: Record<string, string> = {};
  if (input.company_id && input.company_id.toLowerCase() !== client.company_id)
    errors.company_id = 'Perusahaan harus sama dengan perusahaan klien';
  if (!(await typeBelongs(tx, input.certification_id.toLowerCase(), client.company_id)))
    errors.certification_id = 'Sertifikat tidak ditemukan pada perusahaan klien';
  const accredited = input.is_accredited === 'true';
  const accreditedId = accredited && input.accredited_id ? input.accredited_id.toLowerCase() : null;
  if (accreditedId && !(await bodyBelongs(tx, accreditedId, client.company_id)))
    errors.accredited_id = 'Akreditasi tidak ditemukan pada perusahaan klien';
  if (Object.keys(errors).length) throw invalid(errors);
  return {
    company_id: client.company_id,
    certificate_id: client.id,
    certification_id: input.certification_id.toLowerCase(),
    // Cleared when the scheme is not accredited, whatever was sent.
    accredited_id: accreditedId,
    is_accredited: accredited,
    cert_number: input.cert_number,
    status: input.status,
    issue_date: input.issue_date,
    issue_date2: input.issue_date2 ?? null,
    valid_for: input.valid_for,
    valid_for_type: input.valid_for_type,
    valid_date: input.valid_date ?? null,
    // Never taken from the client (docs/rules.md#records).
    expired_date: addValidity(input.issue_date, input.valid_for, input.valid_for_type),
    surveillance_date: input.surveillance_date ?? null,
    description: input.desc ?? null,
  } satisfies Partial<SchemeRow>;
}

/** The stored row of a scheme in the actor's scope; 404 when absent or outside it. */
async function rowInScope(ctx: ServiceContext, id: string): Promise<SchemeRow> {
  const row = await findSchemeRow(ctx.tx, id, ctx.actor.scope);
  if (!row) throw notFound();
  return row;
}

/** A scheme just written, as stored (scope ALL: the write checked it). */
const storedRow = async (ctx: ServiceContext, id: string): Promise<SchemeRow> =>
  (await findSchemeRow(ctx.tx, id, 'ALL'))!;
/** A scheme as the API answers it, after the after-write steps (they may make its QR again). */
const answerOf = async (ctx: ServiceContext, id: string): Promise<Scheme> =>
  (await findScheme(ctx.tx, id, 'ALL', ctx.clock.today()))!;

/** Stores `values` on the scheme, runs the after-write steps and audits the change; answers it. */
async function write(
  ctx: ServiceContext,
  current: SchemeRow,
  values: Partial<typeof schemes.$inferInsert>,
): Promise<Scheme> {
  const { id } = current;
  const before = await findScheme(ctx.tx, id, 'ALL', ctx.clock.today());
  await ctx.tx
    .update(schemes)
    .set({ ...values, updated_at: ctx.clock.now() })
    .where(eq(schemes.id, id));
  const row = await storedRow(ctx, id);
  await afterWrite(ctx, { entity: 'scheme', action: 'update', id, before: current, after: row });
  const answer = await answerOf(ctx, id);
  await audit(ctx, {
    action: 'update',
    entity: SCHEME_AUDIT_ENTITY,
    entityId: id,
    companyId: row.company_id,
    before,
    after: answer,
  });
  return answer;
}

/** Adds a scheme to a client in the actor's scope; answers it. Stored without a QR. */
export async function create(ctx: ServiceContext, input: SchemeInput): Promise<Scheme> {
  const columns = await columnsFor(ctx, input);
  const id = newId();
  const now = ctx.clock.now();
  await ctx.tx.insert(schemes).values({ id, ...columns, qrcode: null, created_at: now, updated_at: now });
  await afterWrite(ctx, {
    entity: 'scheme',
    action: 'create',
    id,
    before: null,
    after: await storedRow(ctx, id),
  });
  const answer = await answerOf(ctx, id);
  await audit(ctx, {
    action: 'create',
    entity: SCHEME_AUDIT_ENTITY,
    entityId: id,
    companyId: columns.company_id,
    after: answer,
  });
  return answer;
}

/** Updates a scheme in the actor's scope (its stored QR follows: services/signed-qr.ts); answers it. */
export async function update(ctx: ServiceContext, id: string, input: SchemeInput): Promise<Scheme> {
  const current = await rowInScope(ctx, id);
  const columns = await columnsFor(ctx, input);
  return write(ctx, current, columns);
}

/**
 * Sets the stored status of a scheme in the actor's scope (422 for a status outside the
 * vocabulary); answers it. The status history gains an entry effective today. Setting the status
 * it already has writes nothing (no audit row, no history entry).
 */
export async function changeStatus(ctx: ServiceContext, id: string, status: SchemeStatus): Promise<Scheme> {
  let valid: SchemeStatus;
  try {
    // The status rule of the form, not a copy of it.
    valid = schemeInputSchema.pick(['status']).validateSync({ status }).status;
  } catch (e) {
    throw invalid({ status: (e as yup.ValidationError).message });
  }
  const current = await rowInScope(ctx, id);
  if (current.status === valid) return (await findScheme(ctx.tx, id, 'ALL', ctx.clock.today()))!;
  return write(ctx, current, { status: valid });
}

/**
 * Makes and stores the signed QR of a scheme in the actor's scope; answers it. `prepared` is a QR
 * made before the transaction (services/signed-qr.ts `prepareSchemeQr`, so the transaction does not
 * wait for the image), used when it still encodes what the scheme signs to.
 */
export async function refreshQr(
  ctx: ServiceContext,
  id: string,
  prepared?: PreparedQr | null,
): Promise<Scheme> {
  const current = await rowInScope(ctx, id);
  const qrcode = await schemeQr(ctx.tx, ctx.config, id, prepared);
  return write(ctx, current, { qrcode });
}

/** Deletes a scheme in the actor's scope (nothing refers to a scheme; its audit trail stays). */
export async function remove(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const current = await rowInScope(ctx, id);
  const before = await findScheme(ctx.tx, id, 'ALL', ctx.clock.today());
  await ctx.tx.delete(schemes).where(eq(schemes.id, id));
  await audit(ctx, {
    action: 'delete',
    entity: SCHEME_AUDIT_ENTITY,
    entityId: id,
    companyId: current.company_id,
    before,
  });
  await afterWrite(ctx, { entity: 'scheme', action: 'delete', id, before: current, after: null });
  return { success: true, message: MESSAGES.deleted };
}

/** The scheme service: every write of a scheme. */
export const schemeService = { create, update, changeStatus, refreshQr, remove } as const;
