import type { FastifyInstance, FastifyReply } from 'fastify';
import { ifNoneMatchHits } from '../../lib/etag';
import { notFound } from '../../lib/errors';
import { imageEtag, imageFile } from './images.repository';

const NAME_RE = /^[0-9a-f-]{36}\.(png|jpg)$/;

/**
 * GET /images/<name>: stored uploads, with their own content type, nosniff and long caching. Rate
 * limited per address like the other public endpoints (RATE_LIMIT_PUBLIC a minute). A request with
 * `If-None-Match` first reads only the stored ETag, so a 304 never reads the image bytes.
 */
export default async function imageRoutes(app: FastifyInstance) {
  app.get<{ Params: { name: string } }>(
    '/images/:name',
    {
      config: {
        access: { public: true },
        rateLimit: { max: app.config.publicRateLimit, timeWindow: 60_000 },
      },
      schema: { hide: true },
    },
    async (req, reply) => {
      const { name } = req.params;
      if (!NAME_RE.test(name)) throw notFound();
      const conditional = req.headers['if-none-match'];
      if (conditional !== undefined) {
        const etag = await imageEtag(app.db, name);
        if (etag === undefined) throw notFound();
        if (ifNoneMatchHits(conditional, `"${etag}"`)) return cacheHeaders(reply, etag).status(304).send();
      }
      const row = await imageFile(app.db, name);
      if (!row) throw notFound();
      return cacheHeaders(reply, row.etag)
        .header('Content-Type', row.content_type)
        .header('Content-Security-Policy', "default-src 'none'")
        .send(row.data);
    },
  );
}

function cacheHeaders(reply: FastifyReply, etag: string) {
  return (
    reply
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      // Public images: a module deployed alone on another origin may show them.
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .header('ETag', `"${etag}"`)
  );
}
