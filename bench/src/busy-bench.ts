/**
 * Nothing waits behind long work (bench/README.md "Short requests beside long work"): the API runs
 * as its own process (`api/dist/server.js`, production settings) on the embedded default, a fresh
 * DATA_DIR holding a register made by the demo generator; while one long piece of work runs at a
 * time (an Excel import of BUSY_IMPORT_ROWS scheme rows, a backup download, the full scheme report
 * export), four kinds of short request are sent, each one after another at a steady pace (a sign-in,
 * the profile, a searched client list, a public certificate check), and their latencies printed
 * (p50, p99, max), beside a baseline with nothing long running. Prints numbers, asserts nothing.
 *
 *   npm run busy --workspace bench
 *   BUSY_SECONDS=30 BUSY_INTERVAL_MS=200 npm run busy --workspace bench
 *   BUSY_PHASES=import BUSY_PROFILE=/tmp/prof npm run busy --workspace bench   # one phase, CPU profile
 *
 * Long file: one bench whose phases share the started API, the demo register and the probes.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_DEMO_SEED,
  demoVolume,
  fillDemoDatabase,
  loadConfig,
  migrate,
  openDatabase,
  seedAdministrator,
  seedPermissions,
  type SQL,
  sql,
} from './api';
import { closeOnInterrupt, freePort, onInterrupt } from './harness';
import { applyImportJob, buildImportFile, SCHEMES_PER_CLIENT } from './import-file';
import { CLIENT_SEARCHES } from './scenarios';
import { envInt } from './settings';
import { embeddedTarget } from './targets';

function envScale(): number {
  const raw = process.env.BUSY_SCALE;
  if (raw === undefined || raw === '') return 0.01;
  const n = Number(raw);
  if (!(n > 0 && n <= 1)) throw new Error(`BUSY_SCALE must be above 0 and at most 1, got "${raw}"`);
  return n;
}

const PHASES = ['baseline', 'import', 'backup', 'export'] as const;
type PhaseName = (typeof PHASES)[number];

const settings = {
  /** The demo generator's large set at this scale (0.01: 1,000 clients, 3,000 schemes). */
  scale: envScale(),
  importRows: envInt('BUSY_IMPORT_ROWS', 5000, 100, 50_000),
  /** Each phase lasts at least this long: its long work is started again until then. */
  seconds: envInt('BUSY_SECONDS', 20, 1, 600),
  /** Each kind of short request is sent once every this many milliseconds (or as soon as the last answered). */
  intervalMs: envInt('BUSY_INTERVAL_MS', 250, 20, 10_000),
  /** Import files made beforehand (each round needs new numbers): at most this many imports a phase. */
  importFiles: envInt('BUSY_IMPORT_FILES', 3, 1, 20),
  /** The p99 goal of every short request, in milliseconds. */
  goalMs: envInt('BUSY_GOAL_MS', 300, 1, 60_000),
  phases: (process.env.BUSY_PHASES || PHASES.join(',')).split(',').map((s) => s.trim()) as PhaseName[],
};
for (const p of settings.phases) {
  if (!PHASES.includes(p)) throw new Error(`unknown phase "${p}" in BUSY_PHASES (${PHASES.join(', ')})`);
}

const root = path.resolve(__dirname, '..', '..');
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const secs = (ms: number) => (ms / 1000).toFixed(1);

/** What the probes and the long work need from the register, read before the API starts. */
interface Register {
  password: string;
  /** The company the import writes into and the list shows, with a type and a body it owns. */
  company: { id: string; name: string; type: string; body: string };
  certNumbers: string[];
  counts: { clients: number; schemes: number; trainings: number };
  /** A scheme of that company, saved again and again by the form-save probe. */
  scheme: Record<string, string | number | null>;
}

