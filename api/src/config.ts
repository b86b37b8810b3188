import path from 'node:path';
import { passwordField, usernameField } from '@sertifikasi/shared-contracts';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy';
import { remoteUrlsFromEnv } from './remotes';
import { type OverloadSettings, overloadSettings } from './lib/overload-settings';

/** The time zone when `TZ` is unset: the deployment's calendar (today, buckets) is Jakarta's. */
export const DEFAULT_TIME_ZONE = 'Asia/Jakarta';

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
  /** Proxies whose X-Forwarded-For is believed: none, a hop count, or their addresses/CIDRs. */
  trustProxy: TrustProxy;
  migrateOnStart: boolean;
  /** Requests a minute per address on public endpoints (login, certificate checks). */
  publicRateLimit: number;
  /** `/api/health` requests a second per address (RATE_LIMIT_HEALTH), counted over 10 s. */
  healthRateLimit: number;
  /** Failed bearer-token look-ups a second per address (RATE_LIMIT_BAD_TOKEN), counted over 10 s. */
  badTokenRateLimit: number;
  /** Images re-encoded at once (IMAGE_CONCURRENCY, 1 or more): the rest wait, so sign-ins keep threads. */
  imageConcurrency: number;
  /** List totals, pages and whole answers one process keeps (LIST_CACHE_ENTRIES; 0: none; services/list-cache.ts). */
  listCacheEntries: number;
  /** Folder holding shell/dist and <module>/dist (the repository root by default). */
  portalRoot: string;
  /** Base URLs of modules deployed elsewhere, by folder (REMOTE_<FOLDER>_URL). */
  remoteUrls: Partial<Record<string, string>>;
  /** PostgreSQL connections per API process (DB_POOL_SIZE). */
  dbPoolSize: number;
  /** PostgreSQL cancels a statement running longer (DB_STATEMENT_TIMEOUT_MS; 0: never). */
  dbStatementTimeoutMs: number;
  /** A query waiting longer for a pool connection fails with 503 (DB_ACQUIRE_TIMEOUT_MS; 0: never). */
  dbAcquireTimeoutMs: number;
  /** A query taking at least this long is logged at warn with its duration (SLOW_QUERY_MS). */
  slowQueryMs: number;
  /** When the process sheds new requests with 503 (OVERLOAD_*; plugins/overload.ts). */
  overload: OverloadSettings;
  /** Bearer token of GET /api/metrics (METRICS_TOKEN); unset: the route answers 404. */
  metricsToken: string | undefined;
  /**
   * The SMTP server mail goes through (SMTP_URL, `smtp://` or `smtps://` with credentials);
   * unset: nothing is sent and the outbox says so (notify/mail.ts).
   */
  smtpUrl: string | undefined;
  /**
   * SMTP without verified TLS is allowed (SMTP_INSECURE): `smtp://` may stay in plain text when the
   * server offers no STARTTLS, and a certificate is not checked (docs/rules.md#notifications).
   */
  smtpInsecure: boolean;
  /** The sender of every email (MAIL_FROM). */
  mailFrom: string;
  /** Webhooks may point at private, loopback and link-local addresses, over plain HTTP too (WEBHOOK_ALLOW_PRIVATE). */
  webhookAllowPrivate: boolean;
  /** Ports a webhook may use besides 443 (WEBHOOK_ALLOW_PORTS: a comma list, or `*` for any). */
  webhookAllowPorts: readonly number[] | '*';
  /** Webhook deliveries one process has in flight at once, one per endpoint (WEBHOOK_CONCURRENCY). */
  webhookConcurrency: number;
  /** 'Kirim Tes' and 'Kirim Ulang' of webhooks a user may ask each minute (WEBHOOK_SEND_RATE_LIMIT). */
  webhookSendRateLimit: number;
  /** Rows of an import applied in one transaction, with the job's progress (IMPORT_CHUNK_ROWS). */
  importChunkRows: number;
  /** The job engine (jobs/engine.ts): idle poll (JOB_POLL_MS), dead-process check (JOB_MONITOR_SECONDS), schedule check (JOB_CRON_CHECK_SECONDS). */
  jobs: { pollMs: number; monitorSeconds: number; cronCheckSeconds: number };
  /**
   * The scheduled backup (modules/backup/backup.job.ts): a cron expression in `timeZone` or null (`off`);
   * the folder its files go to; how many files are kept.
   */
  backup: { schedule: string | null; dir: string | null; keep: number };
  /**
   * Who is told, on the job engine (jobs/notify.ts), each a cron expression in `timeZone` or null
   * (`off`): the senders of due mail and webhook deliveries (NOTIFY_SEND_SCHEDULE, every minute; off:
   * neither scheduled nor kicked, for tests that send themselves), the daily reminders
   * (REMINDER_SCHEDULE, 08:00) and the weekly digest (DIGEST_SCHEDULE, Monday 07:00). All off under
   * NODE_ENV=test unless set.
   */
  notify: { sendSchedule: string | null; reminderSchedule: string | null; digestSchedule: string | null };
  /**
   * IAF CertSearch uploads (modules/iaf-certsearch/, docs/rules.md#iaf-certsearch): the API's base
   * (IAF_CERTSEARCH_URL), the upload's cron in `timeZone` or null (IAF_CERTSEARCH_SCHEDULE, `off`;
   * off under NODE_ENV=test unless set), the pause between two calls (IAF_CERTSEARCH_PAUSE_MS).
   */
  iafCertsearch: { url: string; schedule: string | null; pauseMs: number };
  /** Argon2 cost; tests use cheaper parameters. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
}

/** IAF CertSearch's public API, where uploads go unless IAF_CERTSEARCH_URL says otherwise. */
export const IAF_CERTSEARCH_DEFAULT_URL = 'https://api.iafcertsearch.org';

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

