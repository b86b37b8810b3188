/**
 * A flood of 400 connections of heavy signed-in reads against the API running as its own process:
 * how long answered requests waited, and whether what could not be served in time was answered
 * `503` + `Retry-After` at once. Prints numbers, asserts nothing. Traffic goes to 127.0.0.1 only,
 * for FLOOD_SECONDS a configuration.
 *
 *   npm run flood --workspace bench                          # the embedded PostgreSQL server
 *   BENCH_DATABASE_URL=postgres://.../<empty db> npm run flood --workspace bench
 *
 * It builds the API (if stale), fills a fresh DATA_DIR (the API starts its own embedded server
 * there) with the demo data set (`--size small --scale FLOOD_SCALE`: 2,400 clients, 5,200 schemes,
 * 3,000 training certificates at the default 10), then, once per configuration and kind of client,
 * starts `api/dist/server.js` on it, signs in as the administrator (scope ALL), opens
 * FLOOD_CONNECTIONS keep-alive connections and sends from each, in turn,
 * `GET /api/dashboard-total/ALL` (the dashboard: its session, then six queries at once) and
 * `GET /api/company-certificate?paginate=20&page=<n>` (the client list). Two kinds of client
 * (FLOOD_RETRY, default both): "at once" sends its next request as soon as the last is answered, a
 * `503` included (a flood that ignores Retry-After); "honour" waits out a `503`'s Retry-After first,
 * as the portal's client does.
 *
 * Configurations: "before", the settings the API had until overload was judged by the pool's wait
 * (requests in flight past 200, the event loop's mean delay past 1000 ms, no limit on a wait for a
 * pool connection), and "after", the defaults. FLOOD_EXTRA adds configurations, settings over the
 * defaults (`OVERLOAD_MAX_POOL_WAIT_MS=1000,DB_ACQUIRE_TIMEOUT_MS=2000;...`). FLOOD_DATA_DIR keeps
 * the filled directory between runs (filled on first use); FLOOD_LOG_LEVEL shows the API's log at
 * that level (`warn`: when and why it sheds).
 *
 * FLOOD_SCENARIO=anonymous runs the anonymous flood instead (flood-anonymous.ts): public checks
 * from 300 connections while one signed-in client reads at a steady pace, on a pool of 4.
 */
import http from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { anonymousFlood } from './flood-anonymous';
import {
  loadAverage,
  type Outcome,
  PASSWORD,
  percentile,
  send,
  signIn,
  sleep,
  start,
  stop,
  withFilledDatabase,
} from './flood-api';

const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 400);
const SECONDS = Number(process.env.FLOOD_SECONDS ?? 15);
type Client = 'at once' | 'honour';
const CLIENTS: Client[] =
  process.env.FLOOD_RETRY === 'honour'
    ? ['honour']
    : process.env.FLOOD_RETRY === 'at-once'
      ? ['at once']
      : ['at once', 'honour'];

const CONFIGURATIONS: { label: string; env: Record<string, string> }[] = [
  {
    label: 'before: in flight 200, event loop 1000 ms',
    env: {
      OVERLOAD_MAX_IN_FLIGHT: '200',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '1000',
      OVERLOAD_MAX_POOL_WAIT_MS: '0',
      DB_ACQUIRE_TIMEOUT_MS: '0',
    },
  },
  { label: 'after: defaults', env: {} },
  // FLOOD_EXTRA="A=1,B=2;A=3": more configurations, settings over the defaults.
  ...(process.env.FLOOD_EXTRA ?? '')
    .split(';')
    .filter(Boolean)
    .map((set) => ({
      label: set,
      env: Object.fromEntries(set.split(',').map((kv) => kv.split('=') as [string, string])),
    })),
];

/** What each connection asks for, in turn; `n` counts that connection's requests. */
const REQUESTS: ((n: number) => string)[] = [
  () => '/api/dashboard-total/ALL',
  (n) => `/api/company-certificate?paginate=20&page=${1 + (n % 100)}`,
];

/**
 * Opens `connections` keep-alive connections before the flood (each asks once for
 * `/api/no-such-route`: a 404 that reads nothing, or a 503 past an in-flight limit). On a busy
 * machine a connection opened while hundreds of others already hammer the server waits seconds to
 * be accepted and read, by a bare Node server too (bench/README.md): no setting of the API sheds that.
 */
async function open(port: number, token: string, connections: number): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const answers = await Promise.all(
    Array.from({ length: connections }, () => send(agent, port, token, '/api/no-such-route')),
  );
  const open = answers.filter((a) => a.status > 0).length;
  if (open < connections) throw new Error(`only ${open} of ${connections} connections opened`);
  return agent;
}