/** Migrates, makes the administrator and fills the demo set, as `npm run demo -- --size large --scale` does. */
async function fillRegister(dataDir: string): Promise<Register> {
  const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
  const database = await openDatabase({ dataDir });
  const close = closeOnInterrupt(() => database.close());
  try {
    const password = randomBytes(12).toString('base64url');
    await migrate(database);
    await seedPermissions(database.db);
    await seedAdministrator(database.db, { username: 'admin', password, cost: config.argon2 });
    const volume = demoVolume('large', settings.scale);
    console.log(
      `  demo generator: ${volume.clients} clients, ${volume.schemes} schemes, ${volume.trainings} training certificates`,
    );
    const started = performance.now();
    await fillDemoDatabase(database, config, {
      volume,
      seed: DEFAULT_DEMO_SEED,
      password: randomBytes(12).toString('base64url'),
      log: () => undefined,
    });
    console.log(`  filled in ${secs(performance.now() - started)} s`);
    const rows = async <T>(query: SQL): Promise<T[]> => {
      const result: unknown = await database.db.execute(query);
      return (result as { rows: T[] }).rows;
    };
    const [company] = await rows<Register['company']>(sql`
      select c.id, c.name,
        (select name from certification_types where company_id = c.id order by position, name limit 1) as type,
        (select name from accredited_bodies where company_id = c.id order by name limit 1) as body
      from companies c order by c.name limit 1`);
    if (!company?.type || !company.body)
      throw new Error('the demo set has no company with a type and a body');
    const numbers = await rows<{ n: string }>(
      sql`select cert_number as n from schemes where status <> 'DRAFT' order by id limit 200`,
    );
    const [counts] = await rows<Register['counts']>(sql`select
      (select count(*)::int from client_certificates) as clients,
      (select count(*)::int from schemes) as schemes,
      (select count(*)::int from training_certificates) as trainings`);
    const [scheme] = await rows<Record<string, string | number | null>>(sql`
      select id, certificate_id, company_id, certification_id, cert_number, status,
        to_char(issue_date, 'YYYY-MM-DD') as issue_date, valid_for, valid_for_type
      from schemes where company_id = ${company.id} order by id limit 1`);
    if (!scheme) throw new Error('the demo company has no scheme to save');
    return { password, company, certNumbers: numbers.map((r) => r.n), counts: counts!, scheme };
  } finally {
    await close();
  }
}

/** `api/dist/server.js` on the DATA_DIR, production settings, loopback, logs to /dev/null. */
async function startApi(
  dataDir: string,
  metricsToken: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
    // The probes sign in and check several times a second from one address.
    RATE_LIMIT_PUBLIC: '1000000',
    METRICS_TOKEN: metricsToken,
  };
  delete env.DATABASE_URL;
  // BUSY_PROFILE=<dir>: the API writes a V8 CPU profile of its whole run there when it stops.
  const profile = process.env.BUSY_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BUSY_PROFILE)}`]
    : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...profile, path.join(root, 'api', 'dist', 'server.js')],
    {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      onInterrupt.delete(stop);
    })());
  onInterrupt.add(stop);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited at start (code ${child.exitCode})`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error('the API did not answer /api/health within two minutes');
}

interface Answer {
  status: number;
  ms: number;
  bytes: number;
  body: string;
}

