import path from 'node:path';
import pino from 'pino';
import { buildApp, LOG_REDACT } from './app';
import { checkServerConfig, loadConfig } from './config';
import { EarlierVersionDataDirError } from './db/embedded';
import { EmbeddedServerError } from './db/embedded-install';
import { DataDirLockedError } from './db/lock';
import { loggableError } from './plugins/errors';
import { openRuntime } from './runtime';
import { runMaintenance } from './services/maintenance';

function readConfig() {
  try {
    const config = loadConfig();
    checkServerConfig(config);
    return config;
  } catch (err) {
    // A setting the server cannot work with: say which and why, and do not start.
    console.error(`Cannot start: ${(err as Error).message}`);
    process.exit(2);
  }
}

async function main() {
  const config = readConfig();
  const logger = pino({ level: config.logLevel, redact: LOG_REDACT });
  // Nothing bypasses the structured log (docs/rules.md#api-conventions): a library's stray rejection or throw is
  // a log line like any other (without the values a database error quotes), then a throw ends the
  // process (its state is unknown; the process manager starts a new one).
  process.on('unhandledRejection', (reason) => {
    logger.error({ error: loggableError(reason) }, 'unhandled promise rejection');
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ error: loggableError(err) }, 'uncaught exception');
    process.exit(1);
  });
  let runtime;
  try {
    runtime = await openRuntime(config, { migrate: config.migrateOnStart, logger });
  } catch (err) {
    // A DATA_DIR held by another process, written by the earlier version, or a server that cannot
    // start: say so and stop (exit 2: a setting or a place to fix, not a crash).
    if (
      err instanceof DataDirLockedError ||
      err instanceof EarlierVersionDataDirError ||
      err instanceof EmbeddedServerError
    ) {
      logger.fatal(err.message);
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildApp({ config, db: runtime.database.db, redis: runtime.redis, logger });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.error('shutdown took too long, exiting');
      process.exit(1);
    }, 25_000);
    force.unref();
    // Connections kept alive by clients would hold close() open: drop each one as soon as it is idle
    // (requests in flight finish first).
    const dropIdle = setInterval(() => app.server.closeIdleConnections(), 200);
    dropIdle.unref();
    try {
      await app.close();
      await runtime.close();
      logger.info('stopped cleanly');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const maintain = () =>
    runMaintenance(runtime.database, app.clock).catch((err: unknown) =>
      logger.warn({ err }, 'maintenance failed'),
    );
  await maintain();
  const maintenance = setInterval(() => void maintain(), 60 * 60 * 1000);
  maintenance.unref();

  await app.listen({ port: config.port, host: config.host });
  const db = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `embedded PostgreSQL in ${path.resolve(config.dataDir)}, port ${runtime.database.server?.port}`;
  const lines = [
    `Sistem Sertifikasi API listening on http://localhost:${config.port} (${db})`,
    `  health: http://localhost:${config.port}/api/health   docs: http://localhost:${config.port}/api/docs`,
  ];
  if (runtime.seed.createdAdmin) {
    lines.push(
      runtime.seed.generatedPassword
        ? `  First start: sign in as "${config.adminUsername}" with the generated password ${runtime.seed.generatedPassword} (shown once; change it in your profile)`
        : `  First start: sign in as "${config.adminUsername}" with the password from ADMIN_PASSWORD`,
    );
  } else {
    lines.push(
      '  Sign in with an existing account (lost password: npm run reset-admin --workspace api -- <username>)',
    );
  }
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
