/**
 * The one place that decides when a QR code is made again (docs/rules.md#signed-certificates): an after-write
 * step (services/after-write.ts), so however a signed field changes (the scheme's own form, the
 * client's name, the certification type's name, the import, the demo) the stored QR follows, in the
 * writer's transaction. A QR encodes the public check URL with `&vc=<kid>.<signature>` over
 * `number|name|standard|issue|expiry` (shared-contracts/credential.ts).
 *
 * - scheme: a stored QR is made again when a signed field changed; none stays none (the staff make
 *   one with 'Generate QR', `refreshQr`);
 * - training certificate: made on create, and again when a signed field changed;
 * - client (its name) and certification type (its name): the stored QRs of their schemes.
 * The QR column is derived: writing it touches neither `updated_at` nor the audit log.
 */
import { and, eq, isNotNull, type SQL } from 'drizzle-orm';
import {
  type SignedFields,
  schemeSignedFields,
  trainingSignedFields,
} from '@sertifikasi/shared-contracts/credential';
import type { Config } from '../config';
import type { Executor } from '../db';
import { certificationTypes, clientCertificates, schemes, trainingCertificates } from '../db/schema';
import type { ServiceContext } from './context';
import type { AfterWriteStep, WriteEvent } from './write-event';
import { type CheckKind, qrPngBase64 } from './qr';
import { activeKey, signedCheckUrl } from './signing';

/** A scheme's signed fields as stored now, joined with its client and certification type. */
const schemeFieldsQuery = (db: Executor) =>
  db
    .select({
      id: schemes.id,
      cert_number: schemes.cert_number,
      name: clientCertificates.name,
      standard: certificationTypes.name,
      issue_date: schemes.issue_date,
      expired_date: schemes.expired_date,
    })
    .from(schemes)
    .innerJoin(clientCertificates, eq(clientCertificates.id, schemes.certificate_id))
    .innerJoin(certificationTypes, eq(certificationTypes.id, schemes.certification_id));

type SchemeFieldsRow = Awaited<ReturnType<ReturnType<typeof schemeFieldsQuery>['execute']>>[number];
const fieldsOfScheme = (r: SchemeFieldsRow): SignedFields =>
  schemeSignedFields({ ...r, cert_number: r.cert_number ?? '' });

/** The signed public check URL of a record, signed with the key that signs now. */
export async function signedUrl(
  db: Executor,
  config: Pick<Config, 'publicBaseUrl'>,
  kind: CheckKind,
  fields: SignedFields,
): Promise<string> {
  return signedCheckUrl(config.publicBaseUrl, kind, await activeKey(db), fields);
}

/** A signed QR (PNG, base64) of a record: the certificate PDF's, made when it is downloaded. */
export async function signedQrPng(
  db: Executor,
  config: Pick<Config, 'publicBaseUrl'>,
  kind: CheckKind,
  fields: SignedFields,
): Promise<string> {
  return qrPngBase64(await signedUrl(db, config, kind, fields));
}

/** The signed fields of a scheme as stored now; null when absent. */
export async function schemeFields(db: Executor, id: string): Promise<SignedFields | null> {
  const [row] = await schemeFieldsQuery(db).where(eq(schemes.id, id)).limit(1);
  return row ? fieldsOfScheme(row) : null;
}

/** A QR made ahead of a write (so the transaction does not wait for the image), with the URL it encodes. */
export interface PreparedQr {
  url: string;
  qrcode: string;
}

/** The signed QR of a scheme as stored now (PNG, base64, and its URL); null when absent. */
export async function prepareSchemeQr(
  db: Executor,
  config: Pick<Config, 'publicBaseUrl'>,
  id: string,
): Promise<PreparedQr | null> {
  const fields = await schemeFields(db, id);
  if (!fields) return null;
  const url = await signedUrl(db, config, 'company', fields);
  return { url, qrcode: await qrPngBase64(url) };
}

/**
 * The QR of a scheme as stored now: `prepared` when it encodes the very URL the scheme signs to now
 * (nothing changed meanwhile), else made here. Null when the scheme is absent.
 */
export async function schemeQr(
  db: Executor,
  config: Pick<Config, 'publicBaseUrl'>,
  id: string,
  prepared?: PreparedQr | null,
): Promise<string | null> {
  const fields = await schemeFields(db, id);
  if (!fields) return null;
  const url = await signedUrl(db, config, 'company', fields);
  return prepared?.url === url ? prepared.qrcode : qrPngBase64(url);
}

/** Makes again the stored QRs of the schemes that `where` selects (those without one stay without). */
async function remakeSchemeQrs(ctx: ServiceContext, where: SQL): Promise<void> {
  const rows = await schemeFieldsQuery(ctx.tx).where(and(where, isNotNull(schemes.qrcode)));
  if (!rows.length) return;
  const key = await activeKey(ctx.tx);
  for (const row of rows) {
    const url = signedCheckUrl(ctx.config.publicBaseUrl, 'company', key, fieldsOfScheme(row));
    await ctx.tx
      .update(schemes)
      .set({ qrcode: await qrPngBase64(url) })
      .where(eq(schemes.id, row.id));
  }
}

const changed = (before: object | null, after: object, keys: readonly string[]) =>
  !before ||
  keys.some((k) => (before as Record<string, unknown>)[k] !== (after as Record<string, unknown>)[k]);

/** The columns of each record a signed field comes from. */
const SCHEME_SIGNED = ['cert_number', 'certificate_id', 'certification_id', 'issue_date', 'expired_date'];
const TRAINING_SIGNED = ['certificate_number', 'name', 'training', 'date'];

/**
 * Whether the step writes the QR of the written record itself (its own row): a scheme with a
 * stored QR whose signed text changed, a training certificate created or with its signed text
 * changed.
 */
function remakesOwnQr(event: WriteEvent): boolean {
  if (event.action === 'delete') return false;
  if (event.entity === 'scheme')
    return !!event.after?.qrcode && !!event.before && changed(event.before, event.after, SCHEME_SIGNED);
  if (event.entity === 'training-certificate')
    return !!event.after && changed(event.before, event.after, TRAINING_SIGNED);
  return false;
}

/** The after-write step: makes again every stored QR whose signed text the write changed. */
async function remakeQrs(ctx: ServiceContext, event: WriteEvent): Promise<void> {
  if (event.action === 'delete') return;
  switch (event.entity) {
    case 'scheme': {
      if (remakesOwnQr(event)) await remakeSchemeQrs(ctx, eq(schemes.id, event.id));
      return;
    }
    case 'training-certificate': {
      const { after } = event;
      if (!after || !remakesOwnQr(event)) return;
      const url = await signedUrl(ctx.tx, ctx.config, 'training', trainingSignedFields(after));
      await ctx.tx
        .update(trainingCertificates)
        .set({ qrcode: await qrPngBase64(url) })
        .where(eq(trainingCertificates.id, event.id));
      return;
    }
    case 'client-certificate':
      if (event.before && event.after && event.before.name !== event.after.name)
        await remakeSchemeQrs(ctx, eq(schemes.certificate_id, event.id));
      return;
    case 'certification-type':
      if (event.before && event.after && event.before.name !== event.after.name)
        await remakeSchemeQrs(ctx, eq(schemes.certification_id, event.id));
      return;
    default:
      return;
  }
}

/**
 * The signed-QR after-write step (AFTER_WRITE_STEPS); it tells the write sequence which writes it
 * rewrites the record of (their answers are read after it, not made from the rows written).
 */
export const signedQrStep: AfterWriteStep = Object.assign(remakeQrs, { rewrites: remakesOwnQr });
