import type { FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { type RedisLink, rateLimitStoreOptions } from './redis';

export interface RateLimitOptions {
  /**
   * Shared counters for every API process while Redis answers (plugins/redis.ts); without Redis, or
   * while it is down, each process counts in its own memory.
   */
  redis: RedisLink;
}

/**
 * Per-address limits, for the routes that declare one (`rateLimit` of defineRoute: the public
 * checks, the images, sign-in); nothing is limited by default. With Redis the counters are shared by
 * every process; a Redis that does not answer hands the counting to the process's memory.
 * A refusal is the API's `429 {code, message}` (plugins/errors.ts).
 */
export default fp(
  async function rateLimit(app: FastifyInstance, opts: RateLimitOptions) {
    await app.register(fastifyRateLimit, {
      global: false,
      ...rateLimitStoreOptions(opts.redis, 'sertifikasi-rl-'),
    });
  },
  { name: 'rate-limit' },
);
