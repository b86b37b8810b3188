import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db';
import { auditLog, users } from '../src/db/schema';
import { verifyPassword } from '../src/lib/crypto';
import { readPassword } from '../src/lib/password-input';
import { seedAdministrator, seedPermissions } from '../src/services/seed';
import { ADMIN_PASSWORD } from './helpers';
import { copyPostgresTemplate } from './template';

const apiRoot = path.resolve(__dirname, '..');

/** Runs `node --import tsx <script> ...args` with `stdin` piped in; resolves its exit code and output. */
function run(
  script: string,
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: apiRoot,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // A server that starts anyway is stopped, so the test fails on its assertions instead of hanging.
    const stop = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('exit', (code) => {
      clearTimeout(stop);
      resolve({ code, output });
    });
    child.stdin.end(stdin);
  });
}

describe('readPassword', () => {
  it('on a terminal prompts, reads one line with echo off, and lets backspace edit it', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: jest.fn() });
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const read = readPassword(input, output, 'New password: ');
    input.write('rahasia-barx');
    input.write('\u007fu\r');
    expect(await read).toBe('rahasia-baru');
    expect(shown).toBe('New password: \n');
    expect(input.setRawMode.mock.calls).toEqual([[true], [false]]);
  });

  it('otherwise reads the first line of the input, without its line ending', async () => {
    for (const text of ['kata-sandi-1\nlainnya\n', 'kata-sandi-1\r\n', 'kata-sandi-1']) {
      const input = new PassThrough();
      const read = readPassword(input, new PassThrough(), 'New password: ');
      input.end(text);
      expect(await read).toBe('kata-sandi-1');
    }
  });
});

describe('reset-admin', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  /** The stored hash of `admin`. */
  async function adminHash(): Promise<string> {
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL! });
    try {
      const [row] = await database.db
        .select({ hash: users.password_hash })
        .from(users)
        .where(eq(users.username, 'admin'));
      return row!.hash;
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    const cost = loadConfig({ NODE_ENV: 'test' }).argon2;
    const copy = await copyPostgresTemplate();
    env = { DATABASE_URL: copy.url };
    cleanup = copy.drop;
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL! });
    await seedPermissions(database.db);
    await seedAdministrator(database.db, { username: 'admin', password: ADMIN_PASSWORD, cost });
    await database.close();
  });
  afterAll(async () => cleanup());

  it('refuses a password on the command line (it shows in ps and shell history) and changes nothing', async () => {
    const before = await adminHash();
    const res = await run('src/cli.ts', ['reset-admin', 'admin', 'on-the-command-line'], env);
    expect(res.code).toBe(64);
    expect(res.output).toContain('no longer takes the password on the command line');
    expect(await adminHash()).toBe(before);
  });

  it('takes the new password from standard input, never printing it', async () => {
    const res = await run('src/cli.ts', ['reset-admin', 'admin'], env, 'dari-stdin-123\n');
    expect(res.output).toContain('Password of "admin" reset. Their sessions were ended.');
    expect(res.code).toBe(0);
    expect(res.output).not.toContain('dari-stdin-123');
    const hash = await adminHash();
    expect(await verifyPassword(hash, 'dari-stdin-123')).toBe(true);
    // Written through the users service: the audit log names the command line, never the password.
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL! });
    try {
      const trail = await database.db
        .select({ source: auditLog.source, after: auditLog.after })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'user'), eq(auditLog.action, 'update')));
      expect(trail.map((r) => r.source)).toContain('cli');
      expect(trail.find((r) => r.source === 'cli')!.after).toMatchObject({
        username: 'admin',
        is_active: 'true',
      });
      expect(JSON.stringify(trail)).not.toContain('dari-stdin-123');
      expect(JSON.stringify(trail)).not.toContain('password_hash');
    } finally {
      await database.close();
    }
  });

  it('refuses a password that breaks the rules of any user’s password', async () => {
    const before = await adminHash();
    for (const [input, reason] of [
      ['pendek\n', 'Password minimal 8 karakter'],
      ['          \n', 'Password tidak boleh hanya berisi spasi'],
      ['\n', 'Password minimal 8 karakter'],
    ] as const) {
      const res = await run('src/cli.ts', ['reset-admin', 'admin'], env, input);
      expect(res.code).toBe(1);
      expect(res.output).toContain(`Password refused: ${reason}`);
    }
    expect(await adminHash()).toBe(before);
  });

  it('with --random sets a generated password and prints it once', async () => {
    const res = await run('src/cli.ts', ['reset-admin', 'admin', '--random'], env);
    expect(res.code).toBe(0);
    const printed = /reset to: (\S+)\./.exec(res.output)?.[1];
    expect(printed).toMatch(/^\S{16,}$/);
    expect(await verifyPassword(await adminHash(), printed!)).toBe(true);
  });
});

describe('ADMIN_USERNAME and ADMIN_PASSWORD', () => {
  it('follow the rules of any user: the server refuses to start, saying which setting and why', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-admin-env-'));
    try {
      const res = await run('src/server.ts', [], {
        NODE_ENV: 'production',
        DATA_DIR: dir,
        PORT: '0',
        ADMIN_PASSWORD: 'pendek',
      });
      expect(res.code).toBe(2);
      expect(res.output.trim()).toBe(
        'Cannot start: ADMIN_PASSWORD is not valid: Password minimal 8 karakter',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are checked like a form: username pattern, length, passwords of only spaces', () => {
    const cases: [Record<string, string>, string][] = [
      [{ ADMIN_USERNAME: 'admin utama' }, 'ADMIN_USERNAME is not valid: Username 3 sampai 50'],
      [{ ADMIN_USERNAME: 'ab' }, 'ADMIN_USERNAME is not valid: Username 3 sampai 50'],
      [
        { ADMIN_PASSWORD: '           ' },
        'ADMIN_PASSWORD is not valid: Password tidak boleh hanya berisi spasi',
      ],
      [{ ADMIN_PASSWORD: 'x'.repeat(129) }, 'ADMIN_PASSWORD is not valid: Password maksimal 128 karakter'],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ NODE_ENV: 'test', ...env })).toThrow(message);
    }
    expect(
      loadConfig({ NODE_ENV: 'test', ADMIN_USERNAME: 'admin.utama', ADMIN_PASSWORD: 'cukup-panjang' }),
    ).toMatchObject({
      adminUsername: 'admin.utama',
      adminPassword: 'cukup-panjang',
    });
  });
});
