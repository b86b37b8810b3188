/**
 * The unsubscribe link of a reminder (docs/rules.md#notifications, notify/unsubscribe.ts): who it is
 * for, and its one write, turning the client's 'Kirim pengingat ke klien' off through the client
 * record's own service (the write sequence: after-write steps, an audit row), as the system.
 */
import { eq } from 'drizzle-orm';
import {
  ALL,
  type ClientCertificateInput,
  clientCertificateInputSchema,
  isUuid,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { clientCertificates, companies } from '../../db/schema';
import { forbidden } from '../../lib/errors';
import { isUnsubscribeSignature } from '../../notify/unsubscribe';
import type { ServiceContext } from '../../services/context';
import { clientCertificateService } from '../client-certificates/client-certificates.service';

/** The answer to a link that is not (or no longer) one of ours: the same whatever is wrong with it. */
export const LINK_REFUSED = 'Tautan berhenti berlangganan tidak valid atau sudah tidak berlaku';

/** Whom a valid link is about, as its page names them. */
export interface UnsubscribeTarget {
  clientId: string;
  client: string;
  /** The certification body (the client's company). */
  body: string;
  email: string;
  /** 'Kirim pengingat ke klien' as it is now. */
  sendReminders: boolean;
}

/**
 * The client of a link whose signature is right for its id and current email (read with the row
 * locked when `lock`, in a transaction); 403 otherwise, unknown clients included, so a link tells
 * nothing it was not made for.
 */
export async function unsubscribeTarget(
  db: Executor,
  clientId: string,
  signature: string,
  lock = false,
): Promise<UnsubscribeTarget> {
  const id = clientId.toLowerCase();
  const query = db
    .select({
      name: clientCertificates.name,
      email: clientCertificates.email,
      send_reminders: clientCertificates.send_reminders,
      body: companies.name,
    })
    .from(clientCertificates)
    .innerJoin(companies, eq(companies.id, clientCertificates.company_id))
    .where(eq(clientCertificates.id, id));
  const [row] = isUuid(id) ? await (lock ? query.for('update', { of: clientCertificates }) : query) : [];
  if (!row || !(await isUnsubscribeSignature(db, id, row.email, signature))) throw forbidden(LINK_REFUSED);
  return {
    clientId: id,
    client: row.name,
    body: row.body,
    email: row.email!,
    sendReminders: row.send_reminders,
  };
}

/** The fields of a client's input, from the record as the API answers it (its logo kept as it is). */
const INPUT_FIELDS = Object.keys(clientCertificateInputSchema.fields).filter(
  (f) => !['logo', 'logo_file', '_method'].includes(f),
);

/**
 * Follows a link (POST, one click): turns the client's reminders off as the system (`ctx.actor`),
 * through clientCertificateService.update with the record as it is but the switch; nothing is
 * written when they are off already. 403 for a link that is not right.
 */
export async function stopReminders(
  ctx: ServiceContext,
  clientId: string,
  signature: string,
): Promise<UnsubscribeTarget> {
  const target = await unsubscribeTarget(ctx.tx, clientId, signature, true);
  if (!target.sendReminders) return target;
  const record = (await clientCertificateService.find(ctx.tx, target.clientId, ALL))!;
  const input = Object.fromEntries(
    INPUT_FIELDS.map((f) => [f, (record as Record<string, unknown>)[f]]),
  ) as ClientCertificateInput;
  await clientCertificateService.update(ctx, target.clientId, { ...input, send_reminders: 'false' });
  return { ...target, sendReminders: false };
}
