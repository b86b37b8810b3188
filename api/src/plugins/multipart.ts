import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { ERROR_CODES, IMAGE_MAX_BYTES, MESSAGES } from '@sertifikasi/shared-contracts';
import { AppError, notFound } from '../lib/errors';

/**
 * Limits of a multipart body: one file at most IMAGE_MAX_BYTES (docs/rules.md#uploads), a few
 * files and the fields of the largest form (a company with its images).
 */
export const MULTIPART_LIMITS = {
  fileSize: IMAGE_MAX_BYTES,
  files: 5,
  fields: 60,
  fieldSize: 64 * 1024,
  parts: 70,
};

/**
 * onRequest hook: multipart bodies are read only by routes that take uploads (defineRoute's
 * `multipart`); anywhere else they answer 415 before a byte of the body is read
 * (docs/rules.md#api-conventions), and an unknown route answers 404 without reading it either.
 */
export async function refuseUnexpectedMultipart(req: FastifyRequest): Promise<void> {
  if (!/^\s*multipart\//i.test(req.headers['content-type'] ?? '')) return;
  if (req.is404) throw notFound();
  const consumes = (req.routeOptions.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
  if (!consumes.includes('multipart/form-data')) {
    throw new AppError(415, ERROR_CODES.unsupportedMediaType, MESSAGES.uploadNotAccepted);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The file name each uploaded file part was sent with, by field (an import's 'Riwayat Impor'). */
    uploadNames: Record<string, string> | null;
  }
}

/**
 * Multipart form bodies (image uploads): fields and files arrive as the body's values, so a route
 * validates a form the way it validates JSON; the name a file was sent with is kept in
 * `req.uploadNames`. Only routes that declare `multipart` take them.
 */
export default fp(
  async function multipart(app: FastifyInstance) {
    app.addHook('onRequest', refuseUnexpectedMultipart);
    app.decorateRequest('uploadNames', null);
    await app.register(fastifyMultipart, {
      attachFieldsToBody: 'keyValues',
      limits: MULTIPART_LIMITS,
      async onFile(this: FastifyRequest, part) {
        if (part.filename) (this.uploadNames ??= {})[part.fieldname] = part.filename;
        await part.toBuffer();
      },
    });
  },
  { name: 'multipart' },
);
