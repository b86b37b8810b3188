import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alive, sleep } from './processes';
import { copyPostgresTemplate } from './template';
import { freePort } from '../src/db/embedded';

/**
 * deploy/local-cluster.sh (docs/rules.md#faults-and-overload): Debian's nginx in front of two API processes on
 * one PostgreSQL. Killing one process under a load of GETs fails none of them: nginx passes each to
 * the other process.
 */

const root = path.resolve(__dirname, '..', '..');
const hasNginx = fs.existsSync('/usr/sbin/nginx') || spawnSync('nginx', ['-v']).status === 0;

(hasNginx ? it : it.skip)(
  'up prints the replicas and ready; killing one process under load fails no GET; down stops everything',
  async () => {
    const copy = await copyPostgresTemplate();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-cluster-'));
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: copy.url,
      PORT: String(port),
      REPLICAS: '2',
      CLUSTER_DIR: dir,
      ADMIN_PASSWORD: 'cluster-admin-pw',
      RATE_LIMIT_PUBLIC: '100000',

      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    };
    const script = path.join(root, 'deploy', 'local-cluster.sh');
    try {
      const up = spawnSync('bash', [script, 'up'], { env, encoding: 'utf8', timeout: 180_000 });
      expect(up.stderr).toBe('');
      expect(up.status).toBe(0);
      const lines = up.stdout.trim().split('\n').slice(-3);
      expect(lines[0]).toMatch(/^replica \d+ \d+$/);
      expect(lines[1]).toMatch(/^replica \d+ \d+$/);
      expect(lines[2]).toBe(`ready http://127.0.0.1:${port}`);
      const pids = lines.slice(0, 2).map((l) => Number(l.split(' ')[1]));
      const base = `http://127.0.0.1:${port}`;

      const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'cluster-admin-pw' }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };

      // Eight clients GET in a loop; one process is killed (SIGKILL: no goodbye) in the middle.
      const statuses: number[] = [];
      let stop = false;
      const client = async () => {
        while (!stop) {
          const res = await fetch(`${base}/api/company?paginate=20`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      };
      const clients = Array.from({ length: 8 }, client);
      await sleep(1500); // the clients' load, before and after the kill
      process.kill(pids[0]!, 'SIGKILL');
      await sleep(2500);
      stop = true;
      await Promise.all(clients);
      expect(statuses.length).toBeGreaterThan(50);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      const down = spawnSync('bash', [script, 'down'], { env, encoding: 'utf8', timeout: 60_000 });
      expect(down.status).toBe(0);
      expect(alive(pids[1]!)).toBe(false);
      expect(fs.existsSync(path.join(dir, 'nginx.pid'))).toBe(false);
      await expect(fetch(`${base}/api/health`)).rejects.toThrow();
    } finally {
      spawnSync('bash', [script, 'down'], { env, timeout: 60_000 });
      await copy.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
  240_000,
);