/**
 * ADMIN_USERNAME and ADMIN_PASSWORD follow the rules of any user's (docs/rules.md#sign-in): a
 * server given ones it could never accept from a form refuses to start, saying which and why.
 */
function adminCredential(
  name: string,
  value: string | undefined,
  schema: { validateSync(value: unknown): string },
) {
  if (value === undefined) return undefined;
  try {
    return schema.validateSync(value);
  } catch (err) {
    throw new Error(`${name} is not valid: ${(err as Error).message}`);
  }
}

/** Options of an SMTP_URL's query that would weaken its TLS: SMTP_INSECURE says that, nothing else. */
const SMTP_TLS_OPTIONS = /^(requiretls|ignoretls|opportunistictls|secure|tls\..*)$/i;

/**
 * SMTP_URL: unset, or an smtp:// or smtps:// URL (a server given anything else refuses to start),
 * whose query sets no TLS option (docs/rules.md#notifications).
 */
function smtpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('SMTP_URL is not a URL (smtp://user:password@host:587 or smtps://...)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}"`);
  const tls = [...url.searchParams.keys()].find((key) => SMTP_TLS_OPTIONS.test(key));
  if (tls)
    throw new Error(`SMTP_URL may not set "${tls}": TLS is required and verified unless SMTP_INSECURE=true`);
  return value;
}

