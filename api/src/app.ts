import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import importRoutes from './modules/import/import.routes';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Redis } from 'ioredis';
import { IMAGE_MAX_BYTES } from '@sertifikasi/shared-contracts';
import type { Config } from './config';
import type { Db } from './db';
import { dummyHash } from './lib/crypto';
import { requestId } from './lib/request-id';
import { fastifyTrustProxy } from './lib/trust-proxy';
import { type Clock, createClock } from './lib/clock';
import { refuseUnexpectedMultipart, yupValidatorCompiler } from './lib/validation';
import authPlugin from './plugins/auth';
import compressPlugin from './plugins/compress';
import errorsPlugin, { clientErrorHandler, frameworkErrors } from './plugins/errors';
import portalPlugin, { remoteOrigins } from './plugins/portal';
import securityHeaders from './plugins/security-headers';
import { dbLoginThrottle, type LoginThrottle, redisLoginThrottle } from './services/login-throttle';
import { imageWork } from './services/images';
import accreditedRoutes from './modules/accredited/accredited.routes';
import authRoutes from './modules/auth/auth.routes';
import certificationRoutes from './modules/certification/certification.routes';
import companyRoutes from './modules/companies/companies.routes';
import healthRoutes from './modules/health/health.routes';
import imageRoutes from './modules/images/images.routes';
import publicCheckRoutes from './modules/public-check/public-check.routes';
import roleRoutes from './modules/roles/roles.routes';
import selectRoutes from './modules/select/select.routes';
import trainingRoutes from './modules/training/training.routes';
import userRoutes from './modules/users/users.routes';
import clientCertificateRoutes from './modules/client-certificates/client-certificates.routes';
import schemeRoutes from './modules/schemes/schemes.routes';
import dashboardRoutes from './modules/dashboard/dashboard.routes';
import reportRoutes from './modules/reports/reports.routes';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** The one clock (lib/clock.ts): now, and today in the deployment's time zone. */
    clock: Clock;
    loginThrottle: LoginThrottle;
    /** Verified against when a username is unknown, so timing does not tell which usernames exist. */
    dummyPasswordHash: Promise<string>;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  redis?: Redis | undefined;
  logger?: FastifyBaseLogger;
  /** The app's clock; tests pass one they set. Default: the system time in `config.timeZone`. */
  clock?: Clock;
}

/** Paths never written to the log (DECISIONS.md: no passwords, tokens or Authorization headers). */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'body.password',
  'password',
  'token',
  'res.headers["set-cookie"]',
];

/** Builds the app from its plugins; listening is server.ts's business. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    trustProxy: fastifyTrustProxy(opts.config.trustProxy),
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: requestId,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors,
    clientErrorHandler,
  });
  app.decorate('db', opts.db);
  app.decorate('config', opts.config);
  app.decorate('clock', opts.clock ?? createClock(opts.config.timeZone));
  app.decorate('loginThrottle', opts.redis ? redisLoginThrottle(opts.redis) : dbLoginThrottle(opts.db));
  const dummy = dummyHash(opts.config.argon2);
  dummy.catch(() => undefined);
  app.decorate('dummyPasswordHash', dummy);
  app.setValidatorCompiler(yupValidatorCompiler);
  imageWork.setLimit(opts.config.imageConcurrency);

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(errorsPlugin);
  await app.register(compressPlugin);
  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Image previews of a chosen file are blob: URLs; remotes deployed elsewhere bring their origins.
        imgSrc: ["'self'", 'data:', 'blob:', ...remoteOrigins(opts.config)],
        styleSrc: ["'self'", "'unsafe-inline'", ...remoteOrigins(opts.config)],
        scriptSrc: ["'self'", ...remoteOrigins(opts.config)],
        connectSrc: ["'self'", ...remoteOrigins(opts.config)],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Plain-HTTP installs (http://10.x.x.x:8080) must not have their own scripts upgraded to https.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  await app.register(rateLimit, {
    global: false,
    ...(opts.redis ? { redis: opts.redis, skipOnError: true } : {}),
    nameSpace: 'sertifikasi-rl-',
  });
  app.addHook('onRequest', refuseUnexpectedMultipart);
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: IMAGE_MAX_BYTES, files: 5, fields: 60, fieldSize: 64 * 1024, parts: 70 },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Sistem Sertifikasi API',
        description: 'Back-office and public certificate checks of a certification body.',
        version: '0.1.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // swagger-ui's own policy ends in upgrade-insecure-requests, which breaks the viewer on plain HTTP.
    transformStaticCSP: (csp) =>
      csp
        .split(';')
        .map((directive) => directive.trim())
        .filter((directive) => directive && directive !== 'upgrade-insecure-requests')
        .join('; '),
  });
  await app.register(authPlugin);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(selectRoutes);
  await app.register(userRoutes);
  await app.register(roleRoutes);
  await app.register(companyRoutes);
  await app.register(imageRoutes);
  await app.register(publicCheckRoutes);
  await app.register(accreditedRoutes);
  await app.register(certificationRoutes);
  await app.register(trainingRoutes);
  await app.register(clientCertificateRoutes);
  await app.register(importRoutes);
  await app.register(schemeRoutes);
  await app.register(dashboardRoutes);
  await app.register(reportRoutes);
  await app.register(portalPlugin, { root: opts.config.portalRoot, remoteUrls: opts.config.remoteUrls });
  return app;
}
