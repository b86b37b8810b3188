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
