/**
 * Scheduled backups (docs/operations.md#scheduled-backups): when the clock passes a slot of BACKUP_SCHEDULE,
 * the job engine runs one backup: the same file as GET /api/backup in BACKUP_DIR (complete: no
 * temporary file left), the oldest beyond BACKUP_KEEP removed, its time in /api/metrics.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { checkServerConfig, loadConfig } from '../src/config';
import { createTestContext, type TestContext } from './helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-scheduled-'));
const OLD = [
  'sertifikasi-20200101-020000.backup',
  'sertifikasi-20200102-020000.backup',
  'sertifikasi-20200103-020000.backup',
];
let ctx: TestContext;

beforeAll(async () => {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of OLD) fs.writeFileSync(path.join(dir, name), 'old');
  // Every minute: a slot has always just passed when the engine first looks.
  ctx = await createTestContext({
    BACKUP_SCHEDULE: '* * * * *',
    BACKUP_DIR: dir,
    BACKUP_KEEP: '2',
    JOB_CRON_CHECK_SECONDS: '1',
    JOB_POLL_MS: '500',
    METRICS_TOKEN: 'metrics-secret-2',
  });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const lastSuccess = async () => {
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/metrics',
    headers: { authorization: 'Bearer metrics-secret-2' },
  });
  const line = res.body.split('\n').find((l) => l.startsWith('backup_last_success_timestamp_seconds '));
  return Number(line?.split(' ')[1]);
};

describe('scheduled backup', () => {
  it('writes the backup file at the slot, keeps BACKUP_KEEP files and reports its time', async () => {
    expect(await lastSuccess()).toBe(0);
    const fresh = () => fs.readdirSync(dir).filter((f) => !OLD.includes(f) && !f.startsWith('.'));
    for (let i = 0; fresh().length === 0; i++) {
      if (i > 1200) throw new Error('no scheduled backup within two minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    // The rename ends the run; retention follows it at once.
    for (let i = 0; fs.readdirSync(dir).includes(OLD[1]!); i++) {
      if (i > 100) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [made] = fresh();
    expect(made).toMatch(/^sertifikasi-\d{8}-\d{6}\.backup$/);
    // Two files kept: the newest old one and the new one; no temporary file left.
    expect(fs.readdirSync(dir).sort()).toEqual([OLD[2], made].sort());
    // A secret: its owner's only (docs/rules.md#backup).
    expect(fs.statSync(path.join(dir, made!)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    // The very file GET /api/backup sends: gzip, a header line naming the format, then the tables.
    const lines = zlib
      .gunzipSync(fs.readFileSync(path.join(dir, made!)))
      .toString()
      .split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'sertifikasi-backup', version: 1 });
    expect(JSON.parse(lines.filter(Boolean).at(-1)!)).toMatchObject({ end: true });
    for (let i = 0; (await lastSuccess()) === 0; i++) {
      if (i > 100) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await lastSuccess()) * 1000).toBeGreaterThan(Date.now() - 5 * 60_000);
  });
});

describe('backup settings', () => {
  it('BACKUP_SCHEDULE defaults to 02:00 and takes off; BACKUP_DIR is required with DATABASE_URL', () => {
    const base = { NODE_ENV: 'production', DATA_DIR: '/srv/sertifikasi' };
    expect(loadConfig(base).backup).toEqual({
      schedule: '0 2 * * *',
      dir: path.resolve('/srv/sertifikasi/backups'),
      keep: 7,
    });
    expect(loadConfig({ ...base, BACKUP_SCHEDULE: 'off' }).backup.schedule).toBeNull();
    expect(() => loadConfig({ ...base, BACKUP_SCHEDULE: 'every night' })).toThrow('BACKUP_SCHEDULE');
    // Commands (migrate, backup, restore) need no BACKUP_DIR; the server refuses to start without it.
    const external = loadConfig({ ...base, DATABASE_URL: 'postgres://x/y' });
    expect(external.backup.dir).toBeNull();
    expect(() => checkServerConfig(external)).toThrow('BACKUP_DIR is required');
    expect(() =>
      checkServerConfig(loadConfig({ ...base, DATABASE_URL: 'postgres://x/y', BACKUP_SCHEDULE: 'off' })),
    ).not.toThrow();
    expect(
      loadConfig({ ...base, DATABASE_URL: 'postgres://x/y', BACKUP_DIR: '/b', BACKUP_KEEP: '3' }).backup,
    ).toEqual({ schedule: '0 2 * * *', dir: '/b', keep: 3 });
  });
});
