import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';

/** Where the API documents itself: the viewer, and its OpenAPI document under `/json`. */
export const DOCS_PREFIX = '/api/docs';

/**
 * The OpenAPI document, built from every route's declared schemas (defineRoute), and its viewer at
 * DOCS_PREFIX. Routes that need a token say so (`security: bearer`), public ones `security: []`; each
 * operation's operationId comes from defineRoute (lib/route.ts). `npm run openapi --workspace api`
 * writes it to api/openapi/ with its TypeScript types; `npm run lint` checks both are current and
 * lints the document with Redocly's recommended rules (api/redocly.yaml).
 */
export default fp(
  async function swagger(app: FastifyInstance) {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Sistem Sertifikasi API',
          description: 'Back-office and public certificate checks of a certification body.',
          version: '0.1.0',
        },
        // Paths start with /api: the server is the origin that serves this document.
        servers: [{ url: '/', description: 'The origin this document is served from' }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      },
    });
    await app.register(fastifySwaggerUi, {
      routePrefix: DOCS_PREFIX,
      staticCSP: true,
      // swagger-ui's own policy ends in upgrade-insecure-requests, which breaks the viewer on plain HTTP.
      transformStaticCSP: (csp) =>
        csp
          .split(';')
          .map((directive) => directive.trim())
          .filter((directive) => directive && directive !== 'upgrade-insecure-requests')
          .join('; '),
    });
  },
  { name: 'swagger' },
);
