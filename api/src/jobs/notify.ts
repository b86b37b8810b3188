/**
 * "Who is told" on the job engine (docs/rules.md#notifications, docs/architecture.md
 * "Notifications"): four tasks.
 *
 * - `send-mail` and `deliver-webhooks`: every minute (one job per slot across the cluster), and
 *   kicked right after something is queued for them by a job or a route of ours (the reminder run,
 *   the digest, 'Kirim Ulang'); each drains what is due (`sendDueMail`, `deliverDueWebhooks`, which
 *   claim their rows so two processes never send one twice). Their queues are `stately`: one job
 *   running and at most one waiting, so kicks during a run fold into one more pass.
 *   `deliver-webhooks` is also kicked once any transaction that queued deliveries commits (a form
 *   save, an import's chunk: db/after-commit.ts), and a run under way on this process is rung to
 *   look at once: a record's event leaves within seconds of its write.
 * - `reminders`: daily at REMINDER_SCHEDULE (08:00 in `TZ` by default), `runReminders`.
 * - `weekly-digest`: at DIGEST_SCHEDULE (Monday 07:00 in `TZ` by default), `runDigest`.
 *
 * Reminders and digests carry their own once-only keys, so the engine's retries of a failed run
 * (or a second run the same day, after a restart) queue nothing twice. Their last success is in
 * `scheduled_runs`.
 */
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db, Executor } from '../db';
import { onCommitted } from '../db/after-commit';
import { scheduledRuns } from '../db/schema';
import type { Clock } from '../lib/clock';
import { type Mailer, sendDueMail } from '../notify/mail';
import { runDigest, runReminders } from '../notify/remind';
import type { DueResult } from '../notify/retry';
import { deliverDueWebhooks, Doorbell } from '../notify/webhook-delivery';
import { WEBHOOK_DELIVERIES_QUEUED } from '../notify/webhooks';
import { JobInterrupted, type JobEngine, type TaskDef } from './engine';

export const SEND_MAIL_TASK = 'send-mail';
export const DELIVER_WEBHOOKS_TASK = 'deliver-webhooks';
export const REMINDERS_TASK = 'reminders';
export const DIGEST_TASK = 'weekly-digest';

/** Rows a sender claims per pass; it passes again while a pass was full. */
const PASS = 20;

export interface NotifyDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobEngine;
  mailer: Mailer | null;
}

/** Asks the senders to run now (after the caller's transaction commits, with `tx`). */
export async function kickSenders(
  deps: Pick<NotifyDeps, 'jobs' | 'config'>,
  opts: { tx?: Executor; mail?: boolean; webhooks?: boolean } = {},
): Promise<void> {
  const { tx, mail = true, webhooks = true } = opts;
  const { jobs } = deps;
  if (!jobs.started || !deps.config.notify.sendSchedule) return;
  if (mail) await jobs.send(SEND_MAIL_TASK, {}, tx ? { tx } : {});
  if (webhooks) await jobs.send(DELIVER_WEBHOOKS_TASK, {}, tx ? { tx } : {});
}

/** A sender's job ends after this long even with more due (the next minute's job goes on). */
const DRAIN_MS = 5 * 60_000;

/**
 * Passes of `pass` until one claims less than a full batch, DRAIN_MS have gone by (a backlog of
 * thousands is sent by the following jobs, each well within the queue's expiry), or the process
 * stops.
 */
async function drain(pass: () => Promise<DueResult>, stopping: AbortSignal): Promise<void> {
  const end = Date.now() + DRAIN_MS;
  for (;;) {
    if (stopping.aborted) throw new JobInterrupted();
    const done = await pass();
    if (done.tried < PASS || Date.now() > end) return;
  }
}

/**
 * `deliver-webhooks`: one run sends until nothing is due (notify/webhook-delivery.ts: endpoints side
 * by side, WEBHOOK_CONCURRENCY at once), at most DRAIN_MS. A commit that queued deliveries rings
 * the run under way here and sends a job (one sending at a time; commits meanwhile fold into one
 * more), which another process's worker, or this one's at once (`wake`), takes.
 */
