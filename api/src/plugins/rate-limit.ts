import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';
import { addressKey } from '../lib/address';
import { AppError } from '../lib/errors';
import { type RedisLink, rateLimitStoreOptions } from './redis';

export interface RateLimitOptions {
  /**
   * Shared counters for every API process while Redis answers (plugins/redis.ts); without Redis, or
   * while it is down, each process counts in its own memory.
   */
  redis: RedisLink;
  /** Failed bearer-token look-ups a second per address (RATE_LIMIT_BAD_TOKEN), counted over 10 s. */
  badTokensPerSecond: number;
}

/** The window the per-second limits (health, failed tokens) are counted over. */
export const PER_SECOND_WINDOW_MS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Failed bearer-token look-ups, limited per address (plugins/auth.ts calls it): a made-up token
     * costs a query each, and must not flood the connections kept for signed-in requests.
     */
    badTokens: {
      /** Before a look-up: refuses with 429 while the caller's address is past its limit. */
      check(req: FastifyRequest, reply: FastifyReply): void;
      /** A look-up that failed: counted; refuses with 429 when it takes the address past the limit. */
      failed(req: FastifyRequest, reply: FastifyReply): Promise<void>;
    };
  }
}

const tooManyRequests = () => new AppError(429, ERROR_CODES.tooManyRequests, MESSAGES.tooManyRequests);
/** Addresses remembered as past the failed-token limit; past this many, the expired ones are dropped. */
const BLOCKED_KEPT = 10_000;

/**
 * Per-address limits (docs/rules.md#faults-and-overload), for the routes that declare one
 * (`rateLimit` of defineRoute: the public checks, the images, sign-in, `/api/health`), and for
 * failed bearer-token look-ups (`app.badTokens`); nothing else is limited. An address is counted by
 * `addressKey` (lib/address.ts): IPv6 by its /64, an IPv4-mapped address as its IPv4. With Redis the
 * counters are shared by every process; a Redis that does not answer hands the counting to the
 * process's memory. A refusal is the API's `429 {code, message}` (plugins/errors.ts) with Retry-After.
 */
export default fp(
  async function rateLimit(app: FastifyInstance, opts: RateLimitOptions) {
    await app.register(fastifyRateLimit, {
      global: false,
      keyGenerator: (req) => addressKey(req.ip),
      ...rateLimitStoreOptions(opts.redis, 'sertifikasi-rl-'),
    });

    const count = app.createRateLimit({
      max: Math.max(1, opts.badTokensPerSecond * (PER_SECOND_WINDOW_MS / 1000)),
      timeWindow: PER_SECOND_WINDOW_MS,
      keyGenerator: (req) => `bad-token:${addressKey(req.ip)}`,
    });
    // Past the limit, this process refuses the address at once until its window ends, without a
    // look-up or a round trip to the counters.
    const blocked = new Map<string, number>();
    const refuse = (reply: FastifyReply, until: number) => {
      reply.header('retry-after', String(Math.max(1, Math.ceil((until - Date.now()) / 1000))));
      return tooManyRequests();
    };
    app.decorate('badTokens', {
      check(req, reply) {
        const key = addressKey(req.ip);
        const until = blocked.get(key);
        if (until === undefined) return;
        if (until > Date.now()) throw refuse(reply, until);
        blocked.delete(key);
      },
      async failed(req, reply) {
        const result = await count(req);
        if (result.isAllowed || !result.isExceeded) return;
        const until = Date.now() + result.ttl;
        if (blocked.size >= BLOCKED_KEPT) {
          const now = Date.now();
          for (const [key, end] of blocked) if (end <= now) blocked.delete(key);
          if (blocked.size >= BLOCKED_KEPT) blocked.clear();
        }
        blocked.set(addressKey(req.ip), until);
        throw refuse(reply, until);
      },
    });
  },
  { name: 'rate-limit' },
);
