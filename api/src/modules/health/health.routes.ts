import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import * as yup from 'yup';
import { defineRoute } from '../../lib/route';

export default async function healthRoutes(app: FastifyInstance) {
  const health = yup.object({ status: yup.string().defined(), database: yup.string().defined() });
  defineRoute(app, {
    method: 'GET',
    url: '/api/health',
    summary: 'Whether the API and its database answer',
    tags: ['operations'],
    access: { public: true },
    response: { 200: health, 503: health },
    handler: async (_req, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok', database: 'up' };
      } catch {
        return reply.status(503).send({ status: 'error', database: 'down' });
      }
    },
  });
}
