/**
 * What each statement of a route costs (bench/README.md "Every screen at the cost of its queries"):
 * opens the large set's PostgreSQL database (DATABASE_URL, or the cached one large-bench built on
 * BENCH_DATABASE_URL's server), builds the app as large-bench does, opens an administrator's session, and for each route
 * records the statements one request sends (text and values, from the pool's connections), the time
 * a request takes in the app (median of QUERY_COSTS_RUNS in-process requests, one at a time) and the
 * time its statements take on the connection. Then `explain (analyze, buffers)` of each statement
 * with the same values. Prints; asserts nothing.
 *
 *     BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run query-costs --workspace bench
 *     QUERY_COSTS_PLANS=0 ...        only the timings, no plans
 */
import pino from 'pino';
import pg from 'pg';
import { buildApp, createSession, DEFAULT_DEMO_SEED, LOG_REDACT, loadConfig, openRuntime } from './api';
import { largeSetName, postgresLargeSet } from './large-set';
import { envInt } from './settings';

const RUNS = envInt('QUERY_COSTS_RUNS', 200, 1, 10_000);
const PLANS = process.env.QUERY_COSTS_PLANS !== '0';

interface Recorded {
  name: string | undefined;
  text: string;
  values: unknown[];
  ms: number;
}

async function databaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!server) throw new Error('set DATABASE_URL, or BENCH_DATABASE_URL to the server of the large set');
  const set = { scale: 1, seed: DEFAULT_DEMO_SEED, cacheDir: '', rebuild: false };
  console.log(`large set ${largeSetName(set)}`);
  return postgresLargeSet(server, set, (env) => loadConfig({ ...env, NODE_ENV: 'production' }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const url = await databaseUrl();
  const config = loadConfig({
    DATABASE_URL: url,
    NODE_ENV: 'production',
    RATE_LIMIT_PUBLIC: '1000000',
    LOG_LEVEL: 'warn',
  });
  const logger = pino({ level: 'warn', redact: LOG_REDACT }, pino.destination('/dev/null'));
  let recording: Recorded[] | undefined;
  // Every connection's query() (pg's Client, patched before any connection exists) records what it
  // is sent while `recording` is set.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with apply(this) below
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    const target = recording;
    if (!target) return original.apply(this, args);
    const q = args[0] as { name?: string; text?: string; values?: unknown[] } | string;
    const entry: Recorded = {
      name: typeof q === 'string' ? undefined : q.name,
      text: typeof q === 'string' ? q : (q.text ?? ''),
      // drizzle sends the values apart from the statement: query({ name, text }, values).
      values:
        (typeof q === 'string' ? undefined : q.values) ??
        (Array.isArray(args[1]) ? (args[1] as unknown[]) : []),
      ms: 0,
    };
    const started = performance.now();
    const done = () => {
      entry.ms = performance.now() - started;
      target.push(entry);
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const cb = args[last] as (...r: unknown[]) => unknown;
      args[last] = (...r: unknown[]) => {
        done();
        return cb(...r);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(done, () => undefined);
    return result;
  };
  const runtime = await openRuntime(config, { migrate: true, logger });
  const { pool, db } = runtime.database;
  // A session of the administrator made directly (no password is changed: a large-bench run beside
  // this one keeps its own sign-in).
  const app = await buildApp({ config, db, logger, runJobs: false });
  await app.ready();
  const admin = (await pool.query<{ id: string }>("select id from users where lower(username) = 'admin'"))
    .rows[0];
  if (!admin) throw new Error('the administrator is missing');
  const token = await createSession(db, admin.id, new Date());
  const headers = { authorization: `Bearer ${token}` };
  const company =
    (await pool.query<{ id: string }>('select id from companies order by name limit 1')).rows[0]?.id ?? '';
  // The company with the most planned audits (the bench's busiest), and this month, for the
  // planned-audit screens.
  const planned =
    (
      await pool.query<{ id: string }>(
        'select company_id as id from planned_audits group by company_id order by count(*) desc limit 1',
      )
    ).rows[0]?.id ?? company;
  const month = new Date().toISOString().slice(0, 7);
  const routes = [
    ['profile', '/api/profile'],
    ['dashboard ALL', '/api/dashboard-total/ALL'],
    ['dashboard, one company', `/api/dashboard-total/${company}`],
    ['scheme report first page', '/api/report-company-certification-scheme/ALL?status=ACTIVE&paginate=20'],
    ['Jadwal Audit first page', '/api/audit-schedule/ALL?window=all&paginate=20'],
    ['company chart, 6 months', '/api/grafic-certification-company/ALL?date_type=6m&chart=MONTH'],
    ["'Rencana Audit' first page", `/api/planned-audit?company_id=${planned}&paginate=20`],
    [
      "'Kalender Auditor', this month",
      `/api/auditor-calendar?company_id=${planned}&month=${month}&paginate=20`,
    ],
  ] as const;
  for (const [label, path] of routes) {
    const times: number[] = [];
    const dbTimes: number[] = [];
    let statements: Recorded[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      recording = [];
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: path, headers });
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      bytes = res.rawPayload.length;
      statements = recording;
      dbTimes.push(recording.reduce((s, r) => s + r.ms, 0));
    }
    recording = undefined;
    console.log(
      `\n== ${label}: GET ${path}\n   one request at a time: p50 ${median(times).toFixed(2)} ms in the app, ` +
        `its ${statements.length} statements ${median(dbTimes).toFixed(2)} ms summed (on the connection), ${bytes} bytes`,
    );
    for (const s of statements) {
      console.log(`   - ${s.name ?? s.text.replace(/\s+/g, ' ').slice(0, 90)}: ${s.ms.toFixed(2)} ms`);
      if (!PLANS) continue;
      const plan = await pool.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers, costs off) ${s.text}`,
        s.values,
      );
      for (const row of plan.rows) console.log(`       ${row['QUERY PLAN']}`);
    }
  }
  await app.close();
  await runtime.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
