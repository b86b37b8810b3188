import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Db } from '../db';
import { loginFailures, loginThrottleKeys } from '../db/schema';
import { addressKey } from '../lib/address';
import { newId } from '../lib/crypto';

/**
 * Within 15 minutes: more than 10 failures for one username from one address, more than 100 for one
 * username from all addresses together, or more than 50 from one address (docs/rules.md#sign-in).
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_PER_USERNAME_AND_ADDRESS = 10;
export const MAX_PER_USERNAME = 100;
export const MAX_PER_ADDRESS = 50;

/**
 * Failure counters that every API process sees: the database, or Redis when REDIS_URL is set.
 * Checking and counting are one atomic step: an attempt reserves its password check, and the
 * reservation counts as a failure unless the sign-in succeeds. So N concurrent attempts get at most
 * the limit's number of password checks. An address is counted by `addressKey` (lib/address.ts):
 * IPv6 by its /64, an IPv4-mapped address as its IPv4.
 */
export interface LoginThrottle {
  /** Reserves one password check; false (and nothing counted) when a limit is reached. */
  reserve(username: string, ip: string): Promise<boolean>;
  /** A successful sign-in: that username's failures from that address no longer count anywhere. */
  succeeded(username: string, ip: string): Promise<void>;
}

const norm = (username: string) => username.trim().toLowerCase().slice(0, 100);

export function dbLoginThrottle(db: Db): LoginThrottle {
  return {
    async reserve(username, address) {
      const user = norm(username);
      const ip = addressKey(address);
      const now = new Date();
      const since = new Date(now.getTime() - WINDOW_MS);
      const allowed = await db.transaction(async (tx) => {
        // Creates and locks the username's and the address's rows (always in the same order, so two
        // attempts never wait for each other crosswise). A concurrent attempt for the same username
        // or address waits here until this one has counted itself, then sees its failure.
        await tx
          .insert(loginThrottleKeys)
          .values([`a:${ip}`, `u:${user}`].sort().map((key) => ({ key, at: now })))
          .onConflictDoUpdate({ target: loginThrottleKeys.key, set: { at: now } });
        const [n] = await tx
          .select({
            pair: sql<number>`count(*) filter (where ${loginFailures.username} = ${user} and ${loginFailures.ip} = ${ip})`.mapWith(
              Number,
            ),
            user: sql<number>`count(*) filter (where ${loginFailures.username} = ${user})`.mapWith(Number),
            address: sql<number>`count(*) filter (where ${loginFailures.ip} = ${ip})`.mapWith(Number),
          })
          .from(loginFailures)
          .where(
            and(gt(loginFailures.at, since), or(eq(loginFailures.username, user), eq(loginFailures.ip, ip))),
          );
        if (
          (n?.pair ?? 0) >= MAX_PER_USERNAME_AND_ADDRESS ||
          (n?.user ?? 0) >= MAX_PER_USERNAME ||
          (n?.address ?? 0) >= MAX_PER_ADDRESS
        ) {
          return false;
        }
        await tx.insert(loginFailures).values({ id: newId(), username: user, ip, at: now });
        return true;
      });
      if (allowed) {
        await db.delete(loginFailures).where(lt(loginFailures.at, since));
        await db.delete(loginThrottleKeys).where(lt(loginThrottleKeys.at, since));
      }
      return allowed;
    },
    async succeeded(username, address) {
      await db
        .delete(loginFailures)
        .where(and(eq(loginFailures.username, norm(username)), eq(loginFailures.ip, addressKey(address))));
    },
  };
}

/** KEYS: pair, username, address. ARGV: now, since, member, ttl ms, the three limits. */
const RESERVE = `
for i = 1, 3 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[2]) end
for i = 1, 3 do
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[4 + i]) then return 0 end
end
for i = 1, 3 do
  redis.call('ZADD', KEYS[i], ARGV[1], ARGV[3])
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
end
return 1`;

/** KEYS: pair, username, address. The pair's failures leave the other two counts as well. */
const SUCCEEDED = `
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
if #members > 0 then
  redis.call('ZREM', KEYS[2], unpack(members))
  redis.call('ZREM', KEYS[3], unpack(members))
end
redis.call('DEL', KEYS[1])
return #members`;

/** Sliding windows in Redis sorted sets, shared by every API process; each step is one Lua script. */
export function redisLoginThrottle(redis: Redis, prefix = 'sertifikasi:login'): LoginThrottle {
  const keys = (username: string, address: string) => {
    const user = norm(username);
    const ip = addressKey(address);
    return [`${prefix}:p:${ip}|${user}`, `${prefix}:u:${user}`, `${prefix}:ip:${ip}`] as const;
  };
  return {
    async reserve(username, ip) {
      const now = Date.now();
      const result = await redis.eval(
        RESERVE,
        3,
        ...keys(username, ip),
        now,
        now - WINDOW_MS,
        `${now}:${newId()}`,
        WINDOW_MS,
        MAX_PER_USERNAME_AND_ADDRESS,
        MAX_PER_USERNAME,
        MAX_PER_ADDRESS,
      );
      return Number(result) === 1;
    },
    async succeeded(username, ip) {
      await redis.eval(SUCCEEDED, 3, ...keys(username, ip));
    },
  };
}

/**
 * Redis's counters while it answers, the database's otherwise (docs/rules.md#faults-and-overload): sign-in
 * keeps working, and keeps being limited, during a Redis outage. `failed` hears every Redis error
 * (the caller reports them at most once a minute). A successful sign-in clears both stores, so
 * failures counted during an outage do not outlive it.
 */
export function failoverLoginThrottle(
  primary: LoginThrottle,
  fallback: LoginThrottle,
  usable: () => boolean,
  failed: (err: unknown) => void,
): LoginThrottle {
  return {
    async reserve(username, ip) {
      if (usable()) {
        try {
          return await primary.reserve(username, ip);
        } catch (err) {
          failed(err);
        }
      }
      return fallback.reserve(username, ip);
    },
    async succeeded(username, ip) {
      if (usable()) await primary.succeeded(username, ip).catch(failed);
      await fallback.succeeded(username, ip);
    },
  };
}
