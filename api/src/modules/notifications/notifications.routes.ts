/**
 * 'Log Notifikasi' (permission `notification-log`): the mail outbox of the companies in the
 * caller's scope, and 'Kirim Ulang' (notify/mail.ts, docs/rules.md#notifications).
 */
import type { FastifyInstance } from 'fastify';
import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import {
  ALL,
  type CompanyScope,
  type Notification,
  notificationListQuerySchema,
  notificationSchema,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { companies, mailOutbox } from '../../db/schema';
import { notFound, refused } from '../../lib/errors';
import { listJsonSchema, listPage, searchAny } from '../../lib/list';
import { idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { defineNotifyTasks, kickSenders } from '../../jobs/notify';
import { requeue } from '../../notify/retry';
import { audit } from '../../services/audit';
import { contextOf } from '../../services/context';

type Row = typeof mailOutbox.$inferSelect & { company_name: string | null };

const toNotification = (row: Row): Notification => ({
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
const inScope = (scope: CompanyScope): SQL | undefined =>
  scope === ALL ? undefined : sql`${mailOutbox.company_id} = any(${sql.param(scope)}::uuid[])`;

const columns = { ...getTableColumns(mailOutbox), company_name: companies.name };

async function findMessage(db: Executor, id: string, scope: CompanyScope): Promise<Row | undefined> {
  const [row] = await db
    .select(columns)
    .from(mailOutbox)
    .leftJoin(companies, eq(companies.id, mailOutbox.company_id))
    .where(and(eq(mailOutbox.id, id), inScope(scope)));
  return row;
}

export default async function notificationRoutes(app: FastifyInstance) {
  // The senders, the daily reminders and the weekly digest (jobs/notify.ts).
  defineNotifyTasks({ db: app.db, clock: app.clock, config: app.config, jobs: app.jobs, mailer: app.mailer });

  const tags = ['notifications'];

  defineRoute(app, {
    method: 'GET',
    url: '/api/notification-log',
    summary: 'Emails of the outbox in the caller’s scope, newest first (filters: state, kind, search)',
    tags,
    access: { permission: 'notification-log' },
    query: notificationListQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(notificationSchema)) },
    handler: async (req) => {
      const scope = companyFilter(req, req.query.company_id);
      const where = and(
        inScope(scope),
        req.query.state ? eq(mailOutbox.state, req.query.state) : undefined,
        req.query.kind ? eq(mailOutbox.kind, req.query.kind) : undefined,
        searchAny(req.query.search, [mailOutbox.recipient, mailOutbox.subject]),
      );
      return listPage(
        req.query,
        async () => {
          const [row] = await app.db
            .select({ n: sql<number>`count(*)::int` })
            .from(mailOutbox)
            .where(where);
          return row?.n ?? 0;
        },
        async (limit, offset) =>
          (
            await app.db
              .select(columns)
              .from(mailOutbox)
              .leftJoin(companies, eq(companies.id, mailOutbox.company_id))
              .where(where)
              .orderBy(desc(mailOutbox.created_at), desc(mailOutbox.id))
              .limit(limit)
              .offset(offset)
          ).map(toNotification),
      );
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/notification-log/:id/resend',
    summary: 'Kirim Ulang: a sent or failed email back in the queue, its retries afresh',
    tags,
    access: { permission: 'notification-log' },
    params: idParams,
    response: { 200: notificationSchema },
    handler: async (req) =>
      app.db.transaction(async (tx) => {
        const before = await findMessage(tx, req.params.id, req.auth.scope);
        if (!before) throw notFound();
        if (!(await requeue(tx, mailOutbox, before.id, app.clock.now())))
          throw refused('Pesan masih dalam antrean pengiriman');
        const after = (await findMessage(tx, before.id, req.auth.scope))!;
        await audit(contextOf(app, req, tx), {
          action: 'update',
          entity: 'notification-log',
          entityId: before.id,
          companyId: before.company_id,
          before: { state: before.state, attempts: before.attempts },
          after: { state: after.state, attempts: after.attempts },
        });
        // Sent as soon as this commits, not at the next minute.
        await kickSenders(app, { tx, webhooks: false });
        return toNotification(after);
      }),
  });
}
