/**
 * The demo data set (docs/operations.md#demo-data): three certification bodies with their
 * accreditation bodies and standards, clients with schemes in every status, training certificates,
 * the audit rows a scheme's status history is derived from, and users with limited roles and scopes.
 *
 * Deterministic: the same seed and the same "today" give the same data. Every record is written
 * through its service (docs/architecture.md, the write sequence), so the demo holds what a service
 * write leaves: audit rows (source `demo`, by each company's staff user, at the instant each write
 * took effect, from which status histories are read), the after-write steps' derived state and
 * signed QRs. Many records go through the services' batch forms (`createMany`,
 * `changeStatusMany`, `addAudits`, `refreshQrMany`), a batch of up to `batchRows` at a time, so
 * the benchmark size (100,000 clients, 300,000 schemes) takes minutes, not hours.
 *
 * Each phase has its file: the writer they share (writer.ts), the certification bodies, their
 * catalogues, roles and users (bodies.ts), the clients (clients.ts), the schemes (schemes.ts) and
 * the training certificates (trainings.ts).
 */
import { count, ne, sql } from 'drizzle-orm';
import type { SchemeStatus } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { auditLog, companies, roles, users } from '../db/schema';
import { ADMIN_ROLE_NAME } from '../services/seed';
import { DEMO_USERS, writeBodies, writeCatalogues, writeRoles, writeUsers } from './bodies';
import { writeClients } from './clients';
import { FORCED_KINDS, writeSchemes } from './schemes';
import { writeTrainings } from './trainings';
import { type AuditPlanCounts, writeAuditPlan } from './audit-plan';
import { type DemoOptions, type DemoVolume, demoWriter } from './writer';

export const DEMO_SIZES = {
  small: { clients: 240, schemes: 520, trainings: 300, logos: 240 },
  large: { clients: 100_000, schemes: 300_000, trainings: 100_000, logos: 300 },
} as const;
export type DemoSize = keyof typeof DEMO_SIZES;
export const isDemoSize = (value: string): value is DemoSize => value in DEMO_SIZES;

/** The numbers of rows for a size, times `scale` (at least the forced cases). */
export function demoVolume(size: DemoSize, scale = 1): DemoVolume {
  const base = DEMO_SIZES[size];
  const n = (v: number, min: number) => Math.max(min, Math.round(v * scale));
  const clients = n(base.clients, 3);
  return {
    clients,
    schemes: Math.max(n(base.schemes, FORCED_KINDS.length), clients),
    trainings: n(base.trainings, 3),
    logos: Math.min(clients, n(base.logos, 3)),
  };
}

export interface DemoUser {
  username: string;
  name: string;
  role: string;
  companies: string[];
}

export interface DemoResult {
  today: string;
  companies: { id: string; name: string }[];
  users: DemoUser[];
  rows: {
    accreditationBodies: number;
    certificationTypes: number;
    clients: number;
    schemes: number;
    trainings: number;
    auditRows: number;
    images: number;
  } & AuditPlanCounts;
  /** Schemes by stored status. */
  statuses: Record<SchemeStatus, number>;
}

/** The database already holds data: the demo writes nothing. */
export class DemoRefusedError extends Error {}

/**
 * Refuses a database that holds anything besides the first start's seed (the permission catalogue,
 * the Administrator role and one user).
 */
export async function assertEmptyForDemo(exec: Executor): Promise<void> {
  const [c] = await exec.select({ n: count() }).from(companies);
  const [u] = await exec.select({ n: count() }).from(users);
  const [r] = await exec.select({ n: count() }).from(roles).where(ne(roles.name, ADMIN_ROLE_NAME));
  const found: string[] = [];
  if (c!.n > 0) found.push(`${c!.n} compan${c!.n === 1 ? 'y' : 'ies'}`);
  if (u!.n > 1) found.push(`${u!.n} users`);
  if (r!.n > 0) found.push(`${r!.n} role${r!.n === 1 ? '' : 's'} besides ${ADMIN_ROLE_NAME}`);
  if (found.length) {
    throw new DemoRefusedError(
      `The database already holds data (${found.join(', ')}): the demo data set only goes into an empty ` +
        'database (after the first start, only the administrator). Nothing was written.',
    );
  }
}

/**
 * Fills an empty database with the demo data set inside `exec` (a transaction, so a failure leaves
 * nothing behind), every record through its service. Refuses (DemoRefusedError) a database that
 * already holds data.
 */
export async function writeDemo(exec: Executor, opts: DemoOptions): Promise<DemoResult> {
  await assertEmptyForDemo(exec);
  // Trigram (GIN) indexes take new rows into a pending list first: a larger one (this transaction
  // only) makes bulk inserts several times cheaper; it is merged into the index at commit or vacuum.
  await exec.execute(sql`set local gin_pending_list_limit = '64MB'`);
  const w = demoWriter(exec, opts);
  // The companies, then the users: each company's records are written by its staff user.
  const roleIds = await writeRoles(w);
  const bodies = await writeBodies(w);
  const catalogues = await writeCatalogues(w, bodies);
  await writeUsers(w, opts, roleIds, bodies);
  w.phase(`${bodies.length} certification bodies, their accreditation bodies, standards, roles and users`);
  const clients = await writeClients(w, bodies);
  const { statuses } = await writeSchemes(w, bodies, clients);
  await writeTrainings(w, bodies);
  const auditPlan = await writeAuditPlan(w, bodies, clients);
  const [audited] = await exec.select({ n: count() }).from(auditLog);

  return {
    today: w.today,
    companies: bodies.map((b) => ({ id: b.id, name: b.seed.name })),
    users: DEMO_USERS.map((u) => ({
      username: u.username,
      name: u.name,
      role: u.role,
      companies: u.bodies.map((b) => bodies[b]!.seed.name),
    })),
    rows: {
      ...catalogues,
      clients: w.volume.clients,
      schemes: w.volume.schemes,
      trainings: w.volume.trainings,
      ...auditPlan,
      auditRows: audited!.n,
      images: w.images,
    },
    statuses,
  };
}