/** One request on `agent`, timed from sending to the answer's last byte; the body kept up to 4 KB. */
function request(
  agent: http.Agent,
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { agent, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let bytes = 0;
      const kept: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (bytes < 4096) kept.push(chunk);
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          bytes,
          body: Buffer.concat(kept).toString('utf8').slice(0, 4096),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

interface Probe {
  name: string;
  /** Its own p99 goal in ms (a form save: 2 s); else BUSY_GOAL_MS. */
  goalMs?: number;
  /** The next request of this kind (they cycle through terms and numbers). */
  next: (i: number) => { path: string; method?: string; headers?: Record<string, string>; body?: string };
}

interface ProbeResult {
  name: string;
  ms: number[];
  /** The slowest answer and when it was sent, in ms after the phase started. */
  worst: { ms: number; at: number };
  failures: Record<string, number>;
}

/**
 * Sends `probe`'s requests one after another, one every intervalMs (or at once when the last took
 * longer), until `until` resolves; the first waits `offsetMs`, so the kinds do not go out together.
 */
async function runProbe(
  url: string,
  probe: Probe,
  offsetMs: number,
  until: Promise<void>,
): Promise<ProbeResult> {
  const phaseStarted = performance.now();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const result: ProbeResult = { name: probe.name, ms: [], worst: { ms: 0, at: 0 }, failures: {} };
  let done = false;
  void until.then(() => (done = true));
  const pause = (ms: number) =>
    Promise.race([new Promise((r) => setTimeout(r, ms)), until]).then(() => undefined);
  await pause(offsetMs);
  for (let i = 0; !done; i++) {
    const started = performance.now();
    const r = probe.next(i);
    try {
      const answer = await request(agent, url + r.path, r);
      if (answer.status >= 200 && answer.status < 300) {
        result.ms.push(answer.ms);
        if (answer.ms > result.worst.ms) result.worst = { ms: answer.ms, at: started - phaseStarted };
      } else result.failures[answer.status] = (result.failures[answer.status] ?? 0) + 1;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      result.failures[code] = (result.failures[code] ?? 0) + 1;
    }
    const left = settings.intervalMs - (performance.now() - started);
    if (left > 0 && !done) await pause(left);
  }
  agent.destroy();
  return result;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)]! : NaN;

/** The API process's event-loop delay since the last read (prom-client resets it on each read), ms. */
async function eventLoopDelay(url: string, token: string): Promise<{ p99: number; max: number } | undefined> {
  const res = await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) return undefined;
  const text = await res.text();
  const read = (name: string) => {
    const m = new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1000 : NaN;
  };
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

interface Work {
  /** One round of the long work; answers a short description (rows, bytes). */
  round: () => Promise<string>;
  /** Whether another round may start (the import has a file for each). */
  more: () => boolean;
}

/** Streams a GET to its end, answering the bytes; anything but 200 throws. */
async function download(url: string, token: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: false });
  const answer = await request(agent, url, { headers: { authorization: `Bearer ${token}` } });
  if (answer.status !== 200)
    throw new Error(`${url} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return answer.bytes;
}

async function main(): Promise<number> {
  console.log(
    `Short requests beside long work: node ${process.version}, ${os.cpus().length} CPUs, embedded database, ` +
      `phases ${settings.phases.join(', ')}, each at least ${settings.seconds} s, one request of each kind every ` +
      `${settings.intervalMs} ms; load average ${loadAverage()}`,
  );
  const build = spawnSync(process.execPath, [path.join(root, 'api', 'scripts', 'build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('building the API failed');

  const target = embeddedTarget();
  onInterrupt.add(target.dispose);
  const dataDir = target.env.DATA_DIR!;
  try {
    console.log(`\n== register (DATA_DIR ${dataDir}) ==`);
    const register = await fillRegister(dataDir);
    console.log(
      `  ${register.counts.clients} clients, ${register.counts.schemes} schemes, ${register.counts.trainings} ` +
        `training certificates; imports go to ${register.company.name} (type "${register.company.type}", body "${register.company.body}")`,
    );
    let started = performance.now();
    const files = await Promise.all(
      Array.from({ length: settings.importFiles }, (_, k) =>
        buildImportFile({
          rows: settings.importRows,
          prefix: `B${k + 1}-`,
          type: register.company.type,
          body: register.company.body,
        }),
      ),
    );
    console.log(
      `  ${files.length} import files of ${settings.importRows} rows (${settings.importRows / SCHEMES_PER_CLIENT} clients), ` +
        `${(files[0]!.length / 2 ** 20).toFixed(2)} MB each, built in ${secs(performance.now() - started)} s`,
    );

    const metricsToken = randomBytes(16).toString('hex');
    started = performance.now();
    const api = await startApi(dataDir, metricsToken);
    try {
      console.log(`  API started in ${secs(performance.now() - started)} s at ${api.url}`);
      const signIn = async () => {
        const res = await fetch(`${api.url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: register.password }),
        });
        if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { token: string }).token;
      };
      const token = await signIn();
      const auth = { authorization: `Bearer ${token}` };
      const company = register.company.id;
      const loginBody = JSON.stringify({ username: 'admin', password: register.password });
      const probes: Probe[] = [
        {
          name: 'POST /api/login',
          next: () => ({
            path: '/api/login',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: loginBody,
          }),
        },
        { name: 'GET /api/profile', next: () => ({ path: '/api/profile', headers: auth }) },
        {
          name: 'GET /api/company-certificate?company_id&search&page',
          next: (i) => ({
            path:
              `/api/company-certificate?company_id=${company}` +
              `&search=${encodeURIComponent(CLIENT_SEARCHES[i % CLIENT_SEARCHES.length]!)}&page=${1 + (Math.floor(i / CLIENT_SEARCHES.length) % 3)}`,
            headers: auth,
          }),
        },
        {
          // A form save of the record kind the import writes, in the same company.
          name: 'PUT /api/company-certificate-scheme/{id} (form save)',
          goalMs: 2000,
          next: (i) => {
            const { id, ...input } = register.scheme;
            return {
              path: `/api/company-certificate-scheme/${String(id)}`,
              method: 'PUT',
              headers: { ...auth, 'content-type': 'application/json' },
              body: JSON.stringify({ ...input, is_accredited: 'false', desc: `Disimpan ulang ${i}` }),
            };
          },
        },
        {
          name: 'GET /api/check-certificate-company/{number}',
          next: (i) => ({
            path: `/api/check-certificate-company/${encodeURIComponent(register.certNumbers[i % register.certNumbers.length]!)}`,
          }),
        },
      ];
      const goals = new Map(probes.map((p) => [p.name, p.goalMs]));
      // Each probe's first request once, so a route that refuses it is known before measuring.
      const warm = new http.Agent({ keepAlive: false });
      for (const probe of probes) {
        const r = probe.next(0);
        const answer = await request(warm, api.url + r.path, r);
        if (answer.status !== 200)
          throw new Error(`${probe.name} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      }

      let importRound = 0;
      const works: Record<PhaseName, Work> = {
        baseline: {
          round: async () => {
            await new Promise((r) => setTimeout(r, settings.seconds * 1000));
            return 'nothing';
          },
          more: () => true,
        },
        import: {
          round: async () => {
            // The whole job: the POST (the file checked, 202), then its progress until it ends.
            const file = files[importRound++]!;
            const run = await applyImportJob(api.url, token, 'company-certificate', company, file);
            return `${settings.importRows} rows, 202 after ${run.acceptedSeconds.toFixed(1)} s: ${JSON.stringify(run.job.result).slice(0, 160)}`;
          },
          more: () => importRound < files.length,
        },
        backup: {
          round: async () => `${((await download(`${api.url}/api/backup`, token)) / 2 ** 20).toFixed(1)} MB`,
          more: () => true,
        },
        export: {
          round: async () =>
            `${((await download(`${api.url}/api/report-company-certification-scheme/ALL?type=export`, token)) / 2 ** 20).toFixed(1)} MB`,
          more: () => true,
        },
      };

      const table: string[] = [];
      for (const phase of settings.phases) {
        const work = works[phase];
        console.log(`\n== ${phase} (load average ${loadAverage()}) ==`);
        await eventLoopDelay(api.url, metricsToken); // resets the server's histogram
        const rounds: string[] = [];
        const phaseStarted = performance.now();
        const running = (async () => {
          do {
            const roundStarted = performance.now();
            const what = await work.round();
            rounds.push(`${secs(performance.now() - roundStarted)} s (${what})`);
          } while (work.more() && performance.now() - phaseStarted < settings.seconds * 1000);
        })();
        const settled = running.then(
          () => undefined,
          () => undefined,
        );
        const results = await Promise.all(
          probes.map((probe, k) =>
            runProbe(api.url, probe, (k * settings.intervalMs) / probes.length, settled),
          ),
        );
        await running;
        const elapsed = performance.now() - phaseStarted;
        const delay = await eventLoopDelay(api.url, metricsToken);
        if (phase !== 'baseline')
          console.log(`  ${phase}: ${rounds.length} round(s) in ${secs(elapsed)} s: ${rounds.join('; ')}`);
        if (delay)
          console.log(
            `  the API's event-loop delay during the phase: p99 ${delay.p99.toFixed(0)} ms, max ${delay.max.toFixed(0)} ms`,
          );
        for (const r of results) {
          const sorted = [...r.ms].sort((a, b) => a - b);
          const p99 = percentile(sorted, 99);
          const failed = Object.entries(r.failures)
            .map(([k, v]) => `${k}x${v}`)
            .join(' ');
          const line =
            `| ${phase} | ${r.name} | ${sorted.length} | ${percentile(sorted, 50).toFixed(0)} | ${p99.toFixed(0)} | ` +
            `${r.worst.ms.toFixed(0)} (+${secs(r.worst.at)} s) | ${failed || '-'} | ${p99 <= (goals.get(r.name) ?? settings.goalMs) && !failed ? 'yes' : 'no'} |`;
          console.log(line);
          table.push(line);
        }
        console.log(`  load average after ${phase}: ${loadAverage()}`);
      }
      console.log(
        `\n| long work | short request | n | p50 ms | p99 ms | max ms (sent at) | failed | p99 <= ${settings.goalMs} ms (form save: 2,000) |\n` +
          `| --- | --- | ---: | ---: | ---: | ---: | --- | --- |\n${table.join('\n')}`,
      );
      console.log(
        `\nEach short request of a kind is sent after the previous answered, one every ${settings.intervalMs} ms; ` +
          'n: answered 2xx during the phase; max: the slowest, and when it was sent after the phase began; ' +
          'failed: other statuses or connection errors. ' +
          `load average at the end: ${loadAverage()}. Nothing is asserted.`,
      );
    } finally {
      await api.stop();
    }
  } finally {
    await target.dispose();
    onInterrupt.delete(target.dispose);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
