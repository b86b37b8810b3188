/**
 * The IAF CertSearch task of the job engine (docs/rules.md#iaf-certsearch, #jobs): at each slot of
 * IAF_CERTSEARCH_SCHEDULE (cron in TZ) one upload is queued for every company whose upload is on,
 * each a job of its own; a job with an upload's id runs it (iaf-certsearch.service.ts). A job that
 * runs out of retries leaves its upload failed.
 */
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { iafCertsearchUploads } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { JobEngine } from '../../jobs/engine';
import { enabledCompanies, queueUpload, runUpload } from './iaf-certsearch.service';

export const IAF_TASK = 'iaf-certsearch-upload';

export interface IafTaskDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobEngine;
}

/** Queues an upload and its job in one transaction, then wakes this process's worker. */
export async function startUpload(
  deps: IafTaskDeps,
  companyId: string,
  opts: { all: boolean; trigger: 'manual' | 'schedule' },
) {
  const upload = await deps.db.transaction(async (tx) => {
    const queued = await queueUpload(tx, deps.clock, companyId, opts);
    await deps.jobs.send(IAF_TASK, { id: queued.id }, { tx, id: queued.id });
    return queued;
  });
  deps.jobs.wake(IAF_TASK);
  return upload;
}

export function defineIafTask(deps: IafTaskDeps): void {
  const { schedule } = deps.config.iafCertsearch;
  deps.jobs.define<{ id?: string }>({
    name: IAF_TASK,
    queue: {
      retryLimit: 2,
      retryDelay: 60,
      retryBackoff: true,
      // An upload waits IAF_CERTSEARCH_PAUSE_MS between its calls: a day at most (the engine's limit),
      // 144 calls of 100 at the default pause.
      expireInSeconds: 24 * 3600,
    },
    schedule: schedule ? { cron: schedule, timeZone: deps.config.timeZone } : null,
    handler: async (data, run) => {
      if (data.id) return runUpload(deps, data.id, run.stopping);
      for (const company of await enabledCompanies(deps.db))
        await startUpload(deps, company, { all: false, trigger: 'schedule' });
    },
    exhausted: async (data) => {
      if (!data.id) return;
      await deps.db
        .update(iafCertsearchUploads)
        .set({ state: 'failed', error: 'Unggahan gagal', finished_at: deps.clock.now() })
        .where(eq(iafCertsearchUploads.id, data.id));
    },
  });
}