/** Each connection of `agent` asks in turn for REQUESTS for `seconds`; then every answer awaited. */
async function flood(
  agent: http.Agent,
  port: number,
  token: string,
  connections: number,
  seconds: number,
  client: Client,
) {
  // This process's own event loop: a client too busy to read its answers in time inflates every figure.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const outcomes: Outcome[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  const loop = async (c: number) => {
    for (let n = 0; performance.now() < end; n++) {
      const out = await send(agent, port, token, REQUESTS[(c + n) % REQUESTS.length]!(c + n));
      outcomes.push(out);
      if (out.status === 503 && client === 'honour' && out.retryAfter) {
        await sleep(Math.min(out.retryAfter * 1000, Math.max(0, end - performance.now())));
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, c) => loop(c)));
  const elapsed = (performance.now() - started) / 1000;
  lag.disable();
  return { outcomes, elapsed, clientLagP99: lag.percentile(99) / 1e6 };
}

function summarise(outcomes: Outcome[], elapsed: number) {
  const sorted = (list: Outcome[]) => list.map((o) => o.ms).sort((a, b) => a - b);
  const ok = sorted(outcomes.filter((o) => o.status >= 200 && o.status < 300));
  const shedOutcomes = outcomes.filter((o) => o.status === 503);
  const shed = sorted(shedOutcomes);
  let answeredMax = NaN;
  for (const o of outcomes) if (o.status > 0 && !(o.ms <= answeredMax)) answeredMax = o.ms;
  return {
    requests: outcomes.length,
    ok: ok.length,
    okRate: ok.length / elapsed,
    okP50: percentile(ok, 50),
    okP99: percentile(ok, 99),
    okMax: ok.at(-1) ?? NaN,
    shed: shed.length,
    shedWithoutRetryAfter: shedOutcomes.filter((o) => !o.retryAfter).length,
    shedP50: percentile(shed, 50),
    shedP99: percentile(shed, 99),
    shedMax: shed.at(-1) ?? NaN,
    other: outcomes.filter((o) => o.status > 0 && o.status !== 503 && (o.status < 200 || o.status >= 300))
      .length,
    noAnswer: outcomes.filter((o) => o.status === 0).length,
    answeredMax,
  };
}

/** One configuration with one kind of client: a fresh API process, warm-up, the flood; a table row. */
async function run(label: string, client: Client, env: Record<string, string>): Promise<string> {
  const { child, port } = await start({ ...env, ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_PUBLIC: '100000' });
  try {
    const token = await signIn(port);
    // Warm-up, not counted: code compiled, connections to the database opened, list pages read once.
    const warm = await open(port, token, 10);
    await flood(warm, port, token, 10, 2, client);
    warm.destroy();
    const agent = await open(port, token, CONNECTIONS);
    const { outcomes, elapsed, clientLagP99 } = await flood(agent, port, token, CONNECTIONS, SECONDS, client);
    agent.destroy();
    const r = summarise(outcomes, elapsed);
    const ms = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0));
    const missing = r.shedWithoutRetryAfter ? ` (${r.shedWithoutRetryAfter} without Retry-After)` : '';
    return (
      `| ${label} | ${client} | ${r.requests} | ${r.ok} | ${r.okRate.toFixed(1)} | ${ms(r.okP50)} | ${ms(r.okP99)} | ` +
      `${ms(r.okMax)} | ${r.shed}${missing} | ${ms(r.shedP50)} | ${ms(r.shedP99)} | ${ms(r.shedMax)} | ${r.other} | ` +
      `${r.noAnswer} | ${ms(r.answeredMax)} | ${ms(clientLagP99)} |`
    );
  } finally {
    await stop(child);
  }
}

async function main() {
  await withFilledDatabase(async (dbEnv) => {
    const target = dbEnv.DATABASE_URL ? 'PostgreSQL (BENCH_DATABASE_URL)' : 'embedded PostgreSQL server';
    if (process.env.FLOOD_SCENARIO === 'anonymous') return anonymousFlood(dbEnv, target);
    console.log(
      `flood: ${CONNECTIONS} connections, ${SECONDS} s a configuration; ${target}, ` +
        `DB_POOL_SIZE ${process.env.DB_POOL_SIZE ?? 10}; ${os.cpus().length} cores, load average ${loadAverage()}`,
    );
    console.log(
      '| configuration | client | requests | 2xx | 2xx/s | 2xx p50 ms | 2xx p99 ms | 2xx max ms | 503 | 503 p50 ms | 503 p99 ms | 503 max ms | other | no answer | any answer max ms | client lag p99 ms |',
    );
    console.log(`|${' --- |'.repeat(2)}${' ---: |'.repeat(14)}`);
    for (const client of CLIENTS) {
      for (const { label, env } of CONFIGURATIONS) {
        console.log(await run(label, client, { ...dbEnv, ...env }));
        await sleep(1000);
      }
    }
    console.log(`load average after: ${loadAverage()}`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
