/**
 * What every phase of the demo data set (generate.ts) shares: its options, the writer (the
 * transaction, the random source, the clock, the batch insert and the phase log), the shapes of the
 * certification bodies and clients the phases hand on, small helpers for names and dates, and the
 * signed QR codes.
 */
import { sql } from 'drizzle-orm';
import { addDays, daysBetween, type ValidForType } from '@sertifikasi/shared-contracts';
import type { SignedFields } from '@sertifikasi/shared-contracts/credential';
import type { Executor } from '../db';
import type { Clock } from '../lib/clock';
import { createSemaphore } from '../lib/semaphore';
import type { Argon2Cost } from '../lib/crypto';
import type { WriteSource } from '../services/context';
import { type CheckKind, qrPngBase64 } from '../services/qr';
import { type SigningKey, signedCheckUrl } from '../services/signing';
import { type BodySeed, DEGREES, FIRST_NAMES, LAST_NAMES, TITLES } from './data';
import { storeSvg } from './images';
import { type Random, randomSource } from './random';

/** Where the demo's audit rows say they came from. */
export const DEMO_SOURCE: WriteSource = 'demo';

/** The year and the day of the month of a date `YYYY-MM-DD`. */
export const yearOf = (date: string): number => Number(date.slice(0, 4));
export const dayOf = (date: string): number => Number(date.slice(8, 10));

export interface DemoVolume {
  clients: number;
  schemes: number;
  trainings: number;
  /** Clients that get a logo of their own (the rest show the default image). */
  logos: number;
}

export interface DemoOptions {
  volume: DemoVolume;
  seed: number;
  /** Password of every demo user. */
  password: string;
  argon2: Argon2Cost;
  /** The app's clock: "now", and today in the deployment's time zone (the data set is built around it). */
  clock: Clock;
  /** The public address the QR codes point at (the config's `publicBaseUrl`). */
  publicBaseUrl: string;
  /** Rows per insert statement. */
  batchRows?: number;
  log?: (line: string) => void;
}

export interface Body {
  seed: BodySeed;
  id: string;
  types: { id: string; code: string; name: string; valid_for: number; valid_for_type: ValidForType }[];
  accreditationBodies: string[];
  /** The staff user whose name is on this company's audit rows. */
  staff: { id: string; username: string };
  counters: { scheme: number; training: number; client: number };
}

export interface Client {
  id: string;
  name: string;
  body: number;
  /** Offset into the body's standards, so one client's schemes are of different standards. */
  typeStart: number;
  schemes: number;
  /** The IAF sector codes its 'Kode EA' reads as (its schemes carry them). */
  sectorCodes: number[];
}

export const personName = (rnd: Random, formal: boolean): string => {
  const first = rnd.pick(FIRST_NAMES);
  const last = rnd.pick(LAST_NAMES);
  const core = rnd.chance(0.2) ? `${first} ${rnd.pick(FIRST_NAMES)} ${last}` : `${first} ${last}`;
  return formal ? `${rnd.pick(TITLES)}${core}${rnd.pick(DEGREES)}` : core;
};

export const minDate = (a: string, b: string) => (a < b ? a : b);
export const maxDate = (a: string, b: string) => (a > b ? a : b);

export const digits = (rnd: Random, n: number) => Array.from({ length: n }, () => rnd.int(10)).join('');

/** What every phase of the demo writer shares: the transaction, the random source, the clock, the batch writer. */
export interface DemoWriter {
  exec: Executor;
  rnd: Random;
  clock: Clock;
  today: string;
  yesterday: string;
  volume: DemoVolume;
  batchRows: number;
  /** The key that signs the QR codes, and the public address they point at. */
  key: SigningKey;
  publicBaseUrl: string;
  /** Images stored so far. */
  images: number;
  store: (svg: string, label: string) => Promise<string>;
  insertRows: (table: string, rows: object[]) => Promise<void>;
  phase: (what: string) => void;
  /** An instant on `date` during office hours, never after now. */
  at: (date: string) => string;
  /** A date from a to b (both included; a when b is earlier). */
  dateBetween: (a: string, b: string) => string;
}

export function demoWriter(exec: Executor, opts: DemoOptions, key: SigningKey): DemoWriter {
  const rnd = randomSource(opts.seed);
  const { clock } = opts;
  const nowMs = clock.now().getTime();
  const today = clock.today(clock.now());
  const batchRows = opts.batchRows ?? 2000;
  const log = opts.log ?? (() => undefined);
  // One image at a time, as an app with the default IMAGE_CONCURRENCY runs them.
  const imageWork = createSemaphore(1);
  /** Milliseconds spent in insert statements since the last phase line. */
  let insertMs = 0;
  let phaseStart = performance.now();
  const writer: DemoWriter = {
    exec,
    rnd,
    clock,
    today,
    yesterday: addDays(today, -1),
    volume: opts.volume,
    batchRows,
    key,
    publicBaseUrl: opts.publicBaseUrl,
    images: 0,
    store: async (svg, label) => {
      writer.images++;
      return storeSvg(exec, svg, label, imageWork);
    },
    // One statement per batch: the rows as JSON, turned into the table's row type by the database.
    insertRows: async (table, rows) => {
      for (let i = 0; i < rows.length; i += batchRows) {
        const json = JSON.stringify(rows.slice(i, i + batchRows));
        const started = performance.now();
        const name = sql.identifier(table);
        await exec.execute(
          sql`insert into ${name} select * from json_populate_recordset(null::${name}, ${json}::json)`,
        );
        insertMs += performance.now() - started;
      }
    },
    phase: (what) => {
      const t = performance.now();
      const inserts = (insertMs / 1000).toFixed(1);
      log(
        `  ${what} (${((t - phaseStart) / 1000).toFixed(1)} s, of which ${inserts} s in insert statements)`,
      );
      phaseStart = t;
      insertMs = 0;
    },
    at: (date) => {
      const t = clock.instantAt(date, rnd.between(8, 16), rnd.int(60)).getTime();
      return new Date(Math.min(t, nowMs - 60_000 - rnd.int(3_600_000))).toISOString();
    },
    dateBetween: (a, b) => addDays(a, rnd.int(Math.max(0, daysBetween(a, b)) + 1)),
  };
  return writer;
}

/** QR images made at once: the PNGs are encoded off the event loop (libvips), a few side by side. */
const QR_CONCURRENCY = 4;

/**
 * Gives each row its signed QR code (docs/rules.md#signed-certificates), as the after-write step
 * does for a record written through the services: one signing key for the whole batch, the PNGs a
 * few at a time. `fieldsOf` answers null for a row that keeps no QR.
 */
export async function signQrs<T extends { qrcode: string | null }>(
  w: DemoWriter,
  kind: CheckKind,
  rows: T[],
  fieldsOf: (row: T, index: number) => SignedFields | null,
): Promise<number> {
  const todo = rows.flatMap((row, index) => {
    const fields = fieldsOf(row, index);
    return fields ? [{ row, url: signedCheckUrl(w.publicBaseUrl, kind, w.key, fields) }] : [];
  });
  for (let i = 0; i < todo.length; i += QR_CONCURRENCY) {
    await Promise.all(
      todo.slice(i, i + QR_CONCURRENCY).map(async ({ row, url }) => {
        row.qrcode = await qrPngBase64(url);
      }),
    );
  }
  return todo.length;
}
