import { type ChildProcess, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { freePort } from '../src/db/embedded';
import { alive, type Proc, runApi, sleep, waitFor as waitUntil } from './processes';

/**
 * The embedded PostgreSQL server under real processes (docs/architecture.md#the-embedded-postgresql-server):
 * the API started as `npm start` starts it, SIGKILLs of the server and of the API under concurrent
 * writers, SIGTERM, a DATA_DIR of the earlier (PGlite) version, and the way over from it.
 */

const fixtures = path.join(__dirname, 'fixtures', 'earlier-version');
/** Writers still running when a test fails are stopped after it. */
const running = new Set<() => Promise<void>>();
afterEach(async () => {
  await Promise.all([...running].map((stop) => stop()));
});

/** The API's scripts on the embedded server (no DATABASE_URL), as `npm start` runs them. */
const run = (script: string, args: string[], env: Record<string, string>): Proc =>
  runApi(script, args, { DATABASE_URL: '', ...env });
/** Waits up to two minutes: a start of the server, a restart after a kill. */
const waitFor = <T>(probe: () => T | Promise<T>, what: string) =>
  waitUntil(probe, what, { timeoutMs: 120_000 });

/** The PID of the server running on a DATA_DIR, from its postmaster.pid (undefined: none). */
function serverPid(dataDir: string): number | undefined {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    return alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** PIDs of every PostgreSQL server process (postmaster) whose data directory is this DATA_DIR's. */
function postmastersOn(dataDir: string): number[] {
  const target = path.join(dataDir, 'postgres');
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(' -D ') && l.includes(target))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

async function startApi(dataDir: string, port: number): Promise<Proc> {
  const api = run('src/server.ts', [], {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'kata-sandi-admin',
    RATE_LIMIT_PUBLIC: '100000',
  });
  await waitFor(
    () => api.output().includes('listening on http://localhost') || api.child.exitCode !== null,
    'API start',
  );
  if (api.child.exitCode !== null) throw new Error(`API did not start:\n${api.output()}`);
  return api;
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'kata-sandi-admin' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Writers creating companies until stopped: the names the API acknowledged (201), and every other
 * answer's status and code (a refused connection counts as 0).
 */
function writers(base: string, token: string, count: number, tag: string) {
  const acknowledged: string[] = [];
  const failures: string[] = [];
  let stop = false;
  const loops = Array.from({ length: count }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const name = `PT Tulis ${tag} ${w}-${i}`;
      try {
        const res = await fetch(`${base}/api/company`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name, website: `https://tulis-${tag}-${w}-${i}.co.id` }),
        });
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        if (res.status === 201) acknowledged.push(name);
        else failures.push(`${res.status} ${body.code ?? ''}`);
      } catch {
        failures.push('0');
        await sleep(50);
      }
    }
  });
  const halt = async () => {
    stop = true;
    running.delete(halt);
    await Promise.all(loops);
  };
  running.add(halt);
  return { acknowledged, failures, stop: halt };
}

