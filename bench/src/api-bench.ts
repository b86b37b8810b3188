/**
 * The API benchmark (bench/README.md): seeds thousands of companies and users on each database
 * target, then loads list-with-search and login beside a bare Fastify route and prints a table.
 * It prints numbers and asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import pino from 'pino';
import { buildApp, LOG_REDACT, loadConfig, openRuntime } from './api';
import { bareBaseline, closeOnInterrupt, listen, measure, onInterrupt, signIn } from './harness';
import { type LoadJob, LoadGenerator } from './load';
import { COMPANY_SEARCHES, USER_SEARCHES } from './names';
import { type Row, table } from './report';
import { seed, SEEDED_PASSWORD } from './seed';
import {
  chosenTargets,
  describeUrl,
  embeddedTarget,
  postgresTarget,
  type Target,
  type TargetName,
} from './targets';
import { envInt } from './settings';

const settings = {
  seconds: envInt('BENCH_SECONDS', 10, 1, 120),
  warmup: envInt('BENCH_WARMUP', 2, 0, 30),
  connections: envInt('BENCH_CONNECTIONS', 10, 1, 100),
  loginConnections: envInt('BENCH_LOGIN_CONNECTIONS', 4, 1, 100),
  companies: envInt('BENCH_COMPANIES', 5000, 0, 200_000),
  users: envInt('BENCH_USERS', 5000, 0, 200_000),
  logLevel: process.env.BENCH_LOG_LEVEL || 'info',
  serverUrl: process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined,
  targets: chosenTargets(),
};

const timing = { seconds: settings.seconds, warmup: settings.warmup };

const listPath = (resource: string, term: string) =>
  `/api/${resource}?search=${encodeURIComponent(term)}&paginate=20`;

/** How many rows each term finds, so the reader knows what the searches do. */
async function matchReport(url: string, token: string, resource: string, terms: string[], of: number) {
  const parts: string[] = [];
  for (const term of terms) {
    const res = await fetch(url + listPath(resource, term), {
      headers: { authorization: `Bearer ${token}` },
    });
    const total = res.ok ? ((await res.json()) as { total: number }).total : NaN;
    parts.push(`"${term}" ${total} (${of ? ((100 * total) / of).toFixed(1) : '-'}%)`);
  }
  return `  ${resource} search matches: ${parts.join(', ')}`;
}

