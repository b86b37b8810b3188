import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';
import { remoteOrigins } from './portal';

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers helmet sets on every answer, for answers written outside the request cycle. */
    securityHeaders: Record<string, string>;
  }
}

/** The headers helmet writes with these options (computed once, by helmet itself). */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
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
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The policy of every answer: a Content-Security-Policy for the portal (its own origin, plus the
 * origins of remotes deployed elsewhere), no framing, and resources for this origin only (the public
 * checks open themselves to other origins in their own context).
 */
export function securityHeaderOptions(config: Pick<Config, 'remoteUrls'>): HelmetOptions {
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
 * Helmet's headers with the app's policy (securityHeaderOptions of `app.config`) on every answer.
 * They depend on the configuration only, so helmet computes them once, at start (`app.securityHeaders`,
 * also what the framework's own errors carry): @fastify/helmet ran helmet again on every request,
 * parsing the policy each time. A route may still set one of them itself (the images' own policy,
 * the API viewer's): its value replaces this one. Registered before the other plugins' hooks, so
 * an answer they end early (503 when overloaded, 401) carries them too.
 */
export default fp(
  async function securityHeaders(app) {
    const headers = helmetHeaders(securityHeaderOptions(app.config));
    app.decorate('securityHeaders', headers);
    const names = Object.keys(headers);
    app.addHook('onRequest', (_req, reply, done) => {
      for (const name of names) reply.header(name, headers[name]);
      done();
    });
  },
  { name: 'security-headers' },
);
