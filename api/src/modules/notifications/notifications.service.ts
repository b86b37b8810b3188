/**
 * The mail outbox as 'Log Notifikasi' shows it (docs/rules.md#notifications), and its one write:
 * 'Kirim Ulang', a sent or failed message back in the queue, through the one write sequence
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

/**
 * Kirim Ulang: a sent or failed message of the actor's scope back in the queue, due now, its tries
 * afresh; answers it. 404 outside the scope, 422 while it is still queued.
 */
async function resend(ctx: ServiceContext, id: string): Promise<Notification> {
  const before = await findMessage(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  const [answer] = await runWriteSequence<MessageRow, Notification>(ctx, {
    entity: undefined,
    auditEntity: ENTITY,
    action: 'update',
    writes: [
      { id: before.id, companyId: before.company_id, current: before, before: toNotification(before) },
    ],
    write: async () => {
      if (!(await requeue(ctx.tx, mailOutbox, before.id, ctx.clock.now())))
        throw refused('Pesan masih dalam antrean pengiriman');
    },
    answers: async () => new Map([[before.id, toNotification((await findMessage(ctx.tx, before.id, ALL))!)]]),
  });
  return answer!;
}

export const notificationService = { resend } as const;