/** Bytes on the wire of one answer (fetch would decode it), for the compression runs. */
function wireBytes(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** A large list (200 companies) as plain JSON, gzip and brotli: what compression costs and saves. */
const BIG_LIST = '/api/company?paginate=200';
const ENCODINGS: [label: string, acceptEncoding: string | undefined][] = [
  ['identity', undefined],
  ['gzip', 'gzip'],
  ['br', 'gzip, deflate, br'],
];

async function benchTarget(target: Target, load: LoadGenerator, bareRps: number): Promise<Row[]> {
  const adminPassword = randomBytes(12).toString('base64url');
  const config = loadConfig({
    ...target.env,
    NODE_ENV: 'production',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD: adminPassword,
    RATE_LIMIT_PUBLIC: '1000000',
    LOG_LEVEL: settings.logLevel,
    HOST: '127.0.0.1',
    PORT: '0',
  });
  // Production logging (info, JSON, redacted), written to /dev/null: its cost is part of every request.
  const logger = pino({ level: config.logLevel, redact: LOG_REDACT }, pino.destination('/dev/null'));
  let started = Date.now();
  const opened = await openRuntime(config, { migrate: true, logger });
  const runtime = { ...opened, close: closeOnInterrupt(() => opened.close()) };
  try {
    console.log(`  database opened and migrated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    const counts = await seed(runtime.database.db, config, settings);
    // What autovacuum would have done by the time anyone searches.
    await runtime.database.exec('vacuum analyze');
    console.log(
      `  seeded ${counts.companies} companies, ${counts.users} users, ${counts.roles} roles, ` +
        `${counts.userCompanies} user-company links in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const app = await buildApp({ config, db: runtime.database.db, logger });
    try {
      const url = await listen(app);
      const token = await signIn(url, 'admin', adminPassword);
      console.log(await matchReport(url, token, 'company', COMPANY_SEARCHES, counts.companies));
      console.log(await matchReport(url, token, 'user', USER_SEARCHES, counts.users + 1));

      const auth = { authorization: `Bearer ${token}` };
      const rows: Row[] = [];
      const run = async (endpoint: string, connections: number, requests: LoadJob['requests']) => {
        const result = await measure(load, timing, { url, connections, requests });
        const row = { target: target.name, endpoint, connections, result, bareRps };
        console.log(table([row]).split('\n')[2]);
        rows.push(row);
      };
      // Sign-in check and one user lookup: what every signed-in request pays before its own work.
      await run('GET /api/profile (auth only)', settings.connections, [
        { method: 'GET', path: '/api/profile', headers: auth },
      ]);
      await run(
        'GET /api/company?search&paginate=20',
        settings.connections,
        COMPANY_SEARCHES.map((term) => ({ method: 'GET', path: listPath('company', term), headers: auth })),
      );
      await run(
        'GET /api/user?search&paginate=20',
        settings.connections,
        USER_SEARCHES.map((term) => ({ method: 'GET', path: listPath('user', term), headers: auth })),
      );
      const sizes: string[] = [];
      for (const [label, accept] of ENCODINGS) {
        const bytes = await wireBytes(url + BIG_LIST, {
          ...auth,
          ...(accept ? { 'accept-encoding': accept } : {}),
        });
        sizes.push(`${label} ${(bytes / 1024).toFixed(1)} KB`);
      }
      console.log(`  ${BIG_LIST} answer on the wire: ${sizes.join(', ')}`);
      for (const [label, accept] of ENCODINGS) {
        await run(`GET ${BIG_LIST} (${label})`, settings.connections, [
          {
            method: 'GET',
            path: BIG_LIST,
            headers: { ...auth, ...(accept ? { 'accept-encoding': accept } : {}) },
          },
        ]);
      }
      const logins = counts.loginUsernames.length
        ? counts.loginUsernames.slice(0, 50).map((username) => ({ username, password: SEEDED_PASSWORD }))
        : [{ username: 'admin', password: adminPassword }];
      await run(
        'POST /api/login',
        settings.loginConnections,
        logins.map((body) => ({
          method: 'POST',
          path: '/api/login',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })),
      );
      return rows;
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
  }
}

async function openTarget(name: TargetName): Promise<Target | undefined> {
  if (name === 'embedded') return embeddedTarget();
  if (!settings.serverUrl) {
    console.log('\n== postgres: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL) ==');
    return undefined;
  }
  return postgresTarget(settings.serverUrl);
}

async function main(): Promise<number> {
  console.log(
    `API benchmark: node ${process.version}, ${os.cpus().length} CPUs, ${settings.seconds} s a run ` +
      `(+${settings.warmup} s warm-up), ${settings.connections} connections (login ${settings.loginConnections}), ` +
      `${settings.companies} companies and ${settings.users} users seeded`,
  );
  const load = new LoadGenerator();
  const rows: Row[] = [];
  let failed = false;
  try {
    console.log('\n== bare Fastify baseline ==');
    const bare = await bareBaseline(load, timing, settings.connections);
    console.log(table([bare]).split('\n')[2]);
    rows.push(bare);
    for (const name of settings.targets) {
      let target: Target | undefined;
      try {
        target = await openTarget(name);
        if (!target) continue;
        const where = target.env.DATABASE_URL ? describeUrl(target.env.DATABASE_URL) : target.env.DATA_DIR;
        console.log(`\n== ${target.name}: ${where} ==`);
        onInterrupt.add(target.dispose);
        rows.push(...(await benchTarget(target, load, bare.result.rps)));
      } catch (err) {
        failed = true;
        console.error(`${name}: benchmark failed:`, err);
      } finally {
        if (target) {
          await target.dispose().catch((err: unknown) => console.error(`${name}: cleanup failed:`, err));
          onInterrupt.delete(target.dispose);
        }
      }
    }
  } finally {
    load.close();
  }
  console.log(`\n${table(rows)}`);
  console.log(
    '\nreq/s: mean responses a second; p50/p99: latency; errors/non-2xx: connection errors and timeouts / ' +
      'answers other than 2xx; vs bare: req/s over the bare Fastify route. Nothing is asserted.',
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
