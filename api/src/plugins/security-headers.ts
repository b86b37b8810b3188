import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fp from 'fastify-plugin';
import helmet from 'helmet';

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers helmet sets on every answer, for answers written outside the request cycle. */
    securityHeaders: Record<string, string>;
  }
}

/** The headers helmet writes with these options (computed once, by helmet itself). */
export function helmetHeaders(options: FastifyHelmetOptions): Record<string, string> {
  const { enableCSPNonces: _nonces, global: _global, ...helmetOptions } = options;
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  helmet(helmetOptions as Parameters<typeof helmet>[0])(
    {} as IncomingMessage,
    res as unknown as ServerResponse,
    () => undefined,
  );
  return headers;
}

/**
 * @fastify/helmet with the given options, plus the same headers as `app.securityHeaders`, so that
 * the framework's own errors (a malformed URL, a header too large) carry them too.
 */
export default fp(async function securityHeaders(app, opts: FastifyHelmetOptions) {
  await app.register(fastifyHelmet, opts);
  app.decorate('securityHeaders', helmetHeaders(opts));
});
