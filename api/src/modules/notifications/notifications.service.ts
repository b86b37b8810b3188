/**
 * The mail outbox as 'Log Notifikasi' shows it (docs/rules.md#notifications), and its one write:
 * 'Kirim Ulang', a failed message back in the queue, through the one write sequence
 * (services/write-sequence.ts) like every other write.
 */
import { ALL, type Notification } from '@sertifikasi/shared-contracts';
import { mailOutbox } from '../../db/schema';
import { notFound, refused } from '../../lib/errors';
import { requeue } from '../../notify/retry';
import type { ServiceContext } from '../../services/context';
import { runWriteSequence } from '../../services/write-sequence';
import { findMessage, type MessageRow, toNotification } from './notifications.repository';

/** The audit log's name of outbox messages. */
const ENTITY = 'notification-log';

/** Why 'Kirim Ulang' refuses a message that is not failed (docs/rules.md#notifications). */
export const RESEND_REFUSED = {
  queued: 'Pesan masih dalam antrean pengiriman',
  sent: 'Pesan sudah terkirim dan tidak dikirim ulang: hanya pesan yang gagal yang dapat dikirim ulang',
} as const;

/**
 * Kirim Ulang: a failed message of the actor's scope back in the queue, due now, its tries afresh;
 * answers it. 404 outside the scope; 422 for a message queued (it is being sent) or sent (a
 * delivered reminder is not sent again), also when it became one meanwhile.
 */
async function resend(ctx: ServiceContext, id: string): Promise<Notification> {
  const before = await findMessage(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  if (before.state !== 'failed') throw refused(RESEND_REFUSED[before.state === 'sent' ? 'sent' : 'queued']);
  const [answer] = await runWriteSequence<MessageRow, Notification>(ctx, {
    entity: undefined,
    auditEntity: ENTITY,
    action: 'update',
    writes: [
      { id: before.id, companyId: before.company_id, current: before, before: toNotification(before) },
    ],
    write: async () => {
      // Only while it is still failed: another 'Kirim Ulang' may have queued (and sent) it since.
      if (!(await requeue(ctx.tx, mailOutbox, before.id, ctx.clock.now(), ['failed'])))
        throw refused(RESEND_REFUSED.queued);
    },
    answers: async () => new Map([[before.id, toNotification((await findMessage(ctx.tx, before.id, ALL))!)]]),
  });
  return answer!;
}

export const notificationService = { resend } as const;
