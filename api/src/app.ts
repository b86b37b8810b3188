import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import importRoutes from './modules/import/import.routes';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import type { Db } from './db';
import { dummyHash } from './lib/crypto';
import { requestId } from './lib/request-id';
import { OneLineRequestLog } from './lib/request-log';
import { fastifyTrustProxy } from './lib/trust-proxy';
import { type Clock, createClock } from './lib/clock';
import { createRouteMap } from './lib/route';
import { createMailer, type Mailer } from './notify/mail';
import { createSemaphore, type Semaphore } from './lib/semaphore';
import { yupValidatorCompiler } from './lib/validation';
import authPlugin from './plugins/auth';
import compressPlugin from './plugins/compress';
import errorsPlugin, { clientErrorHandler, frameworkErrors } from './plugins/errors';
import multipartPlugin from './plugins/multipart';
import portalPlugin from './plugins/portal';
import rateLimitPlugin from './plugins/rate-limit';
import securityHeadersPlugin from './plugins/security-headers';
import swaggerPlugin from './plugins/swagger';
import type { LoginThrottle } from './services/login-throttle';
import { createListCache, type ListCache } from './services/list-cache';
import overloadPlugin from './plugins/overload';
import metricsPlugin from './plugins/metrics';
import { jobsPlugin } from './jobs/engine';
import { defineTasks } from './jobs/tasks';
import { HandedPlans } from './modules/import/import.job';
import redisPlugin, { loginThrottleFor } from './plugins/redis';
import accreditationBodyRoutes from './modules/accreditation-bodies/accreditation-bodies.routes';
import authRoutes from './modules/auth/auth.routes';
import certificationTypeRoutes from './modules/certification-types/certification-types.routes';
import companyRoutes from './modules/companies/companies.routes';
import healthRoutes from './modules/health/health.routes';
import backupRoutes from './modules/backup/backup.routes';
import imageRoutes from './modules/images/images.routes';
import publicCheckRoutes from './modules/public-check/public-check.routes';
import roleRoutes from './modules/roles/roles.routes';
import selectRoutes from './modules/select/select.routes';
import trainingCertificateRoutes from './modules/training-certificates/training-certificates.routes';
import userRoutes from './modules/users/users.routes';
import clientCertificateRoutes from './modules/client-certificates/client-certificates.routes';
import schemeRoutes from './modules/schemes/schemes.routes';
import clientSiteRoutes from './modules/client-sites/client-sites.routes';
import dashboardRoutes from './modules/dashboard/dashboard.routes';
import reportRoutes from './modules/reports/reports.routes';
import auditScheduleRoutes from './modules/audit-schedule/audit-schedule.routes';
import { createReportExports } from './modules/reports/export-state';
import { lastBackupSuccess } from './modules/backup/backup.job';
import credentialRoutes from './modules/credentials/credentials.routes';
import notificationRoutes from './modules/notifications/notifications.routes';
import webhookRoutes from './modules/webhooks/webhooks.routes';
import auditorRoutes from './modules/auditors/auditors.routes';
import plannedAuditRoutes from './modules/planned-audits/planned-audits.routes';
import iafCertsearchRoutes from './modules/iaf-certsearch/iaf-certsearch.routes';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** The one clock (lib/clock.ts): now, and today in the deployment's time zone. */
    clock: Clock;
    loginThrottle: LoginThrottle;
    /** How many image re-encodings run at once (IMAGE_CONCURRENCY): services/images.ts runs under it. */
    imageWork: Semaphore;
    /** Verified against when a username is unknown, so timing does not tell which usernames exist. */
    dummyPasswordHash: Promise<string>;
    /** The list totals and pages this instance read, with the list versions they were read at. */
    listCache: ListCache;
    /** SMTP of SMTP_URL and MAIL_FROM (notify/mail.ts); null when unset: `sendDueMail` records why. */
    mailer: Mailer | null;
    /** Plans of checked imports handed to their jobs on this process (modules/import/import.job.ts). */
    importPlans: HandedPlans;
  }
}

