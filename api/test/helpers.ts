import os from 'node:os';
import { Writable } from 'node:stream';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import type { ListResponse } from '@sertifikasi/shared-contracts';
import pino from 'pino';
import { buildApp, LOG_REDACT } from '../src/app';
import { loadConfig } from '../src/config';
import { createClock, type SettableClock } from '../src/lib/clock';
import { type Database, openDatabase, type OpenOptions } from '../src/db';
import { auditLog } from '../src/db/schema';
import { seedAdministrator, seedPermissions } from '../src/services/seed';
import { type Fixtures, fixtures } from './fixtures';
import { copyPostgresTemplate } from './template';

export const ADMIN_PASSWORD = 'admin-password-1';

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  /** Bearer token of the seeded administrator (every permission, scope ALL). */
  adminToken: string;
  /**
   * The app's clock (`app.clock`): `clock.set(instant)` moves the whole app to another instant,
   * `clock.set(null)` back to the system time. Sessions age with it: a token signed in more than
   * 12 hours of clock time earlier has ended (sign in again after a jump forward).
   */
  clock: SettableClock;
  /** Makes the records a test needs, through the services (test/fixtures.ts). */
  make: Fixtures;
  close: () => Promise<void>;
}

/** Settings of the database connection a test may choose, and the instant the app's clock starts at. */
type TestOptions = Pick<
  OpenOptions,
  'poolSize' | 'statementTimeoutMs' | 'acquireTimeoutMs' | 'slowQueryMs' | 'logger'
> & {
  /** Fixes the app's clock at this instant before anything is written (the administrator signs in at it). */
  now?: Date;
};

/** The configuration of a test app: `env` over the test defaults. */
export function testConfig(env: Record<string, string> = {}) {
  // No built portal unless a test provides one (PORTAL_ROOT), whatever this checkout has built.
  return loadConfig({
    NODE_ENV: 'test',
    PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal'),
    ...env,
  });
}

/** A fresh database for this test file (a copy of the migrated template) and an app on it. */
export async function createTestContext(
  env: Record<string, string> = {},
  options: TestOptions = {},
): Promise<TestContext> {
  const { now, ...dbOptions } = options;
  const copy = await copyPostgresTemplate();
  const database = await openDatabase({ databaseUrl: copy.url, poolSize: 4, ...dbOptions });
  const dropDatabase = copy.drop;
  const config = testConfig(env);
  await seedPermissions(database.db);
  await seedAdministrator(database.db, { username: 'admin', password: ADMIN_PASSWORD, cost: config.argon2 });
  const clock = createClock(config.timeZone);
  if (now) clock.set(now);
  const app = await buildApp({ config, db: database.db, clock });
  await app.ready();
  const adminToken = await login(app, 'admin', ADMIN_PASSWORD);
  return {
    app,
    database,
    adminToken,
    clock,
    make: fixtures(app, (username, password) => login(app, username, password)),
    close: async () => {
      await app.close();
      await database.close();
      await dropDatabase();
    },
  };
}

/**
 * The test file's context (createTestContext), made before its tests and closed after them: one line
 * in place of the usual `let ctx` / beforeAll / afterAll. What it answers reads the context of the
 * running file, so use it inside hooks and tests only (declare it before the hooks that use it).
 */
export function useTestContext(env: Record<string, string> = {}, options: TestOptions = {}): TestContext {
  let current: TestContext | undefined;
  beforeAll(async () => {
    current = await createTestContext(env, options);
  });
  afterAll(async () => current?.close());
  return new Proxy({} as TestContext, {
    get(_, key: keyof TestContext) {
      if (!current) throw new Error('The test context is made in beforeAll: use it in hooks and tests');
      return current[key];
    },
  });
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A POST of a body sent as it comes (`payload` of content type `type`), with a token when given. */
export function postRaw(
  app: FastifyInstance,
  url: string,
  type: string,
  payload?: string,
  token?: string | null,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': type, ...(token ? auth(token) : {}) },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A JSON call with a token. */
export async function call(
  app: FastifyInstance,
  token: string | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: token ? auth(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** The paging of a list answer: rows `from` to `to` of `total`, page `current_page` of `last_page`. */
export function paging(res: LightMyRequestResponse) {
  const b = res.json<ListResponse<unknown>>();
  return { rows: [b.from, b.to], total: b.total, page: [b.current_page, b.last_page], per_page: b.per_page };
}

/** The audit rows of one record of `entity`, oldest first. */
export function auditRowsOf(ctx: TestContext, entity: string, entityId: string) {
  return ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entity_id, entityId)))
    .orderBy(asc(auditLog.at));
}

/** The record a 201 answer created: its id and its audit row, the only one it has. */
export async function createdAudit(ctx: TestContext, res: LightMyRequestResponse, entity: string) {
  expect(res.statusCode).toBe(201);
  const id = res.json<{ id: string }>().id;
  const rows = await auditRowsOf(ctx, entity, id);
  expect(rows).toHaveLength(1);
  return { id, row: rows[0]! };
}

/** A logger as the app's (every level, the app's redaction) and the lines it has written so far. */
export function capturedLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level: 'trace', redact: LOG_REDACT }, stream), lines };
}

/** Permission ids by key, for building roles. */
export async function permissionIds(app: FastifyInstance, token: string): Promise<Record<string, string>> {
  const res = await call(app, token, 'GET', '/api/select/permission');
  return Object.fromEntries(res.json<{ id: string; name: string }[]>().map((p) => [p.name, p.id]));
}

/** The seeded administrator as /api/user-info shows them: their user id and role id. */
export async function seededAdmin(ctx: TestContext): Promise<{ id: string; roles_id: string }> {
  const res = await call(ctx.app, ctx.adminToken, 'GET', '/api/user-info');
  return res.json<{ user: { id: string; roles_id: string } }>().user;
}

/** Assertions on a 422 `validation` answer (a form refused). */
export const expect422 = {
  /** Its field errors are exactly `errors`. */
  errors(res: LightMyRequestResponse, errors: Record<string, unknown>): void {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation' });
    expect(res.json<{ errors?: unknown }>().errors).toEqual(errors);
  },
  /** Its field errors include `errors` (others may come with them). */
  including(res: LightMyRequestResponse, errors: Record<string, unknown>): void {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation' });
    expect(res.json<{ errors?: unknown }>().errors).toMatchObject(errors);
  },
  /** The whole answer refusing one field: its message is the answer's message. */
  field(res: LightMyRequestResponse, field: string, message: string): void {
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ code: 'validation', message, errors: { [field]: message } });
  },
};