/** The company names in the embedded database, read through the server as any client could. */
async function companyNames(dataDir: string): Promise<Set<string>> {
  const settings = JSON.parse(fs.readFileSync(path.join(dataDir, 'postgres.json'), 'utf8')) as {
    port: number;
    user: string;
    password: string;
    database: string;
  };
  const client = new pg.Client({ host: '127.0.0.1', ...settings });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select name from companies');
    return new Set(rows.map((r) => r.name));
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-embedded-'));
  const leftovers: ChildProcess[] = [];
  afterAll(() => {
    for (const c of leftovers) c.kill('SIGKILL');
    for (const pid of postmastersOn(dataDir)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs under the API, survives a SIGKILL of the server and of the API with no acknowledged write lost, and stops with the API on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let api = await startApi(dataDir, port);
    leftovers.push(api.child);
    expect(api.output()).toContain(`embedded PostgreSQL in ${dataDir}`);
    // Its password is kept for the owner alone; it listens on the loopback address only.
    const settingsFile = path.join(dataDir, 'postgres.json');
    expect(fs.statSync(settingsFile).mode & 0o777).toBe(0o600);
    const conf = execFileSync('ps', ['-o', 'args=', '-p', String(serverPid(dataDir))], { encoding: 'utf8' });
    expect(conf).toContain('listen_addresses=127.0.0.1');
    if (process.getuid?.() === 0) {
      // Run as root, the server runs as an unprivileged user.
      const user = execFileSync('ps', ['-o', 'user=', '-p', String(serverPid(dataDir))], {
        encoding: 'utf8',
      });
      expect(user.trim()).not.toBe('root');
    }
    let token = await signIn(base);

    // 1. The server dies under concurrent writers: answers are 503 `unavailable` meanwhile, never 500;
    //    the API starts it again; every acknowledged write is there.
    const first = serverPid(dataDir)!;
    let w = writers(base, token, 4, 'a');
    await waitFor(() => w.acknowledged.length >= 20, 'writes before the kill');
    process.kill(first, 'SIGKILL');
    await waitFor(() => {
      const pid = serverPid(dataDir);
      return pid !== undefined && pid !== first;
    }, 'the server to be started again').catch((err: Error) => {
      err.message += `\nThe API's output ends:\n${api.output().slice(-3000)}`;
      throw err;
    });
    await waitFor(async () => (await fetch(`${base}/api/health`)).status === 200, 'health again');
    const afterRestart = w.acknowledged.length;
    await waitFor(() => w.acknowledged.length >= afterRestart + 20, 'writes after the restart');
    await w.stop();
    expect(w.failures.filter((f) => f !== '503 unavailable')).toEqual([]);
    let names = await companyNames(dataDir);
    expect(w.acknowledged.filter((n) => !names.has(n))).toEqual([]);
    expect(api.output()).toContain('the embedded PostgreSQL server stopped: starting it again');

    // 2. The API is SIGKILLed under concurrent writers: its server is left running; the next start
    //    stops that one cleanly and runs its own, on the same files, with no port clash.
    const second = serverPid(dataDir)!;
    w = writers(base, token, 4, 'b');
    await waitFor(() => w.acknowledged.length >= 20, 'writes before killing the API');
    api.child.kill('SIGKILL');
    await api.exited;
    await w.stop();
    expect(alive(second)).toBe(true);
    api = await startApi(dataDir, port);
    leftovers.push(api.child);
    expect(alive(second)).toBe(false);
    expect(postmastersOn(dataDir)).toEqual([serverPid(dataDir)]);
    names = await companyNames(dataDir);
    expect(w.acknowledged.filter((n) => !names.has(n))).toEqual([]);
    token = await signIn(base);
    expect(
      (await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);

    // 3. SIGTERM: the API stops its server and exits 0, leaving nothing running and DATA_DIR free.
    const third = serverPid(dataDir)!;
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    expect(api.output()).toContain('stopped cleanly');
    expect(alive(third)).toBe(false);
    expect(postmastersOn(dataDir)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);
  }, 600_000);
});

/** Every file under a folder with its size, mode, mtime and content hash. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs
      .readdirSync(d, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, entry.name);
      const st = fs.statSync(p);
      if (entry.isDirectory()) {
        out.push(`${path.relative(dir, p)}/ ${st.mode} ${st.mtimeMs}`);
        walk(p);
      } else {
        const hash = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
        out.push(`${path.relative(dir, p)} ${st.size} ${st.mode} ${st.mtimeMs} ${hash}`);
      }
    }
  };
  walk(dir);
  return out;
}

describe('a DATA_DIR of the earlier version (PGlite)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-earlier-'));
  // The server's unprivileged user must pass through the folders above a DATA_DIR.
  fs.chmodSync(root, 0o755);
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is refused at start with the way over, and nothing in it changes', async () => {
    // A real DATA_DIR written by the earlier version's `npm run migrate --workspace api` (fixtures/README.md).
    const tar = path.join(root, 'data.tar');
    fs.writeFileSync(tar, zlib.brotliDecompressSync(fs.readFileSync(path.join(fixtures, 'data-dir.tar.br'))));
    execFileSync('tar', ['-xf', tar, '-C', root]);
    const dataDir = path.join(root, 'data');
    const before = snapshot(dataDir);
    const started = Date.now();
    const api = run('src/server.ts', [], { DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await api.exited).toBe(2);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(api.output()).toContain('written by an earlier version');
    expect(api.output()).toContain('npm run backup --workspace api');
    expect(api.output()).toContain('npm run restore --workspace api');
    expect(snapshot(dataDir)).toEqual(before);
    // The commands refuse it the same way.
    const migrate = run('src/cli.ts', ['migrate'], { DATA_DIR: dataDir });
    expect(await migrate.exited).not.toBe(0);
    expect(migrate.output()).toContain('written by an earlier version');
    expect(snapshot(dataDir)).toEqual(before);
  }, 180_000);

  it('its backup restores into a new DATA_DIR with the restore command; the API then serves it, and the commands leave no server running', async () => {
    const dataDir = path.join(root, 'moved');
    const restore = run('src/cli.ts', ['restore', path.join(fixtures, 'demo-small.backup')], {
      DATA_DIR: dataDir,
    });
    expect(await restore.exited).toBe(0);
    expect(restore.output()).toMatch(/Restored \d+ rows into \d+ tables/);
    expect(postmastersOn(dataDir)).toEqual([]);
    const backupFile = path.join(root, 'again.backup');
    const backup = run('src/cli.ts', ['backup', backupFile], { DATA_DIR: dataDir });
    expect(await backup.exited).toBe(0);
    expect(fs.statSync(backupFile).size).toBeGreaterThan(1000);
    expect(postmastersOn(dataDir)).toEqual([]);

    const port = await freePort();
    const api = run('src/server.ts', [], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    try {
      await waitFor(() => api.output().includes('listening on') || api.child.exitCode !== null, 'API start');
      // A demo user of the earlier version signs in with the password they had.
      const res = await fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'manajer', password: 'kata-sandi-demo' }),
      });
      expect(res.status).toBe(200);
    } finally {
      api.child.kill('SIGTERM');
      expect(await api.exited).toBe(0);
    }
    expect(postmastersOn(dataDir)).toEqual([]);
  }, 300_000);
});
