import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';

/**
 * Overload (DECISIONS.md section 13): a saturated process answers new requests `503 {code:
 * 'unavailable', message}` with Retry-After at once, instead of letting them wait for seconds.
 * Two signals, either one sheds:
 * - @fastify/under-pressure: the event loop lagging (CPU-bound work, PGlite's queries run on it)
 *   or, when set, the heap or resident memory past a limit;
 * - requests in flight past a limit: most requests wait on the database pool rather than on the
 *   CPU, which the event loop does not show; a queue longer than the limit means seconds of wait.
 * `/api/metrics` is never shed (monitoring must see the overload). The settings are README's
 * OVERLOAD_* variables.
 */
export interface OverloadSettings {
  /** Mean event loop delay (ms) past which requests are shed; 0: not checked. */
  maxEventLoopDelayMs: number;
  /** Event loop utilisation (0..1) past which requests are shed; 0: not checked. */
  maxEventLoopUtilization: number;
  /** Heap in use (bytes) past which requests are shed; 0: not checked. */
  maxHeapUsedBytes: number;
  /** Requests in flight in this process past which new ones are shed; 0: no limit. */
  maxInFlight: number;
  /** The Retry-After of a shed request (seconds). */
  retryAfterSeconds: number;
}

function number(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of 0 or more, got "${value}"`);
  return n;
}

/** Reads the OVERLOAD_* settings. Tests run with the event loop checks off unless they set them. */
export function overloadSettings(env: NodeJS.ProcessEnv): OverloadSettings {
  const isTest = env.NODE_ENV === 'test';
  return {
    maxEventLoopDelayMs: number(
      'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS',
      env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      isTest ? 0 : 1000,
    ),
    maxEventLoopUtilization: number(
      'OVERLOAD_MAX_EVENT_LOOP_UTILIZATION',
      env.OVERLOAD_MAX_EVENT_LOOP_UTILIZATION,
      0,
    ),
    maxHeapUsedBytes: number('OVERLOAD_MAX_HEAP_BYTES', env.OVERLOAD_MAX_HEAP_BYTES, 0),
    maxInFlight: Math.floor(number('OVERLOAD_MAX_IN_FLIGHT', env.OVERLOAD_MAX_IN_FLIGHT, isTest ? 0 : 200)),
    retryAfterSeconds: Math.max(1, Math.round(number('OVERLOAD_RETRY_AFTER', env.OVERLOAD_RETRY_AFTER, 5))),
  };
}

type PressureHandler = NonNullable<FastifyUnderPressureOptions['pressureHandler']>;

const exempt = (req: FastifyRequest) => req.url === '/api/metrics' || req.url.startsWith('/api/metrics?');

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests of this process now being served, and how many were shed since the start. */
    load: { inFlight: number; shed: number };
  }
}

export default fp(
  async function overload(app: FastifyInstance, settings: OverloadSettings) {
    const load = { inFlight: 0, shed: 0 };
    app.decorate('load', load);
    const shed = (reply: FastifyReply) => {
      load.shed++;
      // Serialised here: the route's own 503 schema (health's) must not reshape it.
      reply
        .status(503)
        .header('retry-after', String(settings.retryAfterSeconds))
        .type('application/json; charset=utf-8');
      return JSON.stringify({ code: ERROR_CODES.unavailable, message: MESSAGES.unavailable });
    };
    const { maxEventLoopDelayMs, maxEventLoopUtilization, maxHeapUsedBytes } = settings;
    if (maxEventLoopDelayMs || maxEventLoopUtilization || maxHeapUsedBytes) {
      await app.register(underPressure, {
        maxEventLoopDelay: maxEventLoopDelayMs,
        maxEventLoopUtilization,
        maxHeapUsedBytes,
        // The utilisation of the last sample, not the average since the start.
        eventLoopUtilizationMode: 'interval',
        sampleInterval: 500,
        // A value returned is sent as the answer (its types only admit void); undefined lets the request on.
        pressureHandler: ((req: FastifyRequest, reply: FastifyReply) =>
          exempt(req) ? undefined : shed(reply)) as unknown as PressureHandler,
      });
    }
    // 'close' comes once the answer is sent or the client has gone, whichever way the request ends.
    const ended = () => load.inFlight--;
    app.addHook('onRequest', (req, reply, done) => {
      if (exempt(req)) return done();
      if (settings.maxInFlight && load.inFlight >= settings.maxInFlight) {
        return reply.send(shed(reply));
      }
      load.inFlight++;
      reply.raw.on('close', ended);
      done();
    });
  },
  { name: 'under-pressure' },
);
