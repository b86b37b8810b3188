/**
 * Backups are secrets (docs/rules.md#backup): BACKUP_DIR is 0700 and every backup file 0600 whatever
 * the umask, a file or link planted at the temporary name is refused and left alone, and a restore
 * refuses a line over 64 MiB without reading it whole.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../src/db';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  backupFileName,
  backupTables,
  tableName,
  writeBackup,
} from '../src/services/backup';
import { readMigrations } from '../src/db/migrate';
import { runScheduledBackup } from '../src/modules/backup/backup.job';
import { createTestContext, type TestContext } from './helpers';
import { adminUrl, copyPostgresTemplate, withDatabase } from './template';

const apiRoot = path.resolve(__dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-backup-secrets-'));
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const MiB = 2 ** 20;
let ctx: TestContext;
let umask: number;

beforeAll(async () => {
  // The most permissive umask: a mode that came from it would be 0666 / 0777.
  umask = process.umask(0o000);
  ctx = await createTestContext({}, { now: new Date('2026-03-01T02:00:00Z') });
});
afterAll(async () => {
  process.umask(umask);
  await ctx.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The scheduled backup's run into `dir`, at the test's clock. */
const scheduled = (dir: string) =>
  runScheduledBackup({
    db: ctx.database.db,
    clock: ctx.clock,
    config: { ...ctx.app.config, backup: { ...ctx.app.config.backup, dir, keep: 7 } },
    jobs: ctx.app.jobs,
  });

/** Runs `node --import tsx src/cli.ts ...args` (this process's umask); resolves its exit code and output. */
async function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: apiRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const stop = setTimeout(() => child.kill('SIGKILL'), 50_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(stop);
  return { code, output };
}

