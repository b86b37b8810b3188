import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireDataDirLock, DataDirLockedError, processAlive } from '../src/db/lock';
import { alive, waitFor } from './processes';

/**
 * The lock of a DATA_DIR (docs/architecture.md#the-embedded-postgresql-server) under real
 * processes: it dies with its holder, a killed holder not yet reaped (a zombie) included, and two
 * live processes never hold it at once.
 */

const apiRoot = path.resolve(__dirname, '..');
const linux = process.platform === 'linux';

/** A process holding the lock of `dir`, its output, and its exit. */
function holder(dir: string) {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/lock-holder.ts', dir], {
    cwd: apiRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The state letter of a process in /proc/<pid>/stat (Z: a zombie). */
const stateOf = (pid: number) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];

describe('the DATA_DIR lock', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-lockp-'));
    dirs.push(dir);
    return dir;
  };
  const killed: number[] = [];
  afterAll(() => {
    for (const pid of killed) if (alive(pid)) process.kill(pid, 'SIGKILL');
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is refused to a second live process, naming the holder; free once the holder has stopped', async () => {
    const dir = fresh();
    const first = holder(dir);
    killed.push(first.child.pid!);
    await waitFor(() => first.output().includes('held'), 'the first holder');
    const second = holder(dir);
    expect(await second.exited).toBe(3);
    expect(second.output()).toContain(`in use by another process (PID ${first.child.pid})`);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirLockedError);
    first.child.kill('SIGTERM');
    await first.exited;
    const release = await acquireDataDirLock(dir);
    release();
  }, 60_000);

  (linux ? it : it.skip)(
    'is free the moment its holder is killed, while the holder is still an unreaped zombie',
    async () => {
      const dir = fresh();
      // sh starts the holder in the background and becomes `sleep`, which never reaps it: once
      // killed, the holder stays a zombie, its PID still taken, until `sleep` ends.
      const parent = spawn(
        'sh',
        [
          '-c',
          '"$0" --import tsx test/lock-holder.ts "$1" & echo "pid $!"; exec sleep 600',
          process.execPath,
          dir,
        ],
        { cwd: apiRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      killed.push(parent.pid!);
      let out = '';
      parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
      await waitFor(() => out.includes('held'), 'the holder to hold the lock', { timeoutMs: 30_000 });
      const pid = Number(/pid (\d+)/.exec(out)?.[1]);
      killed.push(pid);
      await expect(acquireDataDirLock(dir)).rejects.toThrow(`(PID ${pid})`);

      process.kill(pid, 'SIGKILL');
      await waitFor(() => stateOf(pid) === 'Z', 'the holder to be a zombie');
      expect(processAlive(pid)).toBe(true); // kill(pid, 0) still finds it: what the PID-file lock judged by
      const started = Date.now();
      const release = await acquireDataDirLock(dir);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(stateOf(pid)).toBe('Z');
      expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8')).toBe(String(process.pid));
      // Held by us now: another process is refused.
      const other = holder(dir);
      expect(await other.exited).toBe(3);
      release();
      expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
      parent.kill('SIGKILL');
    },
    60_000,
  );

  it('many processes racing for one free DATA_DIR: exactly one holds it', async () => {
    const dir = fresh();
    const racers = Array.from({ length: 4 }, () => holder(dir));
    for (const r of racers) killed.push(r.child.pid!);
    await waitFor(
      () => racers.every((r) => r.output().includes('held') || r.child.exitCode !== null),
      'every racer to hold or be refused',
    );
    expect(racers.filter((r) => r.output().includes('held'))).toHaveLength(1);
    expect(racers.filter((r) => r.child.exitCode === 3)).toHaveLength(3);
    for (const r of racers) r.child.kill('SIGKILL');
  }, 120_000);
});
