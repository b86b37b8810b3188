/**
 * IAF CertSearch (docs/rules.md#iaf-certsearch): readiness, a company's account settings (the key
 * written, never read back; audited without it), and the uploads: one queued by 'Unggah Sekarang'
 * or by the schedule, then run by the job (iaf-certsearch.job.ts): the ready schemes changed since
 * the last successful upload (all of them on the first and with 'Unggah Semua'), at most 100 a call,
 * IAF_CERTSEARCH_PAUSE_MS apart, each call retried with backoff; refused records logged with the
 * API's reason, sent again only once they change.
 */
import { and, eq } from 'drizzle-orm';
import {
  IAF_MESSAGES,
  type IafIncomplete,
  type IafReadiness,
  type IafRefusal,
  type IafSettings,
  type IafSettingsInput,
  type IafUpload,
} from '@sertifikasi/shared-contracts';
import type { Config } from '../../config';
import type { Db, Executor } from '../../db';
import { companies, iafCertsearchSettings, iafCertsearchUploads } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/crypto';
import { invalid, notFound } from '../../lib/errors';
import { JobInterrupted } from '../../jobs/engine';
import type { ServiceContext } from '../../services/context';
import { runWriteSequence } from '../../services/write-sequence';
import { checkCompanyInScope } from '../resource/resource.service';
import { sendRecords } from './iaf-certsearch.client';
import { type IafRecord, type IafSource, missingOf, toIafRecord } from './iaf-certsearch.mapping';
import { iafSources, lastSuccess, readSettings, toUpload } from './iaf-certsearch.repository';

/** Records in one call, as IAF asks. */
export const IAF_BATCH = 100;
/** Tries of one call before the upload stops (the first and three more). */
const CALL_TRIES = 4;
/** The first retry's wait at most; each next one waits twice as long. */
const MAX_FIRST_BACKOFF_MS = 60_000;

export const IAF_NO_KEY = IAF_MESSAGES.noKey;
export const IAF_KEY_REFUSED = 'Kunci API ditolak oleh IAF CertSearch';

/** 404 for a company that does not exist (its scope already checked: 403 outside it). */
export async function checkCompany(db: Executor, companyId: string): Promise<void> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!row) throw notFound();
}

/** How many of the company's schemes go, and what the incomplete ones miss. */
export async function readiness(db: Executor, companyId: string): Promise<IafReadiness> {
  let total = 0;
  const incomplete: IafIncomplete[] = [];
  for await (const batch of iafSources(db, companyId)) {
    for (const s of batch) {
      total++;
      const missing = missingOf(s);
      if (missing.length)
        incomplete.push({
          scheme_id: s.id,
          client_id: s.client.id,
          client_name: s.client.name,
          cert_number: s.cert_number,
          missing,
        });
    }
  }
  incomplete.sort(
    (a, b) => a.client_name.localeCompare(b.client_name) || a.scheme_id.localeCompare(b.scheme_id),
  );
  return { company_id: companyId, total, ready: total - incomplete.length, incomplete };
}

/** The ready schemes' records, a batch of sources at a time (the workbook and the upload). */
export async function* readyRecords(
  db: Executor,
  companyId: string,
  today: string,
  changed: (s: IafSource) => boolean = () => true,
): AsyncGenerator<IafRecord[]> {
  for await (const batch of iafSources(db, companyId))
    yield batch.filter((s) => !missingOf(s).length && changed(s)).map((s) => toIafRecord(s, today));
}

export async function readSettingsOf(db: Executor, companyId: string): Promise<IafSettings> {
  const row = await readSettings(db, companyId);
  return { enabled: row?.enabled ?? false, has_key: !!row?.api_key };
}

/**
 * Saves a company's settings: a key given replaces the stored one; switching on needs a key. Through
 * the one write sequence (services/write-sequence.ts): no after-write step follows them; audited as
 * the API answers them, with only whether the key changed (never the key).
 */
export async function saveSettings(ctx: ServiceContext, input: IafSettingsInput): Promise<IafSettings> {
  const companyId = input.company_id.toLowerCase();
  checkCompanyInScope(ctx.actor.scope, companyId);
  await checkCompany(ctx.tx, companyId);
  const stored = await readSettings(ctx.tx, companyId);
  const before = await readSettingsOf(ctx.tx, companyId);
  const key = input.api_key?.trim() || null;
  if (input.enabled && !key && !before.has_key) throw invalid({ api_key: IAF_NO_KEY }, IAF_NO_KEY);
  const now = ctx.clock.now();
  const [audited] = await runWriteSequence<unknown, IafSettings & { key_changed: boolean }>(ctx, {
    entity: undefined,
    auditEntity: 'iaf-certsearch-settings',
    action: stored ? 'update' : 'create',
    writes: [{ id: companyId, companyId, current: stored ?? null, before }],
    write: async () => {
      await ctx.tx
        .insert(iafCertsearchSettings)
        .values({
          company_id: companyId,
          api_key: key,
          enabled: input.enabled,
          created_at: now,
          updated_at: now,
        })
        .onConflictDoUpdate({
          target: iafCertsearchSettings.company_id,
          set: { enabled: input.enabled, updated_at: now, ...(key ? { api_key: key } : {}) },
        });
    },
    answers: async () =>
      new Map([[companyId, { ...(await readSettingsOf(ctx.tx, companyId)), key_changed: !!key }]]),
  });
  return { enabled: audited!.enabled, has_key: audited!.has_key };
}

