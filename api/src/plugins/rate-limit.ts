import type { FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

export interface RateLimitOptions {
  /** Shared counters for every API process; without it each process counts in its own memory. */
  redis?: Redis | undefined;
}

/**
 * Per-address limits, for the routes that declare one (`rateLimit` of defineRoute: the public
 * checks, the images, sign-in); nothing is limited by default. With Redis the counters are shared by
 * every process, and a Redis that does not answer lets requests through rather than refusing them.
 * A refusal is the API's `429 {code, message}` (plugins/errors.ts).
 */
export default fp(
  async function rateLimit(app: FastifyInstance, opts: RateLimitOptions) {
    await app.register(fastifyRateLimit, {
      global: false,
      ...(opts.redis ? { redis: opts.redis, skipOnError: true } : {}),
      nameSpace: 'sertifikasi-rl-',
    });
  },
  { name: 'rate-limit' },
);
