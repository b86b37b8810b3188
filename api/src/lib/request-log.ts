import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request instead of Fastify's two ("incoming request" and "request completed"):
 * the line written when the answer has gone out carries the request too (method, url, host,
 * address), its status and time. Every request paid for two serialised, redacted lines and two
 * writes to the log; the first told nothing the second does not, except that a request began.
 * The other framework lines (errors, not found, a failed serialiser) are Fastify's own.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
