/**
 * Benchmarks on the large demo data set (bench/README.md "Large data set"): prepares, once and
 * cached by name, a database on the external PostgreSQL server and an embedded DATA_DIR (the API's
 * own embedded PostgreSQL), both filled by the demo generator (100,000 clients, 300,000 schemes,
 * 100,000 training certificates), starts the API on each, and runs named scenarios (scenarios.ts)
 * beside the bare Fastify route, each scenario on the targets back to back; with both targets, it
 * also sets each scenario's embedded rate against the external server's. Prints numbers, asserts
 * nothing.
 *
 *   npm run large --workspace bench                      every scenario whose route exists
 *   npm run large --workspace bench -- client-search     the named ones
 *   npm run large --workspace bench -- --list            the scenarios
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import {
  buildApp,
  type Config,
  DEFAULT_DEMO_SEED,
  createClock,
  type Database,
  demoVolume,
  hashPassword,
  LOG_REDACT,
  loadConfig,
  openRuntime,
  type SQL,
  sql,
  users,
} from './api';
// Importing harness also sets the Ctrl-C handling; an interrupted build leaves only its *_building copy,
// which the next build removes.
import { anchorBaseline, bareBaseline, closeOnInterrupt, listen, measure, signIn } from './harness';
import { LoadGenerator } from './load';
import { type Row, table } from './report';
import { seedPlannedAudits, teamCheckTimes } from './planned-audit-set';
import { SCENARIOS, type Sample, type Scenario, type ScenarioInput } from './scenarios';
import { envInt } from './settings';
import { chosenTargets, describeUrl } from './targets';
import {
  embeddedLargeSet,
  type LargeSet,
  largeSetName,
  postgresLargeSet,
  queryRows,
  recordedBuild,
} from './large-set';

function envScale(): number {
  const raw = process.env.BENCH_SCALE;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!(n > 0 && n <= 10))
    throw new Error(`BENCH_SCALE must be a number above 0 and at most 10, got "${raw}"`);
  return n;
}

const settings = {
  seconds: envInt('BENCH_SECONDS', 10, 1, 120),
  warmup: envInt('BENCH_WARMUP', 2, 0, 30),
  connections: envInt('BENCH_CONNECTIONS', 10, 1, 256),
  scale: envScale(),
  seed: envInt('BENCH_SEED', DEFAULT_DEMO_SEED, 0, 999_999_999),
  logLevel: process.env.BENCH_LOG_LEVEL || 'info',
  serverUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined,
  targets: chosenTargets(),
  cacheDir: path.resolve(process.env.BENCH_CACHE_DIR || path.join(__dirname, '..', '.cache')),
  rebuild: process.env.BENCH_REBUILD === '1',
};
const timing = { seconds: settings.seconds, warmup: settings.warmup };

const largeSet: LargeSet = {
  scale: settings.scale,
  seed: settings.seed,
  cacheDir: settings.cacheDir,
  rebuild: settings.rebuild,
};
const cacheName = largeSetName(largeSet);

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');

const configFor = (env: Record<string, string>) =>
  loadConfig({
    // LIST_CACHE_ENTRIES=0 measures every list total counted and page read (a searched list's cold case).
    ...(process.env.LIST_CACHE_ENTRIES ? { LIST_CACHE_ENTRIES: process.env.LIST_CACHE_ENTRIES } : {}),
    ...env,
    NODE_ENV: 'production',
    RATE_LIMIT_PUBLIC: '1000000',
    LOG_LEVEL: settings.logLevel,
    HOST: '127.0.0.1',
    PORT: '0',
  });

/** The cached embedded DATA_DIR of the data set (large-set.ts). */
async function embeddedDataDir(): Promise<Record<string, string>> {
  const dir = await embeddedLargeSet(largeSet, configFor);
  console.log(`  ${recordedBuild(largeSet, 'embedded') ?? 'cached'} (${dir})`);
  return { DATA_DIR: dir };
}