/** A new database with no table at all, to restore into. */
async function emptyDatabase(): Promise<{ url: string; database: Database; drop: () => Promise<void> }> {
  const name = `sertifikasi_secret_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = withDatabase(adminUrl(), name);
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  return {
    url,
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

const hasTable = async (database: Database, name: string) =>
  (
    (await database.db.execute(sql`select to_regclass(${`public.${name}`}) is not null as e`)) as {
      rows: { e: boolean }[];
    }
  ).rows[0]!.e;

describe('backup files are readable by their owner only', () => {
  it('the scheduled backup creates BACKUP_DIR 0700 and writes its file 0600, whatever the umask', async () => {
    const dir = path.join(tmp, 'new', 'backups');
    const name = await scheduled(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, name))).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual([name]);

    // A folder of ours that others may read is tightened.
    const open = path.join(tmp, 'open');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o755);
    const second = await scheduled(open);
    expect(mode(open)).toBe(0o700);
    expect(mode(path.join(open, second))).toBe(0o600);
  });

  it('the download’s temporary copy is 0600', async () => {
    const file = path.join(tmp, 'download.gz');
    await writeBackup(ctx.database.db, file, ctx.clock.now());
    expect(mode(file)).toBe(0o600);
  });

  it('`npm run backup` writes its file 0600, replacing a file of that name, leaving nothing beside it', async () => {
    const dir = path.join(tmp, 'cli');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'mine.backup');
    fs.writeFileSync(file, 'an older file', { mode: 0o644 });
    const copy = await copyPostgresTemplate();
    try {
      const res = await cli(['backup', file], { DATABASE_URL: copy.url });
      expect(res.output).toContain(`Backup written to ${file}.`);
      expect(res.code).toBe(0);
    } finally {
      await copy.drop();
    }
    expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['mine.backup']);
    const header = zlib.gunzipSync(fs.readFileSync(file)).toString().split('\n')[0]!;
    expect(JSON.parse(header)).toMatchObject({ format: BACKUP_FORMAT, version: BACKUP_VERSION });
  });
});

describe('something planted at the temporary name', () => {
  it('a link or a file there is refused, never followed nor overwritten, and left as it was', async () => {
    const dir = path.join(tmp, 'planted');
    fs.mkdirSync(dir, { mode: 0o700 });
    const name = backupFileName(ctx.clock, ctx.clock.now());
    const partial = path.join(dir, `.${name}.${process.pid}.partial`);
    const target = path.join(tmp, 'elsewhere.txt');
    fs.writeFileSync(target, 'not a backup', { mode: 0o644 });
    const missing = path.join(tmp, 'would-be-created.txt');

    for (const plant of [
      () => fs.symlinkSync(target, partial),
      () => fs.symlinkSync(missing, partial),
      () => fs.writeFileSync(partial, 'planted', { mode: 0o644 }),
    ]) {
      plant();
      const planted = fs.lstatSync(partial);
      await expect(scheduled(dir)).rejects.toThrow(`${partial} already exists`);
      // The link's target untouched (or still absent), the planted name as it was, no backup made.
      expect(fs.readFileSync(target, 'utf8')).toBe('not a backup');
      expect(mode(target)).toBe(0o644);
      expect(fs.existsSync(missing)).toBe(false);
      const after = fs.lstatSync(partial);
      expect([after.ino, after.mode, after.size]).toEqual([planted.ino, planted.mode, planted.size]);
      expect(fs.readdirSync(dir)).toEqual([path.basename(partial)]);
      fs.rmSync(partial);
    }
    // With the name free again, the run succeeds.
    expect(await scheduled(dir)).toBe(name);
  });
});

/** A gzip backup whose second line is a row of `lineBytes` bytes, written as a stream (no such string is built). */
async function backupWithLongLine(file: string, lineBytes: number): Promise<void> {
  const gzip = zlib.createGzip();
  const done = pipeline(gzip, fs.createWriteStream(file));
  const write = async (chunk: string | Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  const header = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    created_at: ctx.clock.now().toISOString(),
    migrations: readMigrations().map((m) => m.name),
    tables: backupTables().map(tableName),
  };
  await write(`${JSON.stringify(header)}\n`);
  const start = '{"t":"companies","r":{"name":"';
  const end = '"}}';
  await write(start);
  const filler = Buffer.alloc(MiB, 'x');
  let left = lineBytes - start.length - end.length;
  for (; left > 0; left -= filler.length)
    await write(left >= filler.length ? filler : filler.subarray(0, left));
  await write(`${end}\n${JSON.stringify({ end: true, counts: { companies: 1 } })}\n`);
  gzip.end();
  await done;
}

describe('a restore refuses a line over 64 MiB', () => {
  const file = path.join(tmp, 'long-line.backup');
  beforeAll(async () => backupWithLongLine(file, 70 * MiB));

  it('with the damaged-file refusal, writing nothing, holding far less memory than the line', async () => {
    const target = await emptyDatabase();
    try {
      // In a small process of its own (test/restore-memory.ts), where a full collection before each
      // memory sample is cheap. V8 frees the memory of collected buffers on a background thread
      // afterwards, so a sample could still count the chunks already read and let go of (22-32 MB
      // on some machines instead of about 2.4); swept with the collection, it does not.
      const child = spawn(
        process.execPath,
        [
          '--expose-gc',
          '--no-concurrent-array-buffer-sweeping',
          '--import',
          'tsx',
          'test/restore-memory.ts',
          file,
        ],
        {
          cwd: apiRoot,
          env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: target.url },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      expect(await once(child, 'exit')).toEqual([0, null]);
      const { error, heldBytes, samples } = JSON.parse(out) as {
        error: { name: string; message: string } | null;
        heldBytes: number;
        samples: number;
      };
      expect(error).toEqual({
        name: 'RestoreRefusedError',
        message: `The backup file ${file} is damaged or not a backup (line 2 is longer than 64 MiB, the most a line may hold); nothing was written.`,
      });
      // A reader that kept the line up to the cap would hold 64 MiB; this one holds a chunk or two.
      expect(samples).toBeGreaterThan(0);
      expect(heldBytes).toBeLessThan(16 * MiB);
      expect(await hasTable(target.database, 'companies')).toBe(false);
    } finally {
      await target.drop();
    }
  });

  it('`npm run restore` says so and exits 3', async () => {
    const target = await emptyDatabase();
    try {
      const res = await cli(['restore', file], { DATABASE_URL: target.url });
      expect(res.output).toContain(
        'line 2 is longer than 64 MiB, the most a line may hold); nothing was written.',
      );
      expect(res.code).toBe(3);
      expect(await hasTable(target.database, 'companies')).toBe(false);
    } finally {
      await target.drop();
    }
  });
});
