/**
 * The mail outbox as 'Log Notifikasi' shows it (docs/rules.md#notifications), and its one write:
 * 'Kirim Ulang', a sent or failed message back in the queue, through the one write sequence
 * (services/write-sequence.ts) like every other write.
 */
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { ALL, type CompanyScope, type Notification } from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { companies, mailOutbox } from '../../db/schema';
import { notFound, refused } from '../../lib/errors';
import { requeue } from '../../notify/retry';
import type { ServiceContext } from '../../services/context';
import { runWriteSequence } from '../../services/write-sequence';

type Row = typeof mailOutbox.$inferSelect & { company_name: string | null };

export const toNotification = (row: Row): Notification => ({
  id: row.id,
  company_id: row.company_id,
  company: row.company_id && row.company_name ? { id: row.company_id, name: row.company_name } : null,
  recipient: row.recipient,
  subject: row.subject,
  kind: row.kind,
  state: row.state as Notification['state'],
  attempts: row.attempts,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at.toISOString(),
  sent_at: row.sent_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

/**
 * Messages of the companies in `scope`; a message about several companies (company null) only
 * for scope ALL.
 */
export const inScope = (scope: CompanyScope): SQL | undefined =>
  scope === ALL ? undefined : sql`${mailOutbox.company_id} = any(${sql.param(scope)}::uuid[])`;

export const columns = { ...getTableColumns(mailOutbox), company_name: companies.name };

async function findMessage(db: Executor, id: string, scope: CompanyScope): Promise<Row | undefined> {
  const [row] = await db
    .select(columns)
    .from(mailOutbox)
    .leftJoin(companies, eq(companies.id, mailOutbox.company_id))
    .where(and(eq(mailOutbox.id, id), inScope(scope)));
  return row;
}

/** The audit log's name of outbox messages. */
const ENTITY = 'notification-log';

/**
 * Kirim Ulang: a sent or failed message of the actor's scope back in the queue, due now, its tries
 * afresh; answers it. 404 outside the scope, 422 while it is still queued.
 */
async function resend(ctx: ServiceContext, id: string): Promise<Notification> {
  const before = await findMessage(ctx.tx, id, ctx.actor.scope);
  if (!before) throw notFound();
  const [answer] = await runWriteSequence<Row, Notification>(ctx, {
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
