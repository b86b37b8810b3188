import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../db';
import { loginFailures } from '../db/schema';
import { newId } from '../lib/crypto';

/** More than 10 failures for one username, or 50 from one address, within 15 minutes (DECISIONS.md section 2). */
export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_PER_USERNAME = 10;
export const MAX_PER_ADDRESS = 50;

/** Failure counters that every API process sees: the database, or Redis when REDIS_URL is set. */
export interface LoginThrottle {
  isBlocked(username: string, ip: string): Promise<boolean>;
  recordFailure(username: string, ip: string): Promise<void>;
}

const norm = (username: string) => username.trim().toLowerCase().slice(0, 100);

export function dbLoginThrottle(db: Db): LoginThrottle {
  return {
    async isBlocked(username, ip) {
      const since = new Date(Date.now() - WINDOW_MS);
      const [byUser] = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.username, norm(username)), gt(loginFailures.at, since)));
      if ((byUser?.n ?? 0) >= MAX_PER_USERNAME) return true;
      const [byIp] = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, since)));
      return (byIp?.n ?? 0) >= MAX_PER_ADDRESS;
    },
    async recordFailure(username, ip) {
      const now = new Date();
      await db.insert(loginFailures).values({ id: newId(), username: norm(username), ip, at: now });
      await db.delete(loginFailures).where(lt(loginFailures.at, new Date(now.getTime() - WINDOW_MS)));
    },
  };
}

/** Sliding windows in Redis sorted sets, shared by every API process. */
export function redisLoginThrottle(redis: Redis, prefix = 'sertifikasi:login'): LoginThrottle {
  const keys = (username: string, ip: string) =>
    [`${prefix}:u:${norm(username)}`, `${prefix}:ip:${ip}`] as const;
  return {
    async isBlocked(username, ip) {
      const [u, a] = keys(username, ip);
      const since = Date.now() - WINDOW_MS;
      const result = await redis
        .multi()
        .zremrangebyscore(u, 0, since)
        .zcard(u)
        .zremrangebyscore(a, 0, since)
        .zcard(a)
        .exec();
      const n = (i: number) => Number(result?.[i]?.[1] ?? 0);
      return n(1) >= MAX_PER_USERNAME || n(3) >= MAX_PER_ADDRESS;
    },
    async recordFailure(username, ip) {
      const [u, a] = keys(username, ip);
      const now = Date.now();
      const member = `${now}:${newId()}`;
      const ttl = Math.ceil(WINDOW_MS / 1000);
      await redis.multi().zadd(u, now, member).expire(u, ttl).zadd(a, now, member).expire(a, ttl).exec();
    },
  };
}
