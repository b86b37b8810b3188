import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { images } from '../../db/schema';
import { notFound } from '../../lib/errors';

const NAME_RE = /^[0-9a-f-]{36}\.(png|jpg)$/;

/** GET /images/<name>: stored uploads, with their own content type, nosniff and long caching. */
export default async function imageRoutes(app: FastifyInstance) {
  app.get<{ Params: { name: string } }>(
    '/images/:name',
    { config: { access: { public: true } }, schema: { hide: true } },
    async (req, reply) => {
      const { name } = req.params;
      if (!NAME_RE.test(name)) throw notFound();
      const [row] = await app.db
        .select({ content_type: images.content_type, data: images.data })
        .from(images)
        .where(eq(images.name, name))
        .limit(1);
      if (!row) throw notFound();
      const etag = `"${createHash('sha1').update(row.data).digest('base64url')}"`;
      reply
        .header('Content-Type', row.content_type)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Security-Policy', "default-src 'none'")
        // Public images: a module deployed alone on another origin may show them.
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('ETag', etag);
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.send(row.data);
    },
  );
}
