/**
 * 'Webhook' (permission `webhook`): a company's endpoints, their deliveries with every try, 'Kirim
 * Tes' and 'Kirim Ulang' (both queue the delivery and answer it at once, 202; the sender job tries
 * it within seconds, and a failed try is retried later with the usual backoff; each limited per
 * user, WEBHOOK_SEND_RATE_LIMIT a minute, 429 beyond). Scope as everywhere: a company outside it
 * 403, a record outside it 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  companyListQuerySchema,
  listQuerySchema,
  webhookCreatedSchema,
  webhookDeliverySchema,
  webhookInputSchema,
  webhookSchema,
} from '@sertifikasi/shared-contracts';
import { notFound } from '../../lib/errors';
import { listJsonSchema } from '../../lib/list';
import { deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { companyFilter } from '../../plugins/auth';
import { contextOf } from '../../services/context';
import {
  createWebhook,
  findDelivery,
  findWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  resendDelivery,
  sendTest,
  updateWebhook,
} from './webhooks.service';

export default async function webhookRoutes(app: FastifyInstance) {
  const tags = ['webhooks'];
  const access = { permission: 'webhook' } as const;

  /**
   * 'Kirim Tes' and 'Kirim Ulang' reach out of the server at a user's asking: each a few times
   * a minute per signed-in user (docs/rules.md#notifications), so neither is a probe of other hosts.
   */
  const sendLimit = {
    max: app.config.webhookSendRateLimit,
    timeWindow: 60_000,
    // After the sign-in check, so the count is the user's.
    hook: 'preHandler' as const,
    keyGenerator: (req: FastifyRequest) => `webhook-send:${req.auth?.user.id ?? req.ip}`,
  };

  defineRoute(app, {
    method: 'GET',
    url: '/api/webhook',
    summary: 'Webhooks of the companies in the caller’s scope',
    tags,
    access,
    query: companyListQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(webhookSchema)) },
    handler: async (req) => listWebhooks(app.db, req.query, companyFilter(req, req.query.company_id)),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/webhook',
    summary: 'Add a webhook; the answer holds its signing secret, shown this once',
    tags,
    access,
    body: webhookInputSchema,
    response: { 201: webhookCreatedSchema },
    handler: async (req, reply) => {
      const created = await app.db.transaction((tx) => createWebhook(contextOf(app, req, tx), req.body));
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: 'PUT',
    url: '/api/webhook/:id',
    summary: 'Change a webhook (its company and secret stay)',
    tags,
    access,
    params: idParams,
    body: webhookInputSchema,
    response: { 200: webhookSchema },
    handler: async (req) =>
      app.db.transaction((tx) => updateWebhook(contextOf(app, req, tx), req.params.id, req.body)),
  });

  defineRoute(app, {
    method: 'DELETE',
    url: '/api/webhook/:id',
    summary: 'Delete a webhook with its deliveries',
    tags,
    access,
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => app.db.transaction((tx) => removeWebhook(contextOf(app, req, tx), req.params.id)),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/webhook/:id/deliveries',
    summary: 'A webhook’s deliveries, newest first, each with its tries',
    tags,
    access,
    params: idParams,
    query: listQuerySchema,
    response: { 200: listJsonSchema(toJsonSchema(webhookDeliverySchema)) },
    handler: async (req) => {
      const webhook = await findWebhook(app.db, req.params.id, req.auth.scope);
      if (!webhook) throw notFound();
      return listDeliveries(app.db, webhook.id, req.query);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/webhook-delivery/:id',
    summary: 'One delivery with its tries (the screen follows a Kirim Tes or Kirim Ulang by it)',
    tags,
    access,
    params: idParams,
    response: { 200: webhookDeliverySchema },
    handler: async (req) => {
      const delivery = await findDelivery(app.db, req.params.id, req.auth.scope);
      if (!delivery) throw notFound();
      return delivery;
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/webhook/:id/test',
    summary: 'Kirim Tes: a `webhook.test` delivery, queued; the sender tries it within seconds',
    rateLimit: sendLimit,
    tags,
    access,
    params: idParams,
    response: { 202: webhookDeliverySchema },
    handler: async (req, reply) => {
      const queued = await app.db.transaction((tx) => sendTest(contextOf(app, req, tx), req.params.id));
      return reply.status(202).send(queued);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/webhook-delivery/:id/resend',
    summary:
      'Kirim Ulang: a sent or failed delivery back in the queue, its retries afresh; 422 for one queued',
    rateLimit: sendLimit,
    tags,
    access,
    params: idParams,
    response: { 202: webhookDeliverySchema },
    handler: async (req, reply) => {
      const queued = await app.db.transaction((tx) => resendDelivery(contextOf(app, req, tx), req.params.id));
      return reply.status(202).send(queued);
    },
  });
}
