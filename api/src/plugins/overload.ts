import { AsyncLocalStorage } from 'node:async_hooks';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';
import { sharePool } from '../db/pool-share';
import { type AppPool, isAppPool } from '../db/app-pool';
import { type PoolWait, watchPool } from '../db/pool-watch';
import { bearerToken } from './auth';
import { type OverloadSettings, staffReserved } from '../lib/overload-settings';

/**
 * Overload (docs/rules.md#faults-and-overload, docs/architecture.md#overload): judged by what a new request
 * would wait for. Past a limit it is answered at once `503 {code: 'unavailable', message}` with
 * Retry-After, before any other work (no sign-in check, no query), instead of joining a queue it
 * would wait seconds in. The signals, any one sheds:
 * - the database pool (db/pool-watch.ts): a new request would wait longer than
 *   OVERLOAD_MAX_POOL_WAIT_MS for a connection: the oldest waiting acquisition has waited longer,
 *   or every acquisition of the last 100-200 ms did, or the queue is longer than the pool drains in
 *   that time at the pace connections are held now;
 * - the event loop: its mean delay (or, when set, its utilisation) over the last 500 ms sample, and
 *   the heap when a limit is set. Judged only from the first sample taken after the app is ready:
 *   building the app and start-up work hold the event loop, and must not shed the first requests;
 * - when set, a plain cap on requests in flight (OVERLOAD_MAX_IN_FLIGHT; off by default);
 * - for an anonymous request only, the anonymous share of the pool (db/pool-share.ts): anonymous
 *   requests (no bearer token, or a public route that never reads one, or a token whose look-up
 *   failed) may hold at most pool size - OVERLOAD_STAFF_RESERVED_CONNECTIONS connections at once, and
 *   a new one is shed when it would wait longer than OVERLOAD_MAX_POOL_WAIT_MS for a place there. A
 *   request with a bearer token is admitted past that rule, and its token's look-up (one short query)
 *   and, once the token is good, all its queries take connections outside the share, so a flood of
 *   anonymous requests neither sheds nor slows signed-in staff; a made-up token is served as
 *   anonymous after its look-up, and its look-ups are limited per address (plugins/rate-limit.ts).
 *   A shed anonymous request gets its 503 after OVERLOAD_ANONYMOUS_SHED_DELAY_MS, so a flood that
 *   asks again at once cannot keep the event loop answering 503s ahead of signed-in requests.
 * What is admitted cannot wait forever either: the pool's acquire timeout (DB_ACQUIRE_TIMEOUT_MS,
 * db/index.ts) fails a query still waiting for a connection, answered 503 unavailable too
 * (plugins/errors.ts). `/api/metrics` is never shed (monitoring must see the overload);
 * `/api/health` is, like any request: a balancer then sends its traffic elsewhere. The settings are
 * README's OVERLOAD_* variables.
 */
export type ShedReason = 'pool' | 'anonymous' | 'eventLoop' | 'heap' | 'inFlight';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Requests of this process now being served, how many were shed since the start (and why),
     * what a new request would wait for a database connection now (undefined without a pool), and
     * what a new anonymous request would wait for a place in the anonymous share of the pool
     * (undefined when nothing is reserved for signed-in requests).
     */
    load: {
      inFlight: number;
      shed: number;
      shedBy: Record<ShedReason, number>;
      /** Connections kept from anonymous requests. */
      staffReserved: number;
      poolWait(): PoolWait | undefined;
      anonymousWait(): PoolWait | undefined;
    };
  }
}

const exempt = (req: FastifyRequest) => req.url === '/api/metrics' || req.url.startsWith('/api/metrics?');

/**
 * Whether a request may be served as signed in: it carries a bearer token on a route that reads one
 * (any route but a public one without `more`, lib/route.ts). Whether it is, its token's look-up says
 * (plugins/auth.ts sets `req.auth`).
 */
function mayBeSignedIn(req: FastifyRequest): boolean {
  if (!req.headers.authorization) return false;
  const access = req.routeOptions.config?.access;
  if (!access || (access.public === true && !access.more)) return false;
  return bearerToken(req) !== null;
}

/** How a request in flight is served: the anonymous share of the pool holds its connections or not. */
interface Served {
  anonymous: boolean;
}

/** The node-postgres pool behind drizzle; none in an app built only to describe its routes. */
function poolOf(app: FastifyInstance): AppPool | undefined {
  const client: unknown = app.db.$client;
  return isAppPool(client) ? client : undefined;
}

const SAMPLE_MS = 500;
/** monitorEventLoopDelay's resolution (ms), taken off its mean as @fastify/under-pressure did. */
const RESOLUTION_MS = 10;

/**
 * The event loop's mean delay and utilisation, and the heap, sampled every 500 ms from `start()`
 * (the app is ready) on; until the first sample nothing is judged, so the work of start-up, which
 * held the loop before, is never counted.
 */
