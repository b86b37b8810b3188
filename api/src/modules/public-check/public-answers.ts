/**
 * How every public verification answer goes out (docs/rules.md#public-check and #signed-certificates): the checks
 * (public-check.routes.ts) and the credentials (modules/credentials) share the number parameter,
 * the cache headers and ETag, the `404 NOT FOUND`, and the CORS opening to other origins.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { NOT_FOUND_TEXT } from '@sertifikasi/shared-contracts/public';
import { ifNoneMatchHits, weakEtag } from '../../lib/etag';

/** Browsers and other sites may keep an answer this long (seconds); the ETag revalidates after. */
export const CHECK_MAX_AGE = 60;

/** `:number` of a public path: each `/` written `+` (or `%2F`). */
export const numberParams = yup.object({
  number: yup.string().required().max(200),
});

export const notFoundSchema = { type: 'string', description: `The text \`${NOT_FOUND_TEXT}\` (text/plain)` };

/**
 * Sends a cacheable body: short `Cache-Control`, a weak `ETag` of the body, and `304` when the
 * client's `If-None-Match` already holds it (weak and list forms too).
 */
export function sendCachedBody(req: FastifyRequest, reply: FastifyReply, body: string, contentType: string) {
  const etag = weakEtag(body);
  reply.header('Cache-Control', `public, max-age=${CHECK_MAX_AGE}`).header('ETag', etag);
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) return reply.status(304).send();
  return reply.type(contentType).send(body);
}

/** A cacheable JSON answer, serialised by the route's response schema (what it does not name never leaves). */
export function sendCached(req: FastifyRequest, reply: FastifyReply, answer: object) {
  const serialized = reply.serialize(answer);
  const body = typeof serialized === 'string' ? serialized : Buffer.from(serialized as Uint8Array).toString();
  return sendCachedBody(req, reply, body, 'application/json; charset=utf-8');
}

export function sendNotFound(reply: FastifyReply) {
  return reply
    .status(404)
    .header('Cache-Control', `public, max-age=${CHECK_MAX_AGE}`)
    .type('text/plain; charset=utf-8')
    .send(NOT_FOUND_TEXT);
}

/**
 * Opens the routes of an encapsulated context to every origin for GET (CORS): the headers on every
 * answer, and the preflight of each of `urls`.
 */
export function openToOtherOrigins(
  context: FastifyInstance,
  urls: readonly string[],
  rateLimit: { max: number; timeWindow: number },
): void {
  context.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Expose-Headers', 'ETag');
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    done(null, payload);
  });
  for (const url of urls) {
    context.route({
      method: 'OPTIONS',
      url,
      config: { access: { public: true }, rateLimit },
      schema: { hide: true },
      handler: async (_req, reply) =>
        reply
          .status(204)
          .header('Access-Control-Allow-Methods', 'GET, OPTIONS')
          .header('Access-Control-Allow-Headers', 'If-None-Match, Content-Type')
          .header('Access-Control-Max-Age', '86400')
          .send(),
    });
  }
}
