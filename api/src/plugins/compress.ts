import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** JSON answers at least this large are compressed; smaller ones gain less than the work costs. */
export const COMPRESS_MIN_BYTES = 1024;

/** Above this, compression runs on libuv's threads instead of holding the event loop (~1 ms per 100 KB). */
const ASYNC_MIN_BYTES = 128 * 1024;

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

/**
 * Brotli quality 3 and gzip level 4: on a 200-row list (87 KB) these compress to 8 % and 10 % in
 * under a millisecond; the defaults (11 and 6) cost several times more for a few per cent.
 */
const brotliOptions = (size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 3,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 4 };

/** Compressed on this thread (small bodies) or on libuv's (from ASYNC_MIN_BYTES): a Buffer, or its promise. */
export function encode(payload: string | Buffer, size: number, encoding: Encoding): Buffer | Promise<Buffer> {
  if (size >= ASYNC_MIN_BYTES) {
    return encoding === 'br' ? brotliAsync(payload, brotliOptions(size)) : gzipAsync(payload, GZIP_OPTIONS);
  }
  return encoding === 'br'
    ? zlib.brotliCompressSync(payload, brotliOptions(size))
    : zlib.gzipSync(payload, GZIP_OPTIONS);
}

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer with for an Accept-Encoding header: brotli where it is accepted at least as
 * much as gzip, gzip otherwise, none when neither is acceptable (absent, `identity`, `q=0`).
 */
export function pickEncoding(header: string | string[] | undefined): Encoding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = Math.max(weight('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : undefined;
}

/** Says that the answer depends on Accept-Encoding (once, beside any other Vary). */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', 'Accept-Encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, Accept-Encoding`);
}

/**
 * Compresses the API's JSON answers above COMPRESS_MIN_BYTES with brotli or gzip, as the client
 * accepts (`Vary: Accept-Encoding` on every answer that could be compressed). Anything else passes
 * untouched: streams, files, images, and every reply that already carries a Content-Encoding (the
 * portal's precompressed files).
 */
export default fp(async function compress(app: FastifyInstance) {
  // A plain callback: most answers pass untouched, and need no promise for it.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    if (reply.hasHeader('content-encoding')) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return done(null, payload);
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_MIN_BYTES) return done(null, payload);
    varyOnEncoding(reply);
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding || req.method === 'HEAD') return done(null, payload);
    const compressed = (body: Buffer) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    };
    let body: Buffer | Promise<Buffer>;
    try {
      body = encode(payload, size, encoding);
    } catch (err) {
      return done(err as Error);
    }
    if (Buffer.isBuffer(body)) return compressed(body);
    body.then(compressed, (err: Error) => done(err));
  });
});
