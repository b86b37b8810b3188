/**
 * Every task of the job engine, described in one place while the app is built (docs/architecture.md
 * "Jobs"): the import's apply, the scheduled backup, and the senders, reminders and digest of "who is
 * told", and the IAF CertSearch upload. A module's routes only send or wake its task; none describes one.
 */
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import type { Mailer } from '../notify/mail';
import { defineBackupTask } from '../modules/backup/backup.job';
import { defineIafTask } from '../modules/iaf-certsearch/iaf-certsearch.job';
import { defineImportTask, type HandedPlans } from '../modules/import/import.job';
import type { JobEngine } from './engine';
import { defineNotifyTasks } from './notify';

export interface TaskDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobEngine;
  mailer: Mailer | null;
  importPlans: HandedPlans;
}

export function defineTasks(deps: TaskDeps): void {
  const { db, clock, config, jobs } = deps;
  defineImportTask({ db, clock, config, jobs, plans: deps.importPlans });
  defineBackupTask({ db, clock, config, jobs });
  defineNotifyTasks({ db, clock, config, jobs, mailer: deps.mailer });
  defineIafTask({ db, clock, config, jobs });
}
