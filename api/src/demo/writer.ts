/**
 * What every phase of the demo data set (generate.ts) shares: its options, the writer (the
 * service contexts every write goes through, the random source, the clock and the phase log), the
 * shapes of the certification bodies and clients the phases hand on, and small helpers for names
 * and dates.
 */
import { addDays, daysBetween, PERMISSION_KEYS, type ValidForType } from '@sertifikasi/shared-contracts';
import { type Config, loadConfig } from '../config';
import type { Executor } from '../db';
import type { Clock } from '../lib/clock';
import { createSemaphore } from '../lib/semaphore';
import type { Argon2Cost } from '../lib/crypto';
import { type ServiceContext, systemActor, type WriteSource } from '../services/context';
import type { PreparedImage } from '../services/images';
import { type BodySeed, DEGREES, FIRST_NAMES, LAST_NAMES, TITLES } from './data';
import { preparedSvg } from './images';
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
  /** Records per service batch (`createMany` and the like; default 2,000). */
  batchRows?: number;
  log?: (line: string) => void;
}

export interface Body {
  seed: BodySeed;
  id: string;
  types: { id: string; code: string; name: string; valid_for: number; valid_for_type: ValidForType }[];
  accreditationBodies: string[];
  /** The staff user whose name is on this company's audit rows (set once the users are written). */
  staff: { id: string; username: string };
  /** The context this company's records are written with: its staff user, scoped to it. */
  ctx: ServiceContext;
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

/** What every phase of the demo writer shares: the service context, the random source, the clock. */
export interface DemoWriter {
  /** The system's context (source `demo`): every write of the demo goes through a service with it. */
  ctx: ServiceContext;
  exec: Executor;
  rnd: Random;
  clock: Clock;
  today: string;
  yesterday: string;
  volume: DemoVolume;
  /** Records per service batch (`createMany` and the like). */
  batchRows: number;
  /** Images drawn so far. */
  images: number;
  /** A picture drawn as SVG, checked and re-encoded as an upload is (its name comes with the write). */
  image: (svg: string, label: string) => Promise<PreparedImage>;
  /** The context a company's staff user writes with (their name on the audit rows). */
  staffContext: (staff: { id: string; username: string }, companyId: string) => ServiceContext;
  phase: (what: string) => void;
  /** An instant on `date` during office hours, never after now. */
  at: (date: string) => string;
  /** A date from a to b (both included; a when b is earlier). */
  dateBetween: (a: string, b: string) => string;
}

/** The configuration the demo's services see: the server's defaults with the demo's own settings. */
function demoConfig(opts: DemoOptions): Config {
  return { ...loadConfig({}), argon2: opts.argon2, publicBaseUrl: opts.publicBaseUrl };
}

export function demoWriter(exec: Executor, opts: DemoOptions): DemoWriter {
  const rnd = randomSource(opts.seed);
  const { clock } = opts;
  const nowMs = clock.now().getTime();
  const today = clock.today(clock.now());
  const batchRows = opts.batchRows ?? 2000;
  const log = opts.log ?? (() => undefined);
  // One image at a time, as an app with the default IMAGE_CONCURRENCY runs them.
  const imageWork = createSemaphore(1);
  const ctx: ServiceContext = { tx: exec, actor: systemActor(DEMO_SOURCE), clock, config: demoConfig(opts) };
  let phaseStart = performance.now();
  const writer: DemoWriter = {
    ctx,
    exec,
    rnd,
    clock,
    today,
    yesterday: addDays(today, -1),
    volume: opts.volume,
    batchRows,
    images: 0,
    image: async (svg, label) => {
      writer.images++;
      return preparedSvg(svg, label, imageWork);
    },
    staffContext: (staff, companyId) => ({
      ...ctx,
      actor: {
        user: staff,
        permissions: new Set(PERMISSION_KEYS),
        scope: [companyId],
        requestId: null,
        source: DEMO_SOURCE,
      },
    }),
    phase: (what) => {
      const t = performance.now();
      log(`  ${what} (${((t - phaseStart) / 1000).toFixed(1)} s)`);
      phaseStart = t;
    },
    at: (date) => {
      const t = clock.instantAt(date, rnd.between(8, 16), rnd.int(60)).getTime();
      return new Date(Math.min(t, nowMs - 60_000 - rnd.int(3_600_000))).toISOString();
    },
    dateBetween: (a, b) => addDays(a, rnd.int(Math.max(0, daysBetween(a, b)) + 1)),
  };
  return writer;
}