/** The cached PostgreSQL database of the data set on the bench server (large-set.ts). */
async function postgresDatabase(serverUrl: string): Promise<Record<string, string>> {
  const url = await postgresLargeSet(serverUrl, largeSet, configFor);
  console.log(`  ${recordedBuild(largeSet, 'postgres') ?? 'cached'} (${describeUrl(url)})`);
  return { DATABASE_URL: url };
}

async function readSample(database: Database, config: Config): Promise<Sample> {
  const run = <T>(query: SQL) => queryRows<T>(database, query);
  const companies = await run<{ id: string; name: string }>(
    sql`select id, name from companies order by name`,
  );
  // Ids are random, so the first ones by id are spread over the companies. Clients that earlier
  // scheme-create runs wrote into (thousands of BENCH/ schemes each, in a cached database) are left
  // out: the detail would measure them, not a client's page.
  const clients = await run<{ id: string; company_id: string }>(
    sql`select id, company_id from client_certificates c
      where not exists (select 1 from schemes s where s.certificate_id = c.id and s.cert_number like 'BENCH/%')
      order by id limit 200`,
  );
  // Creates go to each company's last client by id, outside the detail's sample.
  const schemeTargets = await run<Sample['schemeTargets'][number]>(sql`
    select c.id as company_id, (select id from client_certificates where company_id = c.id order by id desc limit 1) as certificate_id,
      (select id from certification_types where company_id = c.id order by position limit 1) as certification_id,
      (select id from accredited_bodies where company_id = c.id order by id limit 1) as accredited_id
    from companies c order by c.name`);
  const certNumbers = await run<{ n: string }>(
    sql`select cert_number as n from schemes where status <> 'DRAFT' order by id limit 500`,
  );
  const trainingNumbers = await run<{ n: string }>(
    sql`select certificate_number as n from training_certificates order by id limit 500`,
  );
  return {
    companies,
    clients,
    schemeTargets,
    certNumbers: certNumbers.map((r) => r.n),
    trainingNumbers: trainingNumbers.map((r) => r.n),
    today: createClock(config.timeZone).today(),
  };
}

/** Sends a scenario's first request once: a route that is not there yet (or refuses it) is skipped. */
async function probe(url: string, scenario: Scenario, requests: ReturnType<Scenario['requests']>) {
  const first = requests[0];
  if (!first) return 'no requests';
  const res = await fetch(url + first.path, {
    method: first.method,
    headers: first.headers,
    ...(first.body ? { body: first.body.replaceAll('{{n}}', 'probe') } : {}),
  });
  if (res.ok) return undefined;
  const text = (await res.text()).slice(0, 160);
  return `${scenario.name}: ${first.method} ${first.path.split('?')[0]} answered ${res.status} ${text}`;
}

/** How many rows each search of a list scenario finds, so the reader knows what it loads. */
async function matches(url: string, requests: ReturnType<Scenario['requests']>): Promise<string> {
  const parts: string[] = [];
  for (const r of requests) {
    const res = await fetch(url + r.path, { headers: r.headers });
    const total = res.ok ? ((await res.json()) as { total?: number }).total : undefined;
    const search = new URL(url + r.path).searchParams.get('search');
    parts.push(`"${search}" ${total ?? res.status}`);
  }
  return `  matches: ${parts.join(', ')}`;
}

/** The API running on one target, signed in, with its sample read: what a scenario needs. */
interface OpenTarget {
  name: string;
  url: string;
  input: ScenarioInput;
  close: () => Promise<void>;
}

/**
 * Opens a target as the API would (migrated at start), gives its administrator a fresh password,
 * reads the sample, builds the app and listens on loopback.
 */
