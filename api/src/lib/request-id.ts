import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id (logged, echoed as X-Request-Id): the client's X-Request-Id when it is at most 64
 * of A-Za-z0-9._- (docs/rules.md#api-conventions), otherwise a new UUID, so a client cannot write what it
 * likes into the logs.
 */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_ID_RE.test(given) ? given : randomUUID();
}
