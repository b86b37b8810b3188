/**
 * Sends a whole answer kept by the app's list cache (services/list-cache.ts `answer`): the JSON
 * the route's response schema makes of `make`'s answer, made again only after a write of a kind of
 * record it shows in a company of the scope; compressed once per encoding the clients accept, as
 * the compression plugin would (plugins/compress.ts), and the compressed form kept with it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerAsked } from '../services/list-cache';
import { COMPRESS_MIN_BYTES, encode, pickEncoding, varyOnEncoding } from './compress';

export async function sendKeptAnswer(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  asked: AnswerAsked,
  make: () => Promise<object>,
): Promise<FastifyReply> {
  const kept = await app.listCache.answer(app.db, asked, async () => {
    const serialized: unknown = reply.serialize(await make());
    return typeof serialized === 'string' ? serialized : Buffer.from(serialized as Uint8Array);
  });
  reply.type('application/json; charset=utf-8');
  if (kept.body.length < COMPRESS_MIN_BYTES) return reply.send(kept.body);
  varyOnEncoding(reply);
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (!encoding || req.method === 'HEAD') return reply.send(kept.body);
  const body = await kept.encoded(encoding, (raw) => encode(raw, raw.length, encoding));
  return reply.header('content-encoding', encoding).send(body);
}
