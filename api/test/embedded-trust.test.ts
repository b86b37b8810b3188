import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { openDatabase } from '../src/db';
import { clusterOf, leftoverServer, startEmbeddedServer, stopPid } from '../src/db/embedded';
import { binaries, SERVER_USER } from '../src/db/embedded-install';
import { APP_ROLE } from '../src/db/embedded-role';
import { copyBinaries, STORE_DIR, storeFolder, trustedPath } from '../src/db/embedded-store';
import { migrate } from '../src/db/migrate';
import { alive } from './processes';

/**
 * What the embedded server runs and as whom, under real processes
 * (docs/rules.md#embedded-postgresql): as root from a folder closed to others, with none of the API's
 * secrets in its environment, the app connected as a role that is no superuser, binaries no other
 * user can have changed, and a DATA_DIR of an earlier version handed over to that role.
 */

const root = process.getuid?.() === 0;
const asRoot = root ? it : it.skip;
if (!root) console.warn('embedded-trust.test.ts: not root, so the tests of a start as root are skipped');

const SECRET = `rahasia-${randomBytes(6).toString('hex')}`;
const mode = (p: string) => fs.statSync(p).mode & 0o7777;

async function sqlAs(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

describe('the embedded server as root, DATA_DIR in a folder closed to others', () => {
  const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-closed-'));
  fs.chmodSync(closed, 0o700);
  const dataDir = path.join(closed, 'data');
  afterAll(() => {
    const pgdata = fs.existsSync(dataDir) ? clusterOf(dataDir) : undefined;
    if (pgdata?.startsWith(STORE_DIR)) fs.rmSync(path.dirname(pgdata), { recursive: true, force: true });
    fs.rmSync(closed, { recursive: true, force: true });
  });

  asRoot(
    'starts without opening the folder, runs as another user with a bare environment, and the app is no superuser',
    async () => {
      process.env.SERTIFIKASI_TEST_SECRET = SECRET;
      let server;
      try {
        server = await startEmbeddedServer(dataDir);
      } finally {
        delete process.env.SERTIFIKASI_TEST_SECRET;
      }
      try {
        expect(mode(closed)).toBe(0o700);
        // The cluster lives in the store, in a folder of its own, closed to all but its user.
        const pgdata = clusterOf(dataDir);
        expect(pgdata.startsWith(`${STORE_DIR}/`)).toBe(true);
        expect(trustedPath(path.dirname(pgdata))).toBe(true);
        const cluster = fs.statSync(pgdata);
        expect(cluster.mode & 0o777).toBe(0o700);
        expect(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }).trim()).toBe(
          String(cluster.uid),
        );
        // The server: another user, none of the API's environment.
        const pid = server.pid()!;
        expect(fs.statSync(`/proc/${pid}`).uid).toBe(cluster.uid);
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        expect(environ).not.toContain(SECRET);
        expect(environ).not.toContain('SERTIFIKASI_TEST_SECRET');
        expect(environ).not.toContain('TEST_DATABASE_URL');
        // Its files: the log and settings for the owner alone, no password file left.
        expect(mode(path.join(dataDir, 'postgres.log')) & 0o777).toBe(0o600);
        expect(mode(path.join(dataDir, 'postgres.json')) & 0o777).toBe(0o600);
        const names = [...fs.readdirSync(dataDir), ...fs.readdirSync(path.dirname(pgdata))];
        expect(names.filter((n) => n.startsWith('.pwfile'))).toEqual([]);
        // The PID in postmaster.pid is that server.
        expect(leftoverServer(pgdata)).toBe(pid);
        const [me] = await sqlAs(
          server.url,
          'select current_user as name, rolsuper from pg_roles where rolname = current_user',
        );
        expect(me).toEqual({ name: APP_ROLE, rolsuper: false });
      } finally {
        await server.stop();
      }
      expect(mode(closed)).toBe(0o700);

      // Next start through the API's own opening, after an interrupted one left a password file:
      // it is removed; migrations and a write work as the app's role.
      fs.writeFileSync(path.join(dataDir, '.pwfile-4242'), 'old\n', { mode: 0o600 });
      const database = await openDatabase({ dataDir });
      try {
        expect(fs.existsSync(path.join(dataDir, '.pwfile-4242'))).toBe(false);
        await migrate(database);
        const { rows } = await database.pool.query<{ rolsuper: boolean }>(
          'select rolsuper from pg_roles where rolname = current_user',
        );
        expect(rows).toEqual([{ rolsuper: false }]);
        await database.pool.query(
          `insert into companies (id, name, website) values ('00000000-0000-4000-8000-0000000000aa', 'PT Akar', 'https://akar.id')`,
        );
        const found = await database.pool.query("select name from companies where name % 'PT Akar'");
        expect(found.rowCount).toBe(1);
      } finally {
        await database.close();
      }
      expect(mode(closed)).toBe(0o700);
    },
    300_000,
  );
});

