/**
 * A flood of 400 connections against a running API process (issue 17): how long answered requests
 * take, and what share is shed (503 + Retry-After) when the process is saturated. Prints numbers,
 * asserts nothing.
 *
 *   npm run flood --workspace bench                       # the embedded database
 *   BENCH_DATABASE_URL=postgres://... npm run flood --workspace bench
 *
 * It builds the API (if stale), starts `api/dist/server.js` as a child process (a fresh DATA_DIR, or
 * the given PostgreSQL database), signs in, and from 400 keep-alive connections sends signed-in
 * `GET /api/company?paginate=20` for FLOOD_SECONDS (default 10), once with overload shedding off
 * (OVERLOAD_MAX_IN_FLIGHT=0) and once with the defaults.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 400);
const SECONDS = Number(process.env.FLOOD_SECONDS ?? 10);
const PASSWORD = 'flood-admin-password';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function start(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'api', 'dist', 'server.js')], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { child, port };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the API did not start');
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

async function flood(port: number, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const answered: number[] = [];
  let shed = 0;
  let other = 0;
  let failed = 0;
  const end = Date.now() + SECONDS * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.get(
        {
          agent,
          host: '127.0.0.1',
          port,
          path: '/api/company?paginate=20',
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) answered.push(performance.now() - started);
            else if (res.statusCode === 503) shed++;
            else other++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed++;
        resolve();
      });
    });
  const loop = async () => {
    while (Date.now() < end) await one();
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  agent.destroy();
  answered.sort((a, b) => a - b);
  const total = answered.length + shed + other + failed;
  return {
    total,
    answered: answered.length,
    shedShare: total ? shed / total : 0,
    other,
    failed,
    p50: percentile(answered, 50),
    p99: percentile(answered, 99),
    max: answered.at(-1) ?? NaN,
  };
}

async function main() {
  spawnSync(process.execPath, [path.join(root, 'api', 'scripts', 'build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-flood-'));
  const dbEnv: Record<string, string> = process.env.BENCH_DATABASE_URL
    ? { DATABASE_URL: process.env.BENCH_DATABASE_URL }
    : { DATA_DIR: dataDir };
  const target = process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite';
  console.log(`flood: ${CONNECTIONS} connections, ${SECONDS} s, GET /api/company?paginate=20, ${target}`);
  console.log(
    '| shedding | requests | answered 200 | shed 503 | other | failed | p50 ms | p99 ms | max ms |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  try {
    for (const [label, env] of [
      ['off (OVERLOAD_MAX_IN_FLIGHT=0)', { OVERLOAD_MAX_IN_FLIGHT: '0' }],
      ['defaults', {}],
    ] as const) {
      const { child, port } = await start({
        ...dbEnv,
        ...env,
        ADMIN_PASSWORD: PASSWORD,
        RATE_LIMIT_PUBLIC: '100000',
      });
      try {
        const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: PASSWORD }),
        });
        const { token } = (await login.json()) as { token: string };
        const r = await flood(port, token);
        const ms = (n: number) => n.toFixed(0);
        console.log(
          `| ${label} | ${r.total} | ${r.answered} | ${(r.shedShare * 100).toFixed(1)} % | ${r.other} | ${r.failed} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} |`,
        );
      } finally {
        await stop(child);
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