async function openTarget(name: string, env: Record<string, string>): Promise<OpenTarget> {
  const config = configFor(env);
  const logger = pino({ level: config.logLevel, redact: LOG_REDACT }, pino.destination('/dev/null'));
  const opened = await openRuntime(config, { migrate: true, logger });
  const closeRuntime = closeOnInterrupt(() => opened.close());
  try {
    // A fresh password for the cached database's administrator, every run (none is stored).
    const password = randomBytes(12).toString('base64url');
    await opened.database.db
      .update(users)
      .set({ password_hash: await hashPassword(password, config.argon2) })
      .where(sql`lower(${users.username}) = 'admin'`);
    const today = createClock(config.timeZone).today();
    console.log(`  ${name}: ${await seedPlannedAudits(opened.database, today)}`);
    console.log(`  ${name}: ${await teamCheckTimes(opened.database, today)}`);
    const sample = await readSample(opened.database, config);
    const app = await buildApp({ config, db: opened.database.db, logger });
    const closeApp = closeOnInterrupt(() => app.close());
    try {
      const url = await listen(app);
      const token = await signIn(url, 'admin', password);
      const input = {
        sample,
        auth: { authorization: `Bearer ${token}` },
        runId: randomBytes(4).toString('hex'),
      };
      const close = async () => {
        await closeApp();
        await closeRuntime();
      };
      return { name, url, input, close };
    } catch (err) {
      await closeApp();
      throw err;
    }
  } catch (err) {
    await closeRuntime();
    throw err;
  }
}

/**
 * Runs each scenario on every open target, one target right after the other, so that the targets
 * of a row meet the same machine (on a shared machine the load moves within minutes). The order
 * alternates from one scenario to the next, so neither target always goes first. Rows come grouped
 * by target, in the order of `targets`.
 */
async function runScenarios(
  targets: OpenTarget[],
  scenarios: Scenario[],
  load: LoadGenerator,
  bareRps: number,
  anchorRps: number | undefined,
): Promise<Row[]> {
  const rows = new Map<string, Row[]>(targets.map((t) => [t.name, []]));
  for (const [i, scenario] of scenarios.entries()) {
    const turn = i % 2 === 0 ? targets : [...targets].reverse();
    for (const target of turn) {
      const requests = scenario.requests(target.input);
      const skipped = await probe(target.url, scenario, requests);
      if (skipped) {
        console.log(`  ${target.name}: skipped ${skipped}`);
        continue;
      }
      if (scenario.countMatches) console.log(`${await matches(target.url, requests)} (${target.name})`);
      const connections = scenario.connections ?? settings.connections;
      const result = await measure(load, timing, { url: target.url, connections, requests });
      const row = {
        target: target.name,
        endpoint: `${scenario.endpoint} [${scenario.name}]`,
        connections,
        result,
        bareRps,
        ...(anchorRps ? { anchorRps } : {}),
      };
      console.log(table([row]).split('\n')[2]);
      rows.get(target.name)!.push(row);
    }
    console.log(`  load average ${loadAverage()}`);
  }
  return targets.flatMap((t) => rows.get(t.name)!);
}

/** Within 1.2 times the external server's time: at least 1 / 1.2 of its rate. */
const EMBEDDED_GOAL = 1 / 1.2;

/**
 * Per scenario measured on both targets, the embedded server's requests a second against the
 * external PostgreSQL's in the same run (a Markdown table), or undefined when either is missing.
 */
function embeddedAgainstExternal(rows: Row[]): string | undefined {
  const pairs = rows
    .filter((r) => r.target === 'embedded')
    .map((e) => [e, rows.find((r) => r.target === 'postgres' && r.endpoint === e.endpoint)] as const)
    .filter((pair): pair is readonly [Row, Row] => pair[1] !== undefined);
  if (!pairs.length) return undefined;
  const rate = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
  const lines = [
    `embedded against external PostgreSQL, same run (goal: within 1.2 times, a ratio of at least ${EMBEDDED_GOAL.toFixed(2)}):`,
    '',
    '| endpoint | conns | embedded req/s | p99 ms | postgres req/s | p99 ms | embedded / postgres | goal met |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const [e, p] of pairs) {
    const ratio = p.result.rps > 0 ? e.result.rps / p.result.rps : 0;
    lines.push(
      `| ${e.endpoint} | ${e.connections} | ${rate(e.result.rps)} | ${Math.round(e.result.p99)} | ` +
        `${rate(p.result.rps)} | ${Math.round(p.result.p99)} | ${ratio.toFixed(2)} | ${ratio >= EMBEDDED_GOAL ? 'yes' : 'no'} |`,
    );
  }
  return lines.join('\n');
}

