import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';
import { UNIQUE_CONSTRAINTS } from '../db/unique-constraints';
import { AppError, isDatabaseUnavailable, isPoolTimeout, pgError, RETRY_AFTER_SECONDS } from '../lib/errors';

interface LoggedError {
  type: string;
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  message?: string;
  stack: string;
  cause?: LoggedError;
}

/** A database error: a driver's (SQLSTATE code) or drizzle's wrapper (which carries the query and its parameters). */
const isDbError = (e: Record<string, unknown>): boolean =>
  'query' in e || 'params' in e || (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code));

/**
 * What the log keeps of an error behind a 5xx: its kind, code and stack frames. Of a database error
 * never the query text, its parameters (a password hash, a NUL-laden search) or the driver's message
 * and detail, which quote values; only the SQLSTATE and the constraint, table and column names.
 */
export function loggableError(err: unknown, depth = 0): LoggedError {
  const e = (err && typeof err === 'object' ? err : { message: String(err) }) as Record<string, unknown>;
  const db = isDbError(e);
  const text = (key: string) => (typeof e[key] === 'string' ? { [key]: e[key] } : {});
  const stack = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)) : [];
  return {
    type: err instanceof Error ? err.name : typeof err,
    ...text('code'),
    ...(db ? { ...text('constraint'), ...text('table'), ...text('column') } : text('message')),
    stack: stack.join('\n'),
    ...(e.cause && depth < 5 ? { cause: loggableError(e.cause, depth + 1) } : {}),
  };
}

function send(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  errors?: Record<string, string>,
) {
  return reply.status(status).send(errors ? { code, message, errors } : { code, message });
}

/** One error shape for the whole API; 5xx details only reach the log. */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { errors?: Record<string, string> }, req, reply) => {
    if (err instanceof AppError) return send(reply, err.statusCode, err.code, err.message, err.errors);
    if (isDatabaseUnavailable(err)) {
      const what = isPoolTimeout(err) ? 'no database connection came free in time' : 'database unreachable';
      req.log.warn({ error: loggableError(err) }, what);
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return send(reply, 503, ERROR_CODES.unavailable, MESSAGES.unavailable);
    }
    const db = pgError(err);
    const unique = db?.code === '23505' && db.constraint ? UNIQUE_CONSTRAINTS[db.constraint] : undefined;
    if (unique) {
      const [field, message] = unique;
      return send(reply, 422, ERROR_CODES.validation, message, { [field]: message });
    }
    if (db?.code === '23503' || db?.code === '23001') {
      return send(reply, 422, ERROR_CODES.validation, 'Data terkait tidak ditemukan atau masih dipakai');
    }
    if (db?.code === '23514' || db?.code === '22P02' || db?.code === '22007' || db?.code === '22008') {
      return send(reply, 422, ERROR_CODES.validation, MESSAGES.validation);
    }
    const status = err.statusCode ?? 500;
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return send(reply, 413, ERROR_CODES.tooLarge, 'Ukuran file melebihi batas (maksimal 2 MB)');
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, 413, ERROR_CODES.tooLarge, 'Ukuran data melebihi batas (maksimal 1 MB)');
    }
    if (err.code === 'FST_FILES_LIMIT' || err.code === 'FST_FIELDS_LIMIT' || err.code === 'FST_PARTS_LIMIT') {
      return send(reply, 413, ERROR_CODES.tooLarge, 'Terlalu banyak file atau field dalam satu permintaan');
    }
    if (status === 413) return send(reply, 413, ERROR_CODES.tooLarge, MESSAGES.tooLarge);
    if (status === 429) return send(reply, 429, ERROR_CODES.tooManyRequests, MESSAGES.tooManyRequests);
    if (status === 415 || status === 406) {
      return send(reply, 400, ERROR_CODES.badRequest, 'Jenis konten tidak didukung');
    }
    // Unreadable multipart bodies (no boundary, cut short, garbage) are thrown by the parser as plain errors.
    if (
      /^(Multipart: |Unexpected end of (multipart data|form)|Malformed part header)/.test(err.message ?? '')
    ) {
      return send(reply, 400, ERROR_CODES.badRequest, MESSAGES.badRequest);
    }
    if (status >= 400 && status < 500) {
      return send(
        reply,
        status,
        status === 404 ? ERROR_CODES.notFound : ERROR_CODES.badRequest,
        MESSAGES.badRequest,
      );
    }
    // Under `error`, not `err`: pino's error serializer would rebuild a message from the causes.
    req.log.error({ error: loggableError(err) }, 'request failed');
    return send(reply, 500, ERROR_CODES.internal, MESSAGES.systemError);
  });

  app.setNotFoundHandler((req, reply) => send(reply, 404, ERROR_CODES.notFound, MESSAGES.notFound));
});

/**
 * Fastify's own routing errors (a malformed URL, an over-long parameter) answer before any hook
 * runs: the same `{code, message}` shape and security headers as every other answer.
 */
export function frameworkErrors(_err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.headers({ ...req.server.securityHeaders, 'x-request-id': req.id });
  void send(reply, 400, ERROR_CODES.badRequest, MESSAGES.badRequest);
}

/**
 * Requests Node's HTTP parser refuses (a header too large, garbage, a timeout) never reach Fastify:
 * the answer is written to the socket here, in the API's shape and with the security headers.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ERROR_CODES.tooLarge, 'Header permintaan terlalu besar']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ERROR_CODES.badRequest, 'Waktu permintaan habis']
        : [400, ERROR_CODES.badRequest, MESSAGES.badRequest];
  const body = JSON.stringify({ code, message });
  const headers = {
    ...this.securityHeaders,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
  }
  socket.destroy();
}
