/**
 * 'Log Notifikasi' (permission `notification-log`): the mail outbox of the companies in the
 * caller's scope, and 'Kirim Ulang' of a failed one (notify/mail.ts, docs/rules.md#notifications);
 * and the reminders' public unsubscribe link (unsubscribe.routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { notificationListQuerySchema, notificationSchema } from '@sertifikasi/shared-contracts';
import { listJsonSchema } from '../../lib/list';
import { idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { kickSenders } from '../../jobs/notify';
import { contextOf } from '../../services/context';
import { listMessages } from './notifications.repository';
import { notificationService } from './notifications.service';
import unsubscribeRoutes from './unsubscribe.routes';

export default async function notificationRoutes(app: FastifyInstance) {
  const tags = ['notifications'];

  // The reminders' unsubscribe link, public, in a context of its own (it reads form bodies).
  await app.register(unsubscribeRoutes);

  defineRoute(app, {
    method: 'GET',
    url: '/api/notification-log',
    summary: 'Emails of the outbox in the caller’s scope, newest first (filters: state, kind, search)',
    tags,
    access: { permission: 'notification-log' },
    query: notificationListQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(notificationSchema)) },
    handler: async (req) => listMessages(app.db, req.query, companyFilter(req, req.query.company_id)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/notification-log/:id/resend',
    summary: 'Kirim Ulang: a failed email back in the queue, its retries afresh; 422 for one queued or sent',
    tags,
    access: { permission: 'notification-log' },
    params: idParams,
    response: { 200: notificationSchema },
    handler: async (req) =>
      app.db.transaction(async (tx) => {
        const answer = await notificationService.resend(contextOf(app, req, tx), req.params.id);
        // Sent as soon as this commits, not at the next minute.
        await kickSenders(app, { tx, webhooks: false });
        return answer;
      }),
  });
}
