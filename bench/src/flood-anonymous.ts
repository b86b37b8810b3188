/**
 * The anonymous flood (FLOOD_SCENARIO=anonymous, flood-bench.ts): FLOOD_CONNECTIONS (300)
 * keep-alive connections of anonymous public checks of real certificate numbers, each sending its
 * next request as soon as the last is answered (a `503` included: a flood ignores Retry-After),
 * while one signed-in client reads at a steady pace (a read every FLOOD_STAFF_EVERY_MS, 100 ms,
 * in turn the client list, the dashboard and user-info) on its own connection and in its own process
 * (the flood's client keeps its event loop busy), against an API with
 * a small pool (FLOOD_POOL_SIZE, 4). Prints the signed-in reads' p50/p95/p99 and their `503`s, and
 * how many anonymous requests were answered and shed. Configurations: "no share" (nothing kept for
 * signed-in requests, OVERLOAD_STAFF_RESERVED_CONNECTIONS=0) and the defaults; FLOOD_EXTRA adds
 * more. Bounded: FLOOD_SECONDS (15) a configuration, 127.0.0.1 only.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  HOST,
  loadAverage,
  type Outcome,
  PASSWORD,
  percentile,
  send,
  signIn,
  sleep,
  start,
  stop,
} from './flood-api';

const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 300);
const SECONDS = Number(process.env.FLOOD_SECONDS ?? 15);
const POOL_SIZE = process.env.FLOOD_POOL_SIZE ?? '4';
const STAFF_EVERY_MS = Number(process.env.FLOOD_STAFF_EVERY_MS ?? 100);

const CONFIGURATIONS: { label: string; env: Record<string, string> }[] = [
  { label: 'no share', env: { OVERLOAD_STAFF_RESERVED_CONNECTIONS: '0' } },
  { label: 'defaults', env: {} },
  ...(process.env.FLOOD_EXTRA ?? '')
    .split(';')
    .filter(Boolean)
    .map((set) => ({
      label: set,
      env: Object.fromEntries(set.split(',').map((kv) => kv.split('=') as [string, string])),
    })),
];

/** What the signed-in client reads, in turn (`{n}`: a page from 1 to 50). */
const STAFF_READS = [
  '/api/company-certificate?paginate=20&page={n}',
  '/api/dashboard-total/ALL',
  '/api/user-info',
];

/** Public check paths of up to 200 real certificate numbers (some DRAFT: those answer 404). */
async function checkPaths(port: number, token: string): Promise<string[]> {
  const res = await fetch(`http://${HOST}:${port}/api/report-company-certification-scheme/ALL?paginate=200`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`the scheme list answered ${res.status}`);
  const { data } = (await res.json()) as { data: { cert_number?: string | null }[] };
  const numbers = data.map((row) => row.cert_number).filter((n): n is string => !!n);
  if (!numbers.length) throw new Error('no certificate numbers to check');
  return numbers.map((n) => `/api/check-certificate-company/${encodeURIComponent(n)}`);
}

const agentOf = (connections: number) =>
  new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });

/**
 * The signed-in client, in a process of its own: the flood's 300 connections keep this process's
 * event loop busy, which would be counted in the reads' times. Prints its outcomes as JSON.
 */
const READER = `
const http = require('node:http');
const { PORT, TOKEN, EVERY, SECONDS, READS } = process.env;
const reads = JSON.parse(READS);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const send = (path) => new Promise((resolve) => {
  const started = performance.now();
  const done = (status) => resolve({ status, ms: performance.now() - started });
  const req = http.get({ agent, host: '127.0.0.1', port: Number(PORT), path,
    headers: { authorization: 'Bearer ' + TOKEN } }, (res) => {
    res.resume();
    res.on('end', () => done(res.statusCode));
    res.on('error', () => done(0));
  });
  req.setTimeout(60000, () => req.destroy());
  req.on('error', () => done(0));
});
(async () => {
  const out = [];
  const end = performance.now() + Number(SECONDS) * 1000;
  for (let n = 0; performance.now() < end; n++) {
    const o = await send(reads[n % reads.length].replace('{n}', String(1 + (n % 50))));
    out.push(o);
    await new Promise((r) => setTimeout(r, Math.max(0, Number(EVERY) - o.ms)));
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(out));
})();
`;