/** WEBHOOK_ALLOW_PORTS: unset (443 only), `*`, or a comma list of ports (1-65535). */
function allowPorts(value: string | undefined): readonly number[] | '*' {
  const v = (value ?? '').trim();
  if (v === '*') return '*';
  if (!v) return [];
  return v.split(',').map((part) => {
    const port = Number(part.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      throw new Error(`WEBHOOK_ALLOW_PORTS must be "*" or a comma list of ports, got "${v}"`);
    return port;
  });
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/** A schedule setting (BACKUP_SCHEDULE, REMINDER_SCHEDULE...): a cron expression (5 or 6 fields), or `off`. */
function cronSetting(name: string, value: string | undefined, fallback: string): string | null {
  const v = (value ?? '').trim();
  if (!v) return fallback;
  if (v.toLowerCase() === 'off') return null;
  const fields = v.split(/\s+/).length;
  if (fields < 5 || fields > 6) throw new Error(`${name} must be a cron expression or "off", got "${v}"`);
  return v;
}

/** BACKUP_SCHEDULE: a cron expression (5 or 6 fields), or `off`. */
const backupSchedule = (value: string | undefined) => cronSetting('BACKUP_SCHEDULE', value, '0 2 * * *');

/**
 * BACKUP_DIR, else DATA_DIR/backups; with DATABASE_URL there is no DATA_DIR of ours, so none
 * (null): the server then refuses to start while backups are scheduled (`checkServerConfig`).
 */
function backupDir(env: NodeJS.ProcessEnv): string | null {
  if (env.BACKUP_DIR) return path.resolve(env.BACKUP_DIR);
  if (env.DATABASE_URL) return null;
  return path.resolve(env.DATA_DIR || './data', 'backups');
}

/** What the server needs beyond what every command does: BACKUP_DIR with DATABASE_URL, unless backups are off. */
export function checkServerConfig(config: Config): void {
  if (config.backup.schedule && !config.backup.dir)
    throw new Error('BACKUP_DIR is required with DATABASE_URL (or BACKUP_SCHEDULE=off)');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 8080);
  const isTest = env.NODE_ENV === 'test';
  const schedule = backupSchedule(env.BACKUP_SCHEDULE ?? (isTest ? 'off' : undefined));
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    adminUsername: adminCredential('ADMIN_USERNAME', env.ADMIN_USERNAME || 'admin', usernameField())!,
    adminPassword: adminCredential('ADMIN_PASSWORD', env.ADMIN_PASSWORD || undefined, passwordField()),
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    timeZone: env.TZ || DEFAULT_TIME_ZONE,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || (isTest ? 'silent' : 'info'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    migrateOnStart: bool(env.MIGRATE_ON_START, true),
    publicRateLimit: int('RATE_LIMIT_PUBLIC', env.RATE_LIMIT_PUBLIC, 120),
    healthRateLimit: Math.max(1, int('RATE_LIMIT_HEALTH', env.RATE_LIMIT_HEALTH, 20)),
    badTokenRateLimit: Math.max(1, int('RATE_LIMIT_BAD_TOKEN', env.RATE_LIMIT_BAD_TOKEN, 20)),
    imageConcurrency: Math.max(1, int('IMAGE_CONCURRENCY', env.IMAGE_CONCURRENCY, 1)),
    listCacheEntries: Math.max(0, int('LIST_CACHE_ENTRIES', env.LIST_CACHE_ENTRIES, 10_000)),
    // api/src/config.ts (tests) and api/dist/server.js (bundle) both sit two levels below the root.
    portalRoot: path.resolve(env.PORTAL_ROOT || path.join(__dirname, '..', '..')),
    remoteUrls: remoteUrlsFromEnv(env),
    dbPoolSize: Math.max(1, int('DB_POOL_SIZE', env.DB_POOL_SIZE, 10)),
    dbStatementTimeoutMs: int('DB_STATEMENT_TIMEOUT_MS', env.DB_STATEMENT_TIMEOUT_MS, 15_000),
    dbAcquireTimeoutMs: int('DB_ACQUIRE_TIMEOUT_MS', env.DB_ACQUIRE_TIMEOUT_MS, 1500),
    slowQueryMs: int('SLOW_QUERY_MS', env.SLOW_QUERY_MS, 500),
    overload: overloadSettings(env),
    metricsToken: env.METRICS_TOKEN || undefined,
    smtpUrl: smtpUrl(env.SMTP_URL),
    smtpInsecure: bool(env.SMTP_INSECURE, false),
    mailFrom: env.MAIL_FROM || 'Sistem Sertifikasi <no-reply@localhost>',
    webhookAllowPrivate: bool(env.WEBHOOK_ALLOW_PRIVATE, false),
    webhookAllowPorts: allowPorts(env.WEBHOOK_ALLOW_PORTS),
    webhookConcurrency: Math.max(1, int('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 8)),
    webhookSendRateLimit: Math.max(1, int('WEBHOOK_SEND_RATE_LIMIT', env.WEBHOOK_SEND_RATE_LIMIT, 5)),
    importChunkRows: Math.max(1, int('IMPORT_CHUNK_ROWS', env.IMPORT_CHUNK_ROWS, 500)),
    jobs: {
      pollMs: Math.max(500, int('JOB_POLL_MS', env.JOB_POLL_MS, 1000)),
      monitorSeconds: Math.max(1, int('JOB_MONITOR_SECONDS', env.JOB_MONITOR_SECONDS, 15)),
      cronCheckSeconds: Math.min(
        45,
        Math.max(1, int('JOB_CRON_CHECK_SECONDS', env.JOB_CRON_CHECK_SECONDS, 30)),
      ),
    },
    backup: {
      schedule,
      dir: backupDir(env),
      keep: Math.max(1, int('BACKUP_KEEP', env.BACKUP_KEEP, 7)),
    },
    notify: {
      sendSchedule: cronSetting(
        'NOTIFY_SEND_SCHEDULE',
        env.NOTIFY_SEND_SCHEDULE ?? (isTest ? 'off' : undefined),
        '* * * * *',
      ),
      reminderSchedule: cronSetting(
        'REMINDER_SCHEDULE',
        env.REMINDER_SCHEDULE ?? (isTest ? 'off' : undefined),
        '0 8 * * *',
      ),
      digestSchedule: cronSetting(
        'DIGEST_SCHEDULE',
        env.DIGEST_SCHEDULE ?? (isTest ? 'off' : undefined),
        '0 7 * * 1',
      ),
    },
    iafCertsearch: {
      url: (env.IAF_CERTSEARCH_URL || IAF_CERTSEARCH_DEFAULT_URL).replace(/\/+$/, ''),
      schedule: cronSetting(
        'IAF_CERTSEARCH_SCHEDULE',
        env.IAF_CERTSEARCH_SCHEDULE ?? (isTest ? 'off' : undefined),
        '0 3 1 * *',
      ),
      pauseMs: int('IAF_CERTSEARCH_PAUSE_MS', env.IAF_CERTSEARCH_PAUSE_MS, 600_000),
    },
    argon2: isTest
      ? { memoryCost: 1024, timeCost: 1, parallelism: 1 }
      : { memoryCost: 19456, timeCost: 2, parallelism: 1 },
  };
}
