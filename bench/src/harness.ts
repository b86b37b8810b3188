/**
 * Pieces every API benchmark shares: listening on loopback, signing in, a measured run after a
 * discarded warm-up, and the bare Fastify baseline each run's ratios are taken against.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import type { LoadGenerator, LoadJob, LoadResult } from './load';
import type { Row } from './report';

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

export { freePort } from './api';

export async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in as ${username} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface Timing {
  seconds: number;
  warmup: number;
}

/**
 * Warm-up (discarded), then the measured run. `cpuUs`: this process's CPU time (user + system)
 * during the measured run per answer. Every server a benchmark measures runs in this process (the
 * load comes from a child), so it is what one answer costs the server, syscalls included: a figure
 * that moves far less with the machine's load than requests a second do.
 */
export async function measure(
  load: LoadGenerator,
  timing: Timing,
  job: Omit<LoadJob, 'seconds'>,
): Promise<LoadResult & { cpuUs: number }> {
  if (timing.warmup) await load.run({ ...job, seconds: timing.warmup });
  const before = process.cpuUsage();
  const result = await load.run({ ...job, seconds: timing.seconds });
  const used = process.cpuUsage(before);
  const answers = result.ok + result.non2xx;
  return { ...result, cpuUs: answers ? (used.user + used.system) / answers : 0 };
}

/** `GET /bare` on a bare Fastify app: the framework and loopback HTTP alone. */
export async function bareBaseline(load: LoadGenerator, timing: Timing, connections: number): Promise<Row> {
  const app = Fastify();
  app.get('/bare', async () => ({ ok: true, name: 'Sistem Sertifikasi', at: 1 }));
  try {
    const url = await listen(app);
    const result = await measure(load, timing, {
      url,
      connections,
      requests: [{ method: 'GET', path: '/bare' }],
    });
    return { target: '-', endpoint: 'GET /bare (bare Fastify)', connections, result, bareRps: result.rps };
  } finally {
    await app.close();
  }
}

/**
 * The anchor: the least a signed-in read can cost here. A bare Fastify route answering
 * one primary-key lookup through pg as a named prepared statement (one of 200 clients by id, in
 * turn), on a pool of as many connections as the load's. Every row of the large benchmark is also
 * printed as a ratio to it.
 */
export async function anchorBaseline(
  load: LoadGenerator,
  timing: Timing,
  connections: number,
  databaseUrl: string,
): Promise<Row> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  const ids = (
    await pool.query<{ id: string }>('select id from client_certificates order by id limit 200')
  ).rows.map((r) => r.id);
  const app = Fastify();
  app.get<{ Params: { i: string } }>('/anchor/:i', async (req) => {
    const id = ids[Number(req.params.i) % ids.length];
    const { rows } = await pool.query<{ id: string; name: string }>({
      name: 'anchor-client-by-id',
      text: 'select id, name, certificate_number from client_certificates where id = $1',
      values: [id],
    });
    return rows[0] ?? null;
  });
  try {
    const url = await listen(app);
    const result = await measure(load, timing, {
      url,
      connections,
      requests: ids.map((_, i) => ({ method: 'GET', path: `/anchor/${i}` })),
    });
    return {
      target: 'postgres',
      endpoint: 'GET /anchor/{i} (bare Fastify + pg prepared primary-key lookup)',
      connections,
      result,
      bareRps: 0,
      anchorRps: result.rps,
    };
  } finally {
    await app.close();
    await pool.end();
  }
}

/**
 * Cleanups to run if a run is interrupted (Ctrl-C) before its own finally blocks get there. They run
 * one at a time, the last added first, as finally blocks would: a runtime opened on a target closes
 * (and stops its embedded server) before the target's folder is removed.
 */
export const onInterrupt = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void (async () => {
      for (const cleanup of [...onInterrupt].reverse()) {
        await cleanup().catch((err: unknown) => console.error('cleanup failed:', err));
      }
    })().then(() => process.exit(130));
  });
}

/**
 * `close` made safe to call more than once and kept in `onInterrupt` until it has run: for a
 * runtime or database opened by a benchmark (closing it stops the embedded server it started).
 */
export function closeOnInterrupt(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const once = () => {
    closing ??= close().finally(() => onInterrupt.delete(once));
    return closing;
  };
  onInterrupt.add(once);
  return once;
}