describe('the PID in postmaster.pid', () => {
  it('is not signalled when it is not a PostgreSQL server on that data directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-pidfile-'));
    const victim = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(path.join(dir, 'postgres'));
      fs.writeFileSync(path.join(dir, 'postgres', 'postmaster.pid'), `${victim.pid}\n${dir}/postgres\n`);
      expect(leftoverServer(path.join(dir, 'postgres'))).toBeUndefined();
      await stopPid(victim.pid!, 1000, path.join(dir, 'postgres'));
      expect(alive(victim.pid!)).toBe(true);
    } finally {
      victim.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the binaries copied for the server', () => {
  const store = root ? storeFolder(`test-${randomBytes(6).toString('hex')}`) : undefined;
  const made: string[] = [];
  afterAll(() => {
    if (store) fs.rmSync(store, { recursive: true, force: true });
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  const native = () => path.dirname(path.dirname(binaries().postgres));
  const uidOf = (user: string) => Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());

  asRoot(
    'go to a root-owned folder nobody else can write, and one another user changed is never run',
    () => {
      expect(store).toBeDefined();
      const first = copyBinaries(native(), 'stamp', store);
      expect(first.temporary).toBe(false);
      const postgres = path.join(first.dir, 'bin', 'postgres');
      expect(trustedPath(postgres)).toBe(true);
      const user = { uid: uidOf(SERVER_USER), gid: uidOf(SERVER_USER) };
      expect(execFileSync(postgres, ['--version'], { ...user, encoding: 'utf8' })).toContain('18');
      // Reused while it is as we left it.
      expect(copyBinaries(native(), 'stamp', store).dir).toBe(first.dir);
      // Someone else's hand in it: replaced before anything in it runs.
      fs.chownSync(path.join(first.dir, 'bin'), user.uid, user.gid);
      fs.writeFileSync(path.join(first.dir, 'bin', 'planted'), '#!/bin/sh\n');
      const again = copyBinaries(native(), 'stamp', store);
      expect(fs.existsSync(path.join(again.dir, 'bin', 'planted'))).toBe(false);
      expect(fs.statSync(path.join(again.dir, 'bin')).uid).toBe(0);
      // A folder writable by others (the system's temporary folder) is no store: a fresh private copy each time.
      expect(trustedPath(os.tmpdir())).toBe(false);
      const a = copyBinaries(native(), 'stamp', undefined);
      const b = copyBinaries(native(), 'stamp', undefined);
      made.push(a.dir, b.dir);
      expect(a.temporary && b.temporary).toBe(true);
      expect(a.dir).not.toBe(b.dir);
      expect(trustedPath(path.join(a.dir, 'bin', 'postgres'))).toBe(false); // under /tmp: used once, never found again
    },
    120_000,
  );
});

describe('a DATA_DIR where an earlier version connected as the superuser', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-earlier-su-'));
  fs.chmodSync(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is handed over to the app role at its next start: its tables and job queue work as that role', async () => {
    // The earlier layout: everything made by the superuser, no app role, no role in postgres.json.
    let server = await startEmbeddedServer(dataDir);
    try {
      const su = await openDatabase({ databaseUrl: server.adminUrl, poolSize: 2 });
      await migrate(su);
      await su.pool.query(
        `insert into companies (id, name, website) values ('00000000-0000-4000-8000-0000000000bb', 'PT Lama', 'https://lama.id')`,
      );
      await su.close();
      const boss = new PgBoss({ connectionString: server.adminUrl, schema: 'pgboss' });
      boss.on('error', () => undefined);
      await boss.start();
      await boss.createQueue('lama');
      await boss.stop({ graceful: false });
      await sqlAs(
        server.adminUrl,
        `alter database sertifikasi owner to postgres; drop owned by ${APP_ROLE}; drop role ${APP_ROLE}`,
      );
    } finally {
      await server.stop();
    }
    const file = path.join(dataDir, 'postgres.json');
    const {
      appUser: _u,
      appPassword: _p,
      ...earlier
    } = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify(earlier));

    server = await startEmbeddedServer(dataDir);
    try {
      const [me] = await sqlAs(server.url, 'select rolsuper from pg_roles where rolname = current_user');
      expect(me).toEqual({ rolsuper: false });
      const notMine = await sqlAs(
        server.url,
        `select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname in ('public', 'pgboss') and c.relkind in ('r', 'p', 'S', 'v', 'm')
            and c.relowner <> (select oid from pg_roles where rolname = current_user)`,
      );
      expect(notMine).toEqual([]);
      const database = await openDatabase({ databaseUrl: server.url, poolSize: 2 });
      try {
        expect(await migrate(database)).toEqual([]);
        await database.pool.query(
          `insert into companies (id, name, website) values ('00000000-0000-4000-8000-0000000000cc', 'PT Baru', 'https://baru.id')`,
        );
        const { rows } = await database.pool.query('select name from companies order by name');
        expect(rows).toEqual([{ name: 'PT Baru' }, { name: 'PT Lama' }]);
      } finally {
        await database.close();
      }
      const boss = new PgBoss({ connectionString: server.url, schema: 'pgboss' });
      boss.on('error', () => undefined);
      await boss.start();
      const id = await boss.send('lama', { n: 1 });
      const [job] = await boss.fetch('lama');
      expect(job?.id).toBe(id);
      await boss.stop({ graceful: false });
    } finally {
      await server.stop();
    }
  }, 300_000);
});
