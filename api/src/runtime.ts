import type { Redis } from 'ioredis';
import type { Config } from './config';
import { type Database, openDatabase, type SlowQueryLogger } from './db';
import type { EmbeddedLog } from './db/embedded';
import { migrate } from './db/migrate';
import { openRedis } from './plugins/redis';
import { createClock } from './lib/clock';
import { fillCycleDueIfMissing } from './services/cycle-due';
import { seedAdministrator, seedPermissions, type SeedResult } from './services/seed';

export interface Runtime {
  database: Database;
  redis: Redis | undefined;
  seed: SeedResult;
  close(): Promise<void>;
}

const silentLog = { warn: () => undefined, info: () => undefined };

/** Opens the database (and Redis), migrates when asked, and seeds the catalogue and first administrator. */
export async function openRuntime(
  config: Config,
  opts: { migrate: boolean; logger?: SlowQueryLogger & EmbeddedLog },
): Promise<Runtime> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    slowQueryMs: config.slowQueryMs,
    logger: opts.logger,
    serverLog: opts.logger,
  });
  let redis: Redis | undefined;
  try {
    if (opts.migrate) await migrate(database);
    await seedPermissions(database.db);
    // A database from before the certification cycle gets its items due once (services/cycle-due.ts).
    await database.db.transaction((tx) => fillCycleDueIfMissing(tx, createClock(config.timeZone)));
    const seed = await seedAdministrator(database.db, {
      username: config.adminUsername,
      password: config.adminPassword,
      cost: config.argon2,
    });
    if (config.redisUrl) {
      redis = openRedis(config.redisUrl, opts.logger ?? silentLog);
    }
    return {
      database,
      redis,
      seed,
      close: async () => {
        redis?.disconnect();
        await database.close();
      },
    };
  } catch (err) {
    redis?.disconnect();
    await database.close();
    throw err;
  }
}
