/*
 * The hot-path queries are prepared once and then run with new values (db/prepared.ts). These tests
 * make sure a prepared statement never answers with another call's rows: searches, scopes, ids and
 * tokens change from one call to the next, more often than PostgreSQL's five custom plans before it
 * may switch a statement to a generic one. Also: slow-query logging and the pool's settings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { type Executor, openDatabase } from '../src/db';
import { migrate } from '../src/db/migrate';
import { ENGINE_APPLICATION_NAME, ENGINE_CONNECTIONS } from '../src/jobs/engine';
import { pgError } from '../src/lib/errors';
import { prepared, preparedShapes } from '../src/db/prepared';
import { call, useTestContext } from './helpers';
import { adminUrl, withDatabase } from './template';

interface Entry {
  statement: string;
  durationMs: number;
}
const slowQueries: { entry: Entry; message: string }[] = [];

const ctx = useTestContext(
  {},
  {
    poolSize: 3,
    statementTimeoutMs: 4321,
    // Every query counts as slow here, so every one is logged.
    slowQueryMs: 0,
    logger: { warn: (entry, message) => slowQueries.push({ entry, message }) },
  },
);

const ROUNDS = 7;
const names = (res: { json<T>(): T }) => res.json<{ data: { name: string }[] }>().data.map((r) => r.name);

describe('prepared lists and lookups answer each call with its own parameters', () => {
  let alfa: string;
  let beta: string;
  let userA: { id: string; token: string };
  let userB: { id: string; token: string };

  beforeAll(async () => {
    alfa = await ctx.make.company('PT Alfa Jaya');
    beta = await ctx.make.company('PT Beta Sejahtera');
    await ctx.make.company('CV Gamma Jaya');
    const keys = ['company', 'company:edit', 'user', 'roles'];
    const pengelola = await ctx.make.role('Pengelola Cabang', keys);
    const pembaca = await ctx.make.role('Pembaca Arsip', ['company']);
    userA = await ctx.make.user({
      username: 'andi.alfa',
      name: 'Andi Wijaya',
      roles_id: pengelola,
      company_ids: [alfa],
    });
    userB = await ctx.make.user({
      username: 'bunga.beta',
      name: 'Bunga Lestari',
      roles_id: pengelola,
      company_ids: [beta],
    });
    await ctx.make.user({
      username: 'citra.arsip',
      name: 'Citra Wijaya',
      roles_id: pembaca,
      company_ids: [alfa],
    });
  });

  it('company list: searches in a row, a scope against ALL, two scopes', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expect(names(await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=jaya'))).toEqual([
        'CV Gamma Jaya',
        'PT Alfa Jaya',
      ]);
      const sejahtera = await call(ctx.app, ctx.adminToken, 'GET', '/api/company?search=SEJAHTERA');
      expect(sejahtera.json()).toMatchObject({ total: 1, data: [{ id: beta }] });
      expect(names(await call(ctx.app, ctx.adminToken, 'GET', '/api/company'))).toEqual([
        'CV Gamma Jaya',
        'PT Alfa Jaya',
        'PT Beta Sejahtera',
      ]);
      const ownA = await call(ctx.app, userA.token, 'GET', '/api/company');
      expect(ownA.json()).toMatchObject({ total: 1, data: [{ id: alfa }] });
      const ownB = await call(ctx.app, userB.token, 'GET', '/api/company');
      expect(ownB.json()).toMatchObject({ total: 1, data: [{ id: beta }] });
      // Scoped and searching: the scope still holds.
      expect((await call(ctx.app, userA.token, 'GET', '/api/company?search=jaya')).json()).toMatchObject({
        total: 1,
        data: [{ id: alfa }],
      });
      expect((await call(ctx.app, userB.token, 'GET', '/api/company?search=jaya')).json()).toMatchObject({
        total: 0,
        data: [],
      });
    }
  });

  it('company lookups by id and the companies to pick follow the caller’s scope', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const body = { name: 'PT Alfa Jaya', website: 'https://alfa.co.id' };
      expect((await call(ctx.app, userA.token, 'PUT', `/api/company/${alfa}`, body)).statusCode).toBe(200);
      expect((await call(ctx.app, userB.token, 'PUT', `/api/company/${alfa}`, body)).statusCode).toBe(404);
      const bodyB = { name: 'PT Beta Sejahtera', website: 'https://beta.co.id' };
      expect((await call(ctx.app, userB.token, 'PUT', `/api/company/${beta}`, bodyB)).statusCode).toBe(200);
      expect((await call(ctx.app, userA.token, 'PUT', `/api/company/${beta}`, bodyB)).statusCode).toBe(404);
      const pickA = await call(ctx.app, userA.token, 'GET', '/api/select/company');
      expect(pickA.json()).toEqual([{ id: alfa, name: 'PT Alfa Jaya' }]);
      const pickB = await call(ctx.app, userB.token, 'GET', '/api/user-info');
      expect(pickB.json()).toMatchObject({ companies: [{ id: beta, name: 'PT Beta Sejahtera' }] });
      const all = await call(ctx.app, ctx.adminToken, 'GET', '/api/select/company');
      expect(all.json<{ id: string }[]>()).toHaveLength(3);
    }
  });

  it('user list: text, role name and no search in a row; two scopes', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const byText = await call(ctx.app, ctx.adminToken, 'GET', '/api/user?search=wijaya');
      expect(names(byText)).toEqual(['Andi Wijaya', 'Citra Wijaya']);
      // "arsip" is in a role's name and in one username.
      const byRole = await call(ctx.app, ctx.adminToken, 'GET', '/api/user?search=arsip');
      expect(names(byRole)).toEqual(['Citra Wijaya']);
      const byRoleOnly = await call(ctx.app, ctx.adminToken, 'GET', '/api/user?search=pengelola');
      expect(names(byRoleOnly)).toEqual(['Andi Wijaya', 'Bunga Lestari']);
      expect((await call(ctx.app, ctx.adminToken, 'GET', '/api/user')).json()).toMatchObject({ total: 4 });
      // Limited scopes: users whose scope lies inside the caller's, with their companies.
      const inA = await call(ctx.app, userA.token, 'GET', '/api/user');
      expect(names(inA)).toEqual(['Andi Wijaya', 'Citra Wijaya']);
      expect(inA.json<{ data: { company_ids: unknown }[] }>().data.map((u) => u.company_ids)).toEqual([
        [alfa],
        [alfa],
      ]);
      expect(names(await call(ctx.app, userB.token, 'GET', '/api/user'))).toEqual(['Bunga Lestari']);
      expect(names(await call(ctx.app, userB.token, 'GET', '/api/user?search=wijaya'))).toEqual([]);
      expect(names(await call(ctx.app, userA.token, 'GET', '/api/user?search=pengelola'))).toEqual([
        'Andi Wijaya',
      ]);
    }
  });

  it('role list: searches in a row and pages', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      expect(names(await call(ctx.app, ctx.adminToken, 'GET', '/api/roles?search=arsip'))).toEqual([
        'Pembaca Arsip',
      ]);
      expect(names(await call(ctx.app, ctx.adminToken, 'GET', '/api/roles?search=CABANG'))).toEqual([
        'Pengelola Cabang',
      ]);
      const all = await call(ctx.app, ctx.adminToken, 'GET', '/api/roles');
      expect(all.json()).toMatchObject({ total: 3 });
      const page = await call(ctx.app, ctx.adminToken, 'GET', '/api/roles?page=2&paginate=20');
      expect(page.json()).toMatchObject({ total: 3, data: [], from: null });
    }
  });

  it('each token signs in its own user, with that user’s role and scope', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await call(ctx.app, userA.token, 'GET', '/api/profile');
      expect(a.json()).toMatchObject({
        id: userA.id,
        username: 'andi.alfa',
        roles: { name: 'Pengelola Cabang' },
        company_ids: [alfa],
      });
      const b = await call(ctx.app, userB.token, 'GET', '/api/profile');
      expect(b.json()).toMatchObject({ id: userB.id, username: 'bunga.beta', company_ids: [beta] });
      const admin = await call(ctx.app, ctx.adminToken, 'GET', '/api/profile');
      expect(admin.json()).toMatchObject({ username: 'admin', company_ids: 'ALL' });
      expect((await call(ctx.app, 'x'.repeat(43), 'GET', '/api/profile')).statusCode).toBe(401);
    }
  });

  it('the profile shows a change made by the previous request', async () => {
    const res = await call(ctx.app, userA.token, 'PUT', '/api/profile', {
      name: 'Andi Wijaya Baru',
      username: 'andi.alfa',
    });
    expect(res.statusCode).toBe(200);
    const after = await call(ctx.app, userA.token, 'GET', '/api/profile');
    expect(after.json()).toMatchObject({ name: 'Andi Wijaya Baru' });
  });
});

describe('slow queries', () => {
  it('are logged at warn with their statement name and duration, never their values', () => {
    const auth = slowQueries.filter((q) => q.entry.statement === 'session.authenticate');
    expect(auth.length).toBeGreaterThan(0);
    for (const q of auth) {
      expect(q.message).toBe('slow query');
      expect(Object.keys(q.entry).sort()).toEqual(['durationMs', 'statement']);
      expect(typeof q.entry.durationMs).toBe('number');
    }
    expect(slowQueries.some((q) => q.entry.statement === 'company.page:search')).toBe(true);
    // Neither search texts nor tokens appear anywhere in what was logged.
    const logged = JSON.stringify(slowQueries);
    expect(logged).not.toMatch(/wijaya|sejahtera|pengelola/i);
    expect(logged).not.toContain(ctx.adminToken);
  });
});

describe('the PostgreSQL pool', () => {
  /** Rows of a raw query (node-postgres answers `{rows}`). */
  const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
    ((await ctx.database.db.execute(query)) as { rows: T[] }).rows;

  it('sets the statement timeout on its connections', async () => {
    const rows = await rowsOf<{ statement_timeout: string }>(sql`show statement_timeout`);
    expect(rows[0]!.statement_timeout).toBe('4321ms');
  });

  it('cancels a statement past the timeout, but never a migration', async () => {
    const name = (await rowsOf<{ name: string }>(sql`select current_database() as name`))[0]!.name;
    const strict = await openDatabase({
      databaseUrl: withDatabase(adminUrl(), name),
      poolSize: 1,
      statementTimeoutMs: 100,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sertifikasi-migration-'));
    try {
      const cancelled: unknown = await strict.db
        .execute(sql`select pg_sleep(0.3)`)
        .catch((err: unknown) => err);
      expect(pgError(cancelled)?.code).toBe('57014'); // query_canceled: statement timeout
      fs.mkdirSync(path.join(dir, 'meta'));
      fs.writeFileSync(
        path.join(dir, 'meta', '_journal.json'),
        JSON.stringify({ entries: [{ idx: 0, tag: '0000_slow_index' }] }),
      );
      fs.writeFileSync(path.join(dir, '0000_slow_index.sql'), 'select pg_sleep(0.3);');
      expect(await migrate(strict, { dir })).toEqual(['0000_slow_index']);
    } finally {
      await strict.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('opens at most DB_POOL_SIZE connections, and the job engine at most its own few', async () => {
    await Promise.all(Array.from({ length: 8 }, () => ctx.database.db.execute(sql`select pg_sleep(0.05)`)));
    const result = await rowsOf<{ jobs: boolean; n: number }>(
      sql`select application_name = ${ENGINE_APPLICATION_NAME} as jobs, count(*)::int as n
        from pg_stat_activity where datname = current_database() group by 1`,
    );
    const of = (jobs: boolean) => result.find((r) => r.jobs === jobs)?.n ?? 0;
    expect(of(false)).toBeLessThanOrEqual(3);
    expect(of(true)).toBeLessThanOrEqual(ENGINE_CONNECTIONS);
  });
});

describe('settings', () => {
  it('DB_POOL_SIZE, DB_STATEMENT_TIMEOUT_MS and SLOW_QUERY_MS have defaults and are read', () => {
    expect(loadConfig({})).toMatchObject({ dbPoolSize: 10, dbStatementTimeoutMs: 15_000, slowQueryMs: 500 });
    expect(
      loadConfig({ DB_POOL_SIZE: '25', DB_STATEMENT_TIMEOUT_MS: '0', SLOW_QUERY_MS: '200' }),
    ).toMatchObject({ dbPoolSize: 25, dbStatementTimeoutMs: 0, slowQueryMs: 200 });
    expect(() => loadConfig({ SLOW_QUERY_MS: 'soon' })).toThrow(/SLOW_QUERY_MS/);
  });
});

describe('prepared()', () => {
  it('builds a query once per database or transaction and runs it with each call’s values', async () => {
    const builds: string[] = [];
    const runs: unknown[] = [];
    const fake = (label: string) => ({ label }) as unknown as Executor;
    const byId = prepared('test.by-id', ['id'], (db, p, name) => {
      builds.push(`${(db as unknown as { label: string }).label}:${name}:${p.id.name}`);
      return { execute: async (values?: Record<string, unknown>) => runs.push(values) };
    });
    const one = fake('one');
    const two = fake('two');
    await byId(one, { id: 'a' });
    await byId(one, { id: 'b' });
    await byId(two, { id: 'c' });
    expect(builds).toEqual(['one:test.by-id:id', 'two:test.by-id:id']);
    expect(runs).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);

    const shaped = preparedShapes('test.list', ['scoped', 'search'], ['q'], (db, p, on, name) => {
      builds.push(name);
      return { execute: async () => on };
    });
    builds.length = 0;
    await shaped(one, { scoped: false, search: false }, { q: 1 });
    await shaped(one, { scoped: true, search: true }, { q: 2 });
    await shaped(one, { scoped: false, search: true }, { q: 3 });
    await shaped(one, { scoped: true, search: true }, { q: 4 });
    expect(builds).toEqual(['test.list:plain', 'test.list:scoped+search', 'test.list:search']);
  });
});