function defineWebhookSender(
  deps: NotifyDeps,
  queue: NonNullable<TaskDef<object>['queue']>,
  schedule: TaskDef<object>['schedule'],
): void {
  const { db, clock, config, jobs } = deps;
  const doorbell = new Doorbell();
  let kicking = false;
  let again = false;
  const kick = async () => {
    do {
      again = false;
      await kickSenders(deps, { mail: false });
      jobs.wake(DELIVER_WEBHOOKS_TASK);
    } while (again);
  };
  onCommitted(db, WEBHOOK_DELIVERIES_QUEUED, () => {
    doorbell.ring();
    if (kicking) {
      again = true;
      return;
    }
    kicking = true;
    // Not sent (the engine unreachable): the minute's run sends them.
    void kick()
      .catch(() => undefined)
      .finally(() => {
        kicking = false;
      });
  });
  jobs.define({
    name: DELIVER_WEBHOOKS_TASK,
    queue,
    schedule,
    handler: async (_data, run) => {
      await deliverDueWebhooks(db, clock, {
        allowPrivate: config.webhookAllowPrivate,
        allowPorts: config.webhookAllowPorts,
        concurrency: config.webhookConcurrency,
        stopping: run.stopping,
        doorbell,
        forMs: DRAIN_MS,
      });
      if (run.stopping.aborted) throw new JobInterrupted();
    },
  });
}

async function recordRun(db: Db, name: string, at: Date, ok: boolean): Promise<void> {
  const column = ok ? 'last_success_at' : 'last_failure_at';
  await db
    .insert(scheduledRuns)
    .values({ name, [column]: at })
    .onConflictDoUpdate({ target: scheduledRuns.name, set: { [column]: sql.raw(`excluded.${column}`) } });
}

/** Describes the four tasks to the engine (REMINDER_SCHEDULE or DIGEST_SCHEDULE `off`: not scheduled). */
export function defineNotifyTasks(deps: NotifyDeps): void {
  const { db, clock, config, jobs } = deps;
  const every = (cron: string | null) => (cron ? { cron, timeZone: config.timeZone } : null);
  const sender = { policy: 'stately' as const, retryLimit: 0, expireInSeconds: 15 * 60 };
  jobs.define({
    name: SEND_MAIL_TASK,
    queue: sender,
    schedule: every(config.notify.sendSchedule),
    handler: (_data, run) => drain(() => sendDueMail(db, clock, deps.mailer, { limit: PASS }), run.stopping),
  });
  defineWebhookSender(deps, sender, every(config.notify.sendSchedule));
  const daily = {
    policy: 'singleton' as const,
    retryLimit: 3,
    retryDelay: 300,
    retryBackoff: true,
    expireInSeconds: 3 * 3600,
  };
  jobs.define({
    name: REMINDERS_TASK,
    queue: daily,
    schedule: every(config.notify.reminderSchedule),
    handler: async (_data, run) => {
      try {
        const done = await runReminders(db, clock, {
          publicBaseUrl: config.publicBaseUrl,
          stopping: run.stopping,
        });
        if (run.stopping.aborted) throw new JobInterrupted();
        if (done.mails || done.deliveries)
          await kickSenders(deps, { mail: done.mails > 0, webhooks: done.deliveries > 0 });
        await recordRun(db, REMINDERS_TASK, clock.now(), true);
      } catch (err) {
        if (!(err instanceof JobInterrupted))
          await recordRun(db, REMINDERS_TASK, clock.now(), false).catch(() => undefined);
        throw err;
      }
    },
  });
  jobs.define({
    name: DIGEST_TASK,
    queue: daily,
    schedule: every(config.notify.digestSchedule),
    handler: async () => {
      try {
        if ((await runDigest(db, clock)) > 0) await kickSenders(deps, { webhooks: false });
        await recordRun(db, DIGEST_TASK, clock.now(), true);
      } catch (err) {
        await recordRun(db, DIGEST_TASK, clock.now(), false).catch(() => undefined);
        throw err;
      }
    },
  });
}
