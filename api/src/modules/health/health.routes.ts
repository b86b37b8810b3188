import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import * as yup from 'yup';
import { defineRoute } from '../../lib/route';
import { PER_SECOND_WINDOW_MS } from '../../plugins/rate-limit';

/**
 * `/api/health` for load balancers and people: 200 while the database answers (Redis being down
 * does not make the API unusable: sign-in and limits fall back to the database), 503 otherwise.
 * `redis` is present only when REDIS_URL is set. Limited per address (RATE_LIMIT_HEALTH a second,
 * well above what a balancer or a start script polls): a flood of it is answered 429 without a query
 * (docs/rules.md#faults-and-overload).
 */
export default async function healthRoutes(app: FastifyInstance) {
  const health = yup.object({
    status: yup.string().defined(),
    database: yup.string().defined(),
    redis: yup.string().optional(),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/api/health',
    summary: 'Whether the API, its database and Redis (when configured) answer',
    tags: ['operations'],
    access: { public: true },
    rateLimit: {
      max: app.config.healthRateLimit * (PER_SECOND_WINDOW_MS / 1000),
      timeWindow: PER_SECOND_WINDOW_MS,
    },
    response: { 200: health, 503: health },
    handler: async (_req, reply) => {
      const redis = app.redis.state();
      const extra = redis ? { redis } : {};
      try {
        await app.db.execute(sql`select 1`);
        return { status: redis === 'down' ? 'degraded' : 'ok', database: 'up', ...extra };
      } catch {
        return reply
          .header('retry-after', '5')
          .status(503)
          .send({ status: 'error', database: 'down', ...extra });
      }
    },
  });
}
