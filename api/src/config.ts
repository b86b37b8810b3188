import path from 'node:path';
import { remoteUrlsFromEnv } from './remotes';

/** Every setting the API reads, from the environment (README lists them). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  publicBaseUrl: string;
  timeZone: string;
  redisUrl: string | undefined;
  logLevel: string;
  trustProxy: boolean;
  migrateOnStart: boolean;
  /** Requests a minute per address on public endpoints (login, certificate checks). */
  publicRateLimit: number;
  /** Folder holding shell/dist and <module>/dist (the repository root by default). */
  portalRoot: string;
  /** Base URLs of modules deployed elsewhere, by folder (REMOTE_<FOLDER>_URL). */
  remoteUrls: Partial<Record<string, string>>;
  /** PostgreSQL connections per API process (DB_POOL_SIZE). */
  dbPoolSize: number;
  /** PostgreSQL cancels a statement running longer (DB_STATEMENT_TIMEOUT_MS; 0: never). */
  dbStatementTimeoutMs: number;
  /** A query taking at least this long is logged at warn with its duration (SLOW_QUERY_MS). */
  slowQueryMs: number;
  /** Argon2 cost; tests use cheaper parameters. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 8080);
  const isTest = env.NODE_ENV === 'test';
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    timeZone: env.TZ || 'Asia/Jakarta',
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || (isTest ? 'silent' : 'info'),
    trustProxy: bool(env.TRUST_PROXY, false),
    migrateOnStart: bool(env.MIGRATE_ON_START, true),
    publicRateLimit: int('RATE_LIMIT_PUBLIC', env.RATE_LIMIT_PUBLIC, 120),
    // api/src/config.ts (tests) and api/dist/server.js (bundle) both sit two levels below the root.
    portalRoot: path.resolve(env.PORTAL_ROOT || path.join(__dirname, '..', '..')),
    remoteUrls: remoteUrlsFromEnv(env),
    dbPoolSize: Math.max(1, int('DB_POOL_SIZE', env.DB_POOL_SIZE, 10)),
    dbStatementTimeoutMs: int('DB_STATEMENT_TIMEOUT_MS', env.DB_STATEMENT_TIMEOUT_MS, 15_000),
    slowQueryMs: int('SLOW_QUERY_MS', env.SLOW_QUERY_MS, 500),
    argon2: isTest
      ? { memoryCost: 1024, timeCost: 1, parallelism: 1 }
      : { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  };
}