/** Queues an upload of a company ('Unggah Sekarang', or the schedule's); answers it. */
export async function queueUpload(
  tx: Executor,
  clock: Clock,
  companyId: string,
  opts: { all: boolean; trigger: 'manual' | 'schedule' },
): Promise<IafUpload> {
  const [row] = await tx
    .insert(iafCertsearchUploads)
    .values({
      id: newId(),
      company_id: companyId,
      trigger: opts.trigger,
      all_records: opts.all,
      state: 'queued',
      created_at: clock.now(),
    })
    .returning();
  return toUpload(row!);
}

export interface UploadDeps {
  db: Db;
  clock: Clock;
  config: Config;
}

/** Waits `ms`, or throws JobInterrupted when the process stops first. */
async function pause(ms: number, stopping: AbortSignal): Promise<void> {
  if (stopping.aborted) throw new JobInterrupted();
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stopping.removeEventListener('abort', done);
      resolve();
    }
    stopping.addEventListener('abort', done, { once: true });
  });
  if (stopping.aborted) throw new JobInterrupted();
}

/** Ends an upload: state, error, when. */
async function finish(
  db: Db,
  clock: Clock,
  id: string,
  state: 'done' | 'failed',
  error: string | null = null,
) {
  await db
    .update(iafCertsearchUploads)
    .set({ state, error, finished_at: clock.now() })
    .where(eq(iafCertsearchUploads.id, id));
}

/** Thrown when an upload must stop: its reason goes to the log. */
class UploadStopped extends Error {}

/**
 * Runs a queued (or interrupted) upload to its end. A scheme counts as changed when any record it
 * is mapped from changed after `since`, or when it became expired since then (its status changed
 * without a write).
 */
export async function runUpload(deps: UploadDeps, id: string, stopping: AbortSignal): Promise<void> {
  const { db, clock, config } = deps;
  const [upload] = await db.select().from(iafCertsearchUploads).where(eq(iafCertsearchUploads.id, id));
  if (!upload || upload.state === 'done' || upload.state === 'failed') return;
  const companyId = upload.company_id;
  const startedAt = clock.now();
  const since = upload.all_records ? null : await lastSuccess(db, companyId);
  await db
    .update(iafCertsearchUploads)
    .set({ state: 'running', started_at: startedAt, since, sent: 0, accepted: 0, refused: [], error: null })
    .where(eq(iafCertsearchUploads.id, id));
  const settings = await readSettings(db, companyId);
  if (!settings?.api_key) return finish(db, clock, id, 'failed', IAF_NO_KEY);
  const key = settings.api_key;
  const today = clock.today();
  const sinceDay = since ? clock.today(since) : null;
  const changed = (s: IafSource) =>
    !since ||
    s.changed_at > since ||
    (s.status === 'ACTIVE' && s.expired_date < today && s.expired_date >= sinceDay!);
  const backoff = Math.max(1, Math.min(config.iafCertsearch.pauseMs, MAX_FIRST_BACKOFF_MS));
  let sent = 0;
  let accepted = 0;
  let calls = 0;
  const refused: IafRefusal[] = [];

  const call = async (records: IafRecord[]) => {
    if (calls++ > 0) await pause(config.iafCertsearch.pauseMs, stopping);
    for (let attempt = 0; ; attempt++) {
      const outcome = await sendRecords(config.iafCertsearch.url, key, records);
      if (outcome.kind === 'key-refused')
        throw new UploadStopped(`${IAF_KEY_REFUSED} (HTTP ${outcome.status})`);
      if (outcome.kind === 'retry') {
        if (attempt + 1 >= CALL_TRIES)
          throw new UploadStopped(`IAF CertSearch tidak dapat dihubungi: ${outcome.reason}`);
        await pause(backoff * 2 ** attempt, stopping);
        continue;
      }
      sent += records.length;
      refused.push(...outcome.refused);
      accepted += outcome.kind === 'accepted' ? records.length - outcome.refused.length : 0;
      await db
        .update(iafCertsearchUploads)
        .set({ sent, accepted, refused })
        .where(eq(iafCertsearchUploads.id, id));
      return;
    }
  };

  try {
    let pending: IafRecord[] = [];
    for await (const records of readyRecords(db, companyId, today, changed)) {
      pending.push(...records);
      while (pending.length >= IAF_BATCH) {
        await call(pending.slice(0, IAF_BATCH));
        pending = pending.slice(IAF_BATCH);
      }
    }
    if (pending.length) await call(pending);
  } catch (err) {
    if (err instanceof UploadStopped) return finish(db, clock, id, 'failed', err.message);
    throw err;
  }
  await finish(db, clock, id, 'done');
}

/** The companies whose scheduled upload is on (switched on, with a key). */
export async function enabledCompanies(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ id: iafCertsearchSettings.company_id, key: iafCertsearchSettings.api_key })
    .from(iafCertsearchSettings)
    .where(and(eq(iafCertsearchSettings.enabled, true)));
  return rows.filter((r) => !!r.key).map((r) => r.id);
}
