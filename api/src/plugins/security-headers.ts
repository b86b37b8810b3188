import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { Config } from '../config';
import { remoteOrigins } from './portal';

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
 * The policy of every answer: a Content-Security-Policy for the portal (its own origin, plus the
 * origins of remotes deployed elsewhere), no framing, and resources for this origin only (the public
 * checks open themselves to other origins in their own context).
 */
export function securityHeaderOptions(config: Pick<Config, 'remoteUrls'>): FastifyHelmetOptions {
  const remotes = remoteOrigins(config);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Image previews of a chosen file are blob: URLs; remotes deployed elsewhere bring their origins.
        imgSrc: ["'self'", 'data:', 'blob:', ...remotes],
        styleSrc: ["'self'", "'unsafe-inline'", ...remotes],
        scriptSrc: ["'self'", ...remotes],
        connectSrc: ["'self'", ...remotes],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Plain-HTTP installs (http://10.x.x.x:8080) must not have their own scripts upgraded to https.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/**
 * @fastify/helmet with the app's policy (securityHeaderOptions of `app.config`), plus the same
 * headers as `app.securityHeaders`, so that the framework's own errors (a malformed URL, a header
 * too large) carry them too.
 */
export default fp(
  async function securityHeaders(app) {
    const options = securityHeaderOptions(app.config);
    await app.register(fastifyHelmet, options);
    app.decorate('securityHeaders', helmetHeaders(options));
  },
  { name: 'security-headers' },
);