function chosenScenarios(args: string[]): Scenario[] {
  if (args.length === 0) return SCENARIOS;
  const unknown = args.filter((a) => !SCENARIOS.some((s) => s.name === a));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')} (--list shows them)`);
  return SCENARIOS.filter((s) => args.includes(s.name));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    for (const s of SCENARIOS)
      console.log(`${s.name.padEnd(28)} ${s.issue ? `issue ${s.issue}` : '       '}  ${s.endpoint}`);
    return 0;
  }
  const scenarios = chosenScenarios(args);
  const volume = demoVolume('large', settings.scale);
  console.log(
    `Large data set benchmark: node ${process.version}, ${os.cpus().length} CPUs, ${settings.seconds} s a run ` +
      `(+${settings.warmup} s warm-up), ${settings.connections} connections; ${volume.clients} clients, ` +
      `${volume.schemes} schemes, ${volume.trainings} training certificates (${cacheName}); ` +
      `scenarios: ${scenarios.map((s) => s.name).join(', ')}; load average ${loadAverage()}`,
  );
  const load = new LoadGenerator();
  const rows: Row[] = [];
  let failed = false;
  try {
    console.log('\n== bare Fastify baseline ==');
    const bare = await bareBaseline(load, timing, settings.connections);
    console.log(table([bare]).split('\n')[2]);
    rows.push(bare);
    // The anchor needs the PostgreSQL data set: built or found first, measured once.
    let postgresEnv: Record<string, string> | undefined;
    let anchorRps: number | undefined;
    if (settings.serverUrl) {
      console.log('\n== anchor: bare Fastify + one pg primary-key lookup ==');
      postgresEnv = await postgresDatabase(settings.serverUrl);
      const anchor = {
        ...(await anchorBaseline(load, timing, settings.connections, postgresEnv.DATABASE_URL!)),
        bareRps: bare.result.rps,
      };
      anchorRps = anchor.anchorRps;
      console.log(table([anchor]).split('\n')[2]);
      rows.push(anchor);
    }
    const open: OpenTarget[] = [];
    try {
      for (const name of settings.targets) {
        try {
          console.log(`\n== ${name} (load average ${loadAverage()}) ==`);
          let env: Record<string, string>;
          if (name === 'embedded') env = await embeddedDataDir();
          else {
            if (!postgresEnv) {
              console.log('  skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
              continue;
            }
            env = postgresEnv;
          }
          open.push(await openTarget(name, env));
        } catch (err) {
          failed = true;
          console.error(`${name}: opening failed:`, err);
        }
      }
      if (open.length) {
        console.log(
          `\n== scenarios on ${open.map((t) => t.name).join(' and ')}, back to back (load average ${loadAverage()}) ==`,
        );
        rows.push(...(await runScenarios(open, scenarios, load, bare.result.rps, anchorRps)));
      }
    } catch (err) {
      failed = true;
      console.error('benchmark failed:', err);
    } finally {
      for (const target of open) await target.close();
    }
  } finally {
    load.close();
  }
  console.log(`\n${table(rows)}`);
  console.log(
    '\nreq/s: mean responses a second; p50/p99: latency; errors/non-2xx: connection errors and timeouts / ' +
      'answers other than 2xx; vs bare: req/s over the bare Fastify route in this run; vs anchor: req/s over ' +
      'the anchor route (bare Fastify + one pg prepared primary-key lookup) in this run; cpu us: the server ' +
      "process's CPU time (user + system) per answer during the measured run (the API's; the database, " +
      'embedded or external, runs in its own processes). Nothing is asserted.',
  );
  const compared = embeddedAgainstExternal(rows);
  if (compared) console.log(`\n${compared}`);
  console.log(`\nload average at the end: ${loadAverage()}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