export interface AppOptions {
  config: Config;
  db: Db;
  redis?: Redis | undefined;
  logger?: FastifyBaseLogger;
  /** The app's clock; tests pass one they set. Default: the system time in `config.timeZone`. */
  clock?: Clock;
  /** False: the job engine is not started (the OpenAPI script builds the app without a database). */
  runJobs?: boolean;
}

/** Paths never written to the log (docs/rules.md#api-conventions: no passwords, tokens or Authorization headers). */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'body.password',
  'password',
  'token',
  'res.headers["set-cookie"]',
];

/**
 * Builds the app from its plugins (one file a concern in plugins/, each with its settings) and the
 * modules' routes; listening is server.ts's business. Everything that changes while the app runs is
 * state of this instance, decorated here (the clock, the image work limit, the report exports, the
 * declared routes), never a module-level variable: two apps in one process share nothing.
 */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    trustProxy: fastifyTrustProxy(opts.config.trustProxy),
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: requestId,
    logController: new OneLineRequestLog(),
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors,
    clientErrorHandler,
  });
  app.decorate('db', opts.db);
  app.decorate('config', opts.config);
  app.decorate('clock', opts.clock ?? createClock(opts.config.timeZone));
  app.decorate('reportExports', createReportExports());
  app.decorate('imageWork', createSemaphore(opts.config.imageConcurrency));
  app.decorate('routeMap', createRouteMap());
  app.decorate('listCache', createListCache({ entries: opts.config.listCacheEntries }));
  app.decorate('mailer', createMailer(opts.config));
  app.decorate('importPlans', new HandedPlans());
  app.addHook('onClose', async () => app.mailer?.close());
  await app.register(redisPlugin, { client: opts.redis });
  app.decorate('loginThrottle', loginThrottleFor(app.redis, opts.db));
  const dummy = dummyHash(opts.config.argon2);
  dummy.catch(() => undefined);
  app.decorate('dummyPasswordHash', dummy);
  app.setValidatorCompiler(yupValidatorCompiler);

  // Hooks are plain callbacks where they need not wait for anything: every request runs them.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });

  await app.register(errorsPlugin);
  // First among the hooks, so that an answer another hook ends early carries the headers too.
  await app.register(securityHeadersPlugin);
  await app.register(overloadPlugin, opts.config.overload);
  await app.register(metricsPlugin, {
    token: opts.config.metricsToken,
    lastBackupSuccess: () => lastBackupSuccess(app.db),
  });
  await app.register(compressPlugin);
  await app.register(rateLimitPlugin, {
    redis: app.redis,
    badTokensPerSecond: opts.config.badTokenRateLimit,
  });
  await app.register(multipartPlugin);
  await app.register(swaggerPlugin);
  await app.register(authPlugin);
  await app.register(jobsPlugin, { ...opts.config.jobs, run: opts.runJobs ?? true });
  // Every task, known before the engine starts (onReady): jobs/tasks.ts.
  defineTasks({
    db: app.db,
    clock: app.clock,
    config: app.config,
    jobs: app.jobs,
    mailer: app.mailer,
    importPlans: app.importPlans,
  });

  await app.register(healthRoutes);
  await app.register(backupRoutes);
  await app.register(authRoutes);
  await app.register(selectRoutes);
  await app.register(userRoutes);
  await app.register(roleRoutes);
  await app.register(companyRoutes);
  await app.register(imageRoutes);
  await app.register(publicCheckRoutes);
  await app.register(accreditationBodyRoutes);
  await app.register(certificationTypeRoutes);
  await app.register(trainingCertificateRoutes);
  await app.register(clientCertificateRoutes);
  await app.register(importRoutes);
  await app.register(schemeRoutes);
  await app.register(clientSiteRoutes);
  await app.register(dashboardRoutes);
  await app.register(reportRoutes);
  await app.register(auditScheduleRoutes);
  await app.register(credentialRoutes);
  await app.register(notificationRoutes);
  await app.register(webhookRoutes);
  await app.register(auditorRoutes);
  await app.register(plannedAuditRoutes);
  await app.register(iafCertsearchRoutes);
  await app.register(portalPlugin, { root: opts.config.portalRoot, remoteUrls: opts.config.remoteUrls });
  return app;
}
