import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';

/**
 * `GET /api/metrics` (docs/rules.md#faults-and-overload): with METRICS_TOKEN set, Prometheus text for that
 * bearer token; unset, the route does not exist (404). Requests are counted by route pattern
 * (`/api/company/:id`, never a raw id), method and status, with their latency; the database pool's
 * use, requests in flight and shed, and Node's own (event loop delay, memory, ...) from
 * prom-client's default collectors. Every counter lives in this app's registry, not in a module
 * global: two apps in one process (tests) count apart.
 */

export interface MetricsOptions {
  /** METRICS_TOKEN: unset, the route does not exist. */
  token: string | undefined;
  /** When the scheduled backup last succeeded (modules/backup/backup.job.ts), or null. */
  lastBackupSuccess: () => Promise<Date | null>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The route pattern of a request: what it matched, or 'unmatched' (never the raw URL). */
const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? 'unmatched';

export default fp(
  async function metrics(app: FastifyInstance, opts: MetricsOptions) {
    const register = new Registry();
    collectDefaultMetrics({ register });
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [register],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by route pattern and method',
      labelNames: ['route', 'method'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [register],
    });
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting requests, max)',
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        const pool = app.db.$client;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
        this.set({ state: 'max' }, pool.options.max ?? 0);
      },
    });
    new Gauge({
      name: 'http_requests_in_flight',
      help: 'Requests being served by this process',
      registers: [register],
      collect() {
        this.set(app.hasDecorator('load') ? app.load.inFlight : 0);
      },
    });
    new Gauge({
      name: 'http_requests_shed_total',
      help: 'Requests answered 503 because the process was overloaded, since it started',
      registers: [register],
      collect() {
        this.set(app.hasDecorator('load') ? app.load.shed : 0);
      },
    });
    new Gauge({
      name: 'db_pool_wait_seconds',
      help: 'What a new request would wait for a PostgreSQL pool connection now, as overload judges it (OVERLOAD_MAX_POOL_WAIT_MS)',
      registers: [register],
      collect() {
        this.set((app.hasDecorator('load') ? (app.load.poolWait()?.expectedMs ?? 0) : 0) / 1000);
      },
    });

    new Gauge({
      name: 'backup_last_success_timestamp_seconds',
      help: 'When the scheduled backup last succeeded (Unix time, any process of the cluster); 0: never',
      registers: [register],
      async collect() {
        const at = await opts.lastBackupSuccess().catch(() => null);
        this.set(at ? at.getTime() / 1000 : 0);
      },
    });

    app.addHook('onResponse', (req, reply, done) => {
      const route = routeOf(req);
      requests.inc({ route, method: req.method, status: String(reply.statusCode) });
      duration.observe({ route, method: req.method }, reply.elapsedTime / 1000);
      done();
    });

    const { token } = opts;
    if (!token) return;
    const expected = digest(`Bearer ${token}`);
    app.route({
      method: 'GET',
      url: '/api/metrics',
      config: { access: { public: true } },
      schema: { hide: true },
      handler: async (req, reply) => {
        const given = digest(req.headers.authorization ?? '');
        if (!timingSafeEqual(given, expected)) {
          return reply
            .status(401)
            .send({ code: ERROR_CODES.unauthenticated, message: MESSAGES.unauthenticated });
        }
        return reply.header('content-type', register.contentType).send(await register.metrics());
      },
    });
  },
  { name: 'metrics' },
);
