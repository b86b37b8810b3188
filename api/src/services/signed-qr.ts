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
import { and, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
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

/** QR images made at once: the PNGs are compressed off the event loop, a few side by side. */
const QR_CONCURRENCY = 4;

/** The QR images (PNG, base64) of `urls`, a few at a time, in order. */
async function qrImages(urls: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < urls.length; i += QR_CONCURRENCY)
    out.push(...(await Promise.all(urls.slice(i, i + QR_CONCURRENCY).map((url) => qrPngBase64(url)))));
  return out;
}

/**
 * The QRs of schemes as stored now, by id (the absent ones left out), the signed fields read with
 * one query and the key once: for each, its `prepared` QR when that encodes the very URL the scheme
 * signs to now (nothing changed meanwhile), else one made here.
 */
export async function schemeQrs(
  db: Executor,
  config: Pick<Config, 'publicBaseUrl'>,
  items: readonly { id: string; prepared?: PreparedQr | null }[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!items.length) return out;
  const rows = await schemeFieldsQuery(db).where(
    inArray(
      schemes.id,
      items.map((i) => i.id),
    ),
  );
  const key = await activeKey(db);
  const urls = new Map(
    rows.map((r) => [r.id, signedCheckUrl(config.publicBaseUrl, 'company', key, fieldsOfScheme(r))]),
  );
  const todo = items.filter((i) => urls.has(i.id) && i.prepared?.url !== urls.get(i.id));
  const made = await qrImages(todo.map((i) => urls.get(i.id)!));
  todo.forEach((i, n) => out.set(i.id, made[n]!));
  for (const i of items) if (urls.has(i.id) && !out.has(i.id)) out.set(i.id, i.prepared!.qrcode);
  return out;
}

/** The QR of one scheme as stored now (`schemeQrs`); null when the scheme is absent. */
export async function schemeQr(
  db: Executor,
  config: Pick<Config, 'publicBaseUrl'>,
  id: string,
  prepared?: PreparedQr | null,
): Promise<string | null> {
  return (await schemeQrs(db, config, [{ id, prepared }])).get(id) ?? null;
}

/** Makes again the stored QRs of the schemes that `where` selects (those without one stay without). */
async function remakeSchemeQrs(ctx: ServiceContext, where: SQL): Promise<void> {
  const rows = await schemeFieldsQuery(ctx.tx).where(and(where, isNotNull(schemes.qrcode)));
  if (!rows.length) return;
  const key = await activeKey(ctx.tx);
  const images = await qrImages(
    rows.map((row) => signedCheckUrl(ctx.config.publicBaseUrl, 'company', key, fieldsOfScheme(row))),
  );
  await storeQrs(
    ctx.tx,
    schemes,
    rows.map((row, i) => ({ id: row.id, qrcode: images[i]! })),
  );
}

/** Stores QR images on rows of `table`, one statement for all of them. */
async function storeQrs(
  tx: Executor,
  table: typeof schemes | typeof trainingCertificates,
  rows: readonly { id: string; qrcode: string }[],
): Promise<void> {
  if (!rows.length) return;
  const json = JSON.stringify(rows);
  await tx.execute(sql`
    update ${table} set qrcode = q.qrcode
    from json_to_recordset(${json}::json) as q(id uuid, qrcode text)
    where ${table.id} = q.id`);
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

/**
 * The after-write step, for the writes of a batch: makes again every stored QR whose signed text a
 * write changed (one query per kind of record, the key read once, one update per table). The
 * step of one write is this with one write.
 */
async function remakeQrsMany(ctx: ServiceContext, events: readonly WriteEvent[]): Promise<void> {
  const schemeIds: string[] = [];
  const clientIds: string[] = [];
  const typeIds: string[] = [];
  const trainings: (typeof trainingCertificates.$inferSelect)[] = [];
  for (const event of events) {
    if (event.action === 'delete') continue;
    switch (event.entity) {
      case 'scheme':
        if (remakesOwnQr(event)) schemeIds.push(event.id);
        break;
      case 'training-certificate':
        if (event.after && remakesOwnQr(event)) trainings.push(event.after);
        break;
      case 'client-certificate':
        if (event.before && event.after && event.before.name !== event.after.name) clientIds.push(event.id);
        break;
      case 'certification-type':
        if (event.before && event.after && event.before.name !== event.after.name) typeIds.push(event.id);
        break;
      default:
        break;
    }
  }
  if (schemeIds.length) await remakeSchemeQrs(ctx, inArray(schemes.id, schemeIds));
  if (clientIds.length) await remakeSchemeQrs(ctx, inArray(schemes.certificate_id, clientIds));
  if (typeIds.length) await remakeSchemeQrs(ctx, inArray(schemes.certification_id, typeIds));
  if (trainings.length) {
    const key = await activeKey(ctx.tx);
    const images = await qrImages(
      trainings.map((t) =>
        signedCheckUrl(ctx.config.publicBaseUrl, 'training', key, trainingSignedFields(t)),
      ),
    );
    await storeQrs(
      ctx.tx,
      trainingCertificates,
      trainings.map((t, i) => ({ id: t.id, qrcode: images[i]! })),
    );
  }
}

/**
 * The signed-QR after-write step (AFTER_WRITE_STEPS), one write or a batch's; it tells the write
 * sequence which writes it rewrites the record of (their answers are read after it, not made from
 * the rows written).
 */
export const signedQrStep: AfterWriteStep = Object.assign(
  (ctx: ServiceContext, event: WriteEvent) => remakeQrsMany(ctx, [event]),
  { batch: remakeQrsMany, rewrites: remakesOwnQr },
);