function reader(port: number, token: string, seconds: number): Promise<Outcome[]> {
  const child = spawn(process.execPath, ['-e', READER], {
    env: {
      ...process.env,
      PORT: String(port),
      TOKEN: token,
      EVERY: String(STAFF_EVERY_MS),
      SECONDS: String(seconds),
      READS: JSON.stringify(STAFF_READS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(text) as Outcome[]) : reject(new Error(`reader exited ${code}`)),
    ),
  );
}

/** The flood and the steady signed-in reads side by side for `seconds`; then every answer awaited. */
async function both(port: number, token: string, paths: string[], connections: number, seconds: number) {
  const anonymous = agentOf(connections);
  // Connections opened before the flood starts (a 404 that reads nothing).
  await Promise.all(
    Array.from({ length: connections }, () => send(anonymous, port, undefined, '/api/no-such-route')),
  );
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const flood: Outcome[] = [];
  const end = performance.now() + seconds * 1000;
  const floodLoop = async (c: number) => {
    for (let n = 0; performance.now() < end; n++) {
      flood.push(await send(anonymous, port, undefined, paths[(c * 7 + n) % paths.length]!));
    }
  };
  const [reads] = await Promise.all([
    reader(port, token, seconds),
    ...Array.from({ length: connections }, (_, c) => floodLoop(c)),
  ]);
  lag.disable();
  anonymous.destroy();
  return { flood, reads, clientLagP99: lag.percentile(99) / 1e6 };
}

async function run(label: string, env: Record<string, string>): Promise<string> {
  const { child, port } = await start({
    ...env,
    DB_POOL_SIZE: POOL_SIZE,
    ADMIN_PASSWORD: PASSWORD,
    RATE_LIMIT_PUBLIC: '100000000',
  });
  try {
    const token = await signIn(port);
    const paths = await checkPaths(port, token);
    // Warm-up, not counted: code compiled, connections to the database opened.
    await both(port, token, paths, 10, 2);
    const { flood, reads, clientLagP99 } = await both(port, token, paths, CONNECTIONS, SECONDS);
    const ok = (o: Outcome) => o.status >= 200 && o.status < 300;
    const readMs = reads
      .filter(ok)
      .map((o) => o.ms)
      .sort((a, b) => a - b);
    const ms = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0));
    const count = (list: Outcome[], test: (o: Outcome) => boolean) => list.filter(test).length;
    const answered = (o: Outcome) => ok(o) || o.status === 404;
    const other = (o: Outcome) => o.status > 0 && !answered(o) && o.status !== 503;
    return (
      `| ${label} | ${reads.length} | ${readMs.length} | ${count(reads, (o) => o.status === 503)} | ` +
      `${count(reads, (o) => !ok(o) && o.status !== 503)} | ${ms(percentile(readMs, 50))} | ` +
      `${ms(percentile(readMs, 95))} | ${ms(percentile(readMs, 99))} | ${ms(readMs.at(-1) ?? NaN)} | ` +
      `${flood.length} | ${count(flood, answered)} | ${count(flood, (o) => o.status === 503)} | ` +
      `${count(flood, other)} | ${count(flood, (o) => o.status === 0)} | ${ms(clientLagP99)} |`
    );
  } finally {
    await stop(child);
  }
}

export async function anonymousFlood(dbEnv: Record<string, string>, target: string) {
  console.log(
    `anonymous flood: ${CONNECTIONS} connections of public checks, a signed-in read every ` +
      `${STAFF_EVERY_MS} ms, ${SECONDS} s a configuration; ${target}, DB_POOL_SIZE ${POOL_SIZE}; ` +
      `${os.cpus().length} cores, load average ${loadAverage()}`,
  );
  console.log(
    '| configuration | signed-in reads | 2xx | 503 | other | p50 ms | p95 ms | p99 ms | max ms | anonymous requests | answered (200/404) | 503 | other | no answer | client lag p99 ms |',
  );
  console.log(`| --- |${' ---: |'.repeat(14)}`);
  for (const { label, env } of CONFIGURATIONS) {
    console.log(await run(label, { ...dbEnv, ...env }));
    await sleep(1000);
  }
  console.log(`load average after: ${loadAverage()}`);
}