function eventLoopMonitor(settings: OverloadSettings) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let elu = performance.eventLoopUtilization();
  let timer: NodeJS.Timeout | undefined;
  let sampled = false;
  let lastSample = 0;
  let delayMs = 0;
  let utilisation = 0;
  let heapUsed = 0;
  const sample = () => {
    const now = performance.now();
    // Nothing recorded since the last sample (turns of the loop longer than a sample, or the two
    // timers' order in one turn): how late this sample's own timer came is the delay.
    delayMs = histogram.count
      ? Math.max(0, histogram.mean / 1e6 - RESOLUTION_MS)
      : Math.max(0, now - lastSample - SAMPLE_MS);
    lastSample = now;
    histogram.reset();
    const current = performance.eventLoopUtilization();
    utilisation = performance.eventLoopUtilization(current, elu).utilization;
    elu = current;
    if (settings.maxHeapUsedBytes) heapUsed = process.memoryUsage().heapUsed;
    sampled = true;
  };
  return {
    start() {
      if (timer) return;
      histogram.enable();
      histogram.reset();
      elu = performance.eventLoopUtilization();
      lastSample = performance.now();
      timer = setInterval(sample, SAMPLE_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      histogram.disable();
    },
    /** Why the last sample says to shed, or undefined. */
    overloaded(): 'eventLoop' | 'heap' | undefined {
      if (!sampled) return undefined;
      if (settings.maxEventLoopDelayMs && delayMs > settings.maxEventLoopDelayMs) return 'eventLoop';
      if (settings.maxEventLoopUtilization && utilisation > settings.maxEventLoopUtilization) {
        return 'eventLoop';
      }
      if (settings.maxHeapUsedBytes && heapUsed > settings.maxHeapUsedBytes) return 'heap';
      return undefined;
    },
    snapshot: () => ({ delayMs, utilisation }),
  };
}

/** A warning when shedding starts, then at most one each 10 s while it goes on, with the counts. */
const LOG_EVERY_MS = 10_000;

export default fp(
  async function overload(app: FastifyInstance, settings: OverloadSettings) {
    const pool = poolOf(app);
    const watch = pool ? watchPool(pool) : undefined;
    // Which request a query is made for: the context each request is served in (from its first hook,
    // and again after its body was read, which happens outside it).
    const context = new AsyncLocalStorage<Served>();
    const servedAs = new WeakMap<FastifyRequest, Served>();
    const size = Math.max(1, pool?.options.max ?? 10);
    const reserved = pool ? staffReserved(size, settings.staffReservedConnections) : 0;
    // Over the watch: a wait for a place in the share is not a wait for the pool.
    const share =
      pool && reserved > 0
        ? sharePool(pool, size - reserved, () => context.getStore()?.anonymous === true)
        : undefined;
    const load: FastifyInstance['load'] = {
      inFlight: 0,
      shed: 0,
      shedBy: { pool: 0, anonymous: 0, eventLoop: 0, heap: 0, inFlight: 0 },
      staffReserved: reserved,
      poolWait: () => watch?.now(),
      anonymousWait: () => share?.now(),
    };
    app.decorate('load', load);

    const { maxEventLoopDelayMs, maxEventLoopUtilization, maxHeapUsedBytes } = settings;
    const loop =
      maxEventLoopDelayMs || maxEventLoopUtilization || maxHeapUsedBytes
        ? eventLoopMonitor(settings)
        : undefined;
    app.addHook('onReady', (done) => {
      loop?.start();
      done();
    });
    app.addHook('onClose', (_app, done) => {
      loop?.stop();
      share?.stop();
      watch?.stop();
      done();
    });

    let lastLog = -Infinity;
    let shedSinceLog = 0;
    const shed = (reply: FastifyReply, reason: ShedReason) => {
      load.shed++;
      load.shedBy[reason]++;
      shedSinceLog++;
      const now = performance.now();
      if (now - lastLog >= LOG_EVERY_MS) {
        app.log.warn(
          {
            reason,
            shed: shedSinceLog,
            inFlight: load.inFlight,
            pool: watch?.now(),
            anonymousShare: share?.now(),
            eventLoop: loop?.snapshot(),
          },
          'overloaded: shedding new requests with 503',
        );
        lastLog = now;
        shedSinceLog = 0;
      }
      // Serialised here: the route's own 503 schema (health's) must not reshape it.
      reply
        .status(503)
        .header('retry-after', String(settings.retryAfterSeconds))
        .type('application/json; charset=utf-8');
      return JSON.stringify({ code: ERROR_CODES.unavailable, message: MESSAGES.unavailable });
    };

    const overloaded = (anonymous: boolean): ShedReason | undefined => {
      if (settings.maxInFlight && load.inFlight >= settings.maxInFlight) return 'inFlight';
      const byLoop = loop?.overloaded();
      if (byLoop) return byLoop;
      const limit = settings.maxPoolWaitMs;
      if (limit && watch && watch.now().expectedMs > limit) return 'pool';
      if (anonymous && limit && share && share.now().expectedMs > limit) return 'anonymous';
      return undefined;
    };

    // 'close' comes once the answer is sent or the client has gone, whichever way the request ends.
    const ended = () => load.inFlight--;
    app.addHook('onRequest', (req, reply, done) => {
      if (exempt(req)) return done();
      const served: Served = { anonymous: !mayBeSignedIn(req) };
      const reason = overloaded(served.anonymous);
      if (reason) {
        const answer = shed(reply, reason);
        // An anonymous client that asks again at once would keep the event loop answering 503s,
        // which signed-in requests wait behind: its answer comes after a pause.
        if (!served.anonymous || !settings.anonymousShedDelayMs) return reply.send(answer);
        setTimeout(() => void reply.send(answer), settings.anonymousShedDelayMs);
        return;
      }
      load.inFlight++;
      reply.raw.on('close', ended);
      servedAs.set(req, served);
      context.run(served, done);
    });
    // After the sign-in check (and the body): signed in only if the token's look-up succeeded.
    app.addHook('preValidation', (req, _reply, done) => {
      const served = servedAs.get(req);
      if (!served) return done();
      served.anonymous = !(req as { auth?: unknown }).auth;
      context.run(served, done);
    });
  },
  { name: 'overload' },
);
