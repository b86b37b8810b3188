/**
 * The scheduled backup (docs/rules.md#backup and #jobs): a task of the job
 * engine run at each slot of BACKUP_SCHEDULE (cron in TZ), one run at a time across the cluster (a
 * singleton queue; one job per slot). Each run writes the same file as `GET /api/backup`
 * (services/backup.ts) into BACKUP_DIR under a temporary name, renames it when complete, then removes the
 * oldest files beyond BACKUP_KEEP. Backups are secrets: BACKUP_DIR is kept 0700 and each file is 0600
 * (lib/secret-file.ts). Its last success is in scheduled_runs (and so in /api/metrics as
 * backup_last_success_timestamp_seconds, whichever process ran it); a failure is logged at error by
 * the engine and retried.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { backupFileName, writeBackupFile } from '../../services/backup';
import { scheduledRuns } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { ensureSecretDir } from '../../lib/secret-file';
import type { JobEngine } from '../../jobs/engine';

export const BACKUP_TASK = 'scheduled-backup';

/** The files a scheduled backup writes (and retention counts): `sertifikasi-YYYYMMDD-HHmmss.backup`. */
const BACKUP_FILE = /^sertifikasi-\d{8}-\d{6}\.backup$/;

export interface BackupDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobEngine;
}

/** Removes the oldest backup files of `dir` beyond `keep` (names sort by time); answers those removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const files = fs
    .readdirSync(dir)
    .filter((f) => BACKUP_FILE.test(f))
    .sort();
  const gone = files.slice(0, Math.max(0, files.length - keep));
  for (const f of gone) fs.rmSync(path.join(dir, f), { force: true });
  return gone;
}

/** One scheduled backup: the file written and renamed, old ones pruned, the success recorded. */
export async function runScheduledBackup(deps: BackupDeps): Promise<string> {
  const { dir, keep } = deps.config.backup;
  if (!dir) throw new Error('BACKUP_DIR is not set');
  const now = deps.clock.now();
  const name = backupFileName(deps.clock, now);
  try {
    ensureSecretDir(dir);
    // `.<name>.<pid>.partial` first, renamed when complete; a failed run leaves nothing of its own.
    await writeBackupFile(deps.db, path.join(dir, name), now);
  } catch (err) {
    await deps.db
      .insert(scheduledRuns)
      .values({ name: BACKUP_TASK, last_failure_at: deps.clock.now() })
      .onConflictDoUpdate({
        target: scheduledRuns.name,
        set: { last_failure_at: sql`excluded.last_failure_at` },
      })
      .catch(() => undefined);
    throw err;
  }
  pruneBackups(dir, keep);
  await deps.db
    .insert(scheduledRuns)
    .values({ name: BACKUP_TASK, last_success_at: now, last_file: name })
    .onConflictDoUpdate({
      target: scheduledRuns.name,
      set: { last_success_at: sql`excluded.last_success_at`, last_file: sql`excluded.last_file` },
    });
  return name;
}

/** When a scheduled backup last succeeded (any process of the cluster), or null. */
export async function lastBackupSuccess(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: scheduledRuns.last_success_at })
    .from(scheduledRuns)
    .where(eq(scheduledRuns.name, BACKUP_TASK));
  return row?.at ?? null;
}

/** Describes the scheduled backup to the engine (BACKUP_SCHEDULE off: no schedule). */
export function defineBackupTask(deps: BackupDeps): void {
  const { schedule: cron, dir } = deps.config.backup;
  const schedule = dir ? cron : null;
  deps.jobs.define({
    name: BACKUP_TASK,
    queue: {
      policy: 'singleton',
      retryLimit: 2,
      retryDelay: 60,
      retryBackoff: true,
      expireInSeconds: 3 * 3600,
    },
    schedule: schedule ? { cron: schedule, timeZone: deps.config.timeZone } : null,
    handler: async () => {
      await runScheduledBackup(deps);
    },
  });
}
