import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';

/** An error with an HTTP status that reaches the client as `{code, message, errors?}`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message: string = MESSAGES.notFound) =>
  new AppError(404, ERROR_CODES.notFound, message);
export const forbidden = (message: string = MESSAGES.forbidden) =>
  new AppError(403, ERROR_CODES.forbidden, message);
export const unauthenticated = () => new AppError(401, ERROR_CODES.unauthenticated, MESSAGES.unauthenticated);
export const badRequest = (message: string = MESSAGES.badRequest) =>
  new AppError(400, ERROR_CODES.badRequest, message);
/** 409: the record is in use (a site a scheme covers, an auditor on a planned audit): the change would break what refers to it. */
export const conflict = (message: string) => new AppError(409, ERROR_CODES.conflict, message);
/** 422 with field errors. */
export const invalid = (errors: Record<string, string>, message?: string) =>
  new AppError(
    422,
    ERROR_CODES.validation,
    message ?? Object.values(errors)[0] ?? MESSAGES.validation,
    errors,
  );
/** 422 without a field: a rule refused the change. */
export const refused = (message: string) => new AppError(422, ERROR_CODES.validation, message);

interface PgLikeError {
  code?: string;
  constraint?: string;
  /** PostgreSQL's detail, e.g. `Key (...)=(value) already exists.` */
  detail?: string;
  cause?: unknown;
}

/** Drizzle wraps driver errors; find the one carrying a SQLSTATE. */
export function pgError(err: unknown): PgLikeError | undefined {
  let e = err as PgLikeError | undefined;
  for (let i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
    e = e.cause as PgLikeError | undefined;
  }
  return undefined;
}

/** Seconds a client is asked to wait (`Retry-After`) when the API cannot serve it for now. */
export const RETRY_AFTER_SECONDS = 5;

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // SQLSTATE: the server shutting down or not accepting connections, or out of connection slots.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNREACHABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/;

/** node-postgres' pool: no connection came free within its acquire timeout (DB_ACQUIRE_TIMEOUT_MS). */
const POOL_TIMEOUT_MESSAGE = /^timeout exceeded when trying to connect/;

/**
 * Whether an error means the database cannot be reached (refused, cut, timed out, shutting down) or
 * gave no connection in time (the pool's acquire timeout, under overload): answered
 * `503 unavailable` with Retry-After, never 500 (docs/rules.md#faults-and-overload).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && UNREACHABLE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/** Whether an error is the pool's acquire timeout (a busy pool, not an unreachable database). */
export function isPoolTimeout(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { message?: unknown; cause?: unknown };
  if (typeof e.message === 'string' && POOL_TIMEOUT_MESSAGE.test(e.message)) return true;
  return isPoolTimeout(e.cause, depth + 1);
}
