/**
 * The OVERLOAD_* settings (README's configuration table) of the overload plugin (plugins/overload.ts,
 * docs/architecture.md#overload), read with the rest of the configuration (config.ts).
 */
export interface OverloadSettings {
  /** Wait for a database connection (ms) past which new requests are shed; 0: not checked. */
  maxPoolWaitMs: number;
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
  /**
   * Connections of the pool anonymous requests may never hold (OVERLOAD_STAFF_RESERVED_CONNECTIONS);
   * undefined: a quarter of the pool, at least 1. Always at most pool size - 1.
   */
  staffReservedConnections: number | undefined;
  /** How long a shed anonymous request waits for its 503 (ms; OVERLOAD_ANONYMOUS_SHED_DELAY_MS). */
  anonymousShedDelayMs: number;
}

function number(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of 0 or more, got "${value}"`);
  return n;
}

/** Reads the OVERLOAD_* settings. Tests run with every check off unless they set one. */
export function overloadSettings(env: NodeJS.ProcessEnv): OverloadSettings {
  const isTest = env.NODE_ENV === 'test';
  return {
    maxPoolWaitMs: number('OVERLOAD_MAX_POOL_WAIT_MS', env.OVERLOAD_MAX_POOL_WAIT_MS, isTest ? 0 : 500),
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
    maxInFlight: Math.floor(number('OVERLOAD_MAX_IN_FLIGHT', env.OVERLOAD_MAX_IN_FLIGHT, 0)),
    retryAfterSeconds: Math.max(1, Math.round(number('OVERLOAD_RETRY_AFTER', env.OVERLOAD_RETRY_AFTER, 5))),
    anonymousShedDelayMs: number(
      'OVERLOAD_ANONYMOUS_SHED_DELAY_MS',
      env.OVERLOAD_ANONYMOUS_SHED_DELAY_MS,
      isTest ? 0 : 3000,
    ),
    staffReservedConnections:
      env.OVERLOAD_STAFF_RESERVED_CONNECTIONS === undefined || env.OVERLOAD_STAFF_RESERVED_CONNECTIONS === ''
        ? undefined
        : Math.floor(
            number('OVERLOAD_STAFF_RESERVED_CONNECTIONS', env.OVERLOAD_STAFF_RESERVED_CONNECTIONS, 0),
          ),
  };
}

/** Connections kept from anonymous requests in a pool of `size` (never all of them). */
export function staffReserved(size: number, setting: number | undefined): number {
  const wanted = setting ?? Math.max(1, Math.ceil(size / 4));
  return Math.max(0, Math.min(wanted, size - 1));
}
