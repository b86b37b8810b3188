/**
 * The demo data set (docs/operations.md#demo-data): three certification bodies with their
 * accreditation bodies and standards, clients with schemes in every status, training certificates,
 * the audit rows a scheme's status history is derived from, and users with limited roles and scopes.
 *
 * Deterministic: the same seed and the same "today" give the same data. Rows are generated in
 * memory a batch at a time and written with one set-based statement per batch
 * (`insert ... select * from json_populate_recordset(...)`), so
 * the benchmark size (100,000 clients, 300,000 schemes) takes minutes, not hours.
 *
 * Each phase has its file: the writer they share (writer.ts), the certification bodies, their
 * catalogues, roles and users (bodies.ts), the clients (clients.ts), the schemes (schemes.ts) and
 * the training certificates (trainings.ts).
 */
import { count, ne, sql } from 'drizzle-orm';
import type { SchemeStatus } from '@sertifikasi/shared-contracts';
import type { Executor } from '../db';
import { companies, roles, users } from '../db/schema';
import { rebuildDerived } from '../services/derived';
import { ADMIN_ROLE_NAME } from '../services/seed';
import { activeKey } from '../services/signing';
import { DEMO_USERS, writeBodies, writeCatalogues, writeRoles, writeUsers } from './bodies';
import { writeClients } from './clients';
import { FORCED_KINDS, writeSchemes } from './schemes';
import { writeTrainings } from './trainings';
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
  };
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
 * nothing behind). Refuses (DemoRefusedError) a database that already holds data. The rows go in
 * set-wise, without the services, so what the services would add is added here: the signed QR codes
 * (as the after-write step makes them), audit rows marked `demo`, and then the register counts and
 * list versions, rebuilt once.
 */
export async function writeDemo(exec: Executor, opts: DemoOptions): Promise<DemoResult> {
  await assertEmptyForDemo(exec);
  // Trigram (GIN) indexes take new rows into a pending list first: a larger one (this transaction
  // only) makes bulk inserts several times cheaper; it is merged into the index at commit or vacuum.
  await exec.execute(sql`set local gin_pending_list_limit = '64MB'`);
  const w = demoWriter(exec, opts, await activeKey(exec));
  // Roles and user ids first: audit rows name the company's staff user.
  const roleIds = await writeRoles(w);
  const userIds = DEMO_USERS.map(() => w.rnd.uuid());
  const bodies = await writeBodies(w, userIds);
  const catalogues = await writeCatalogues(w, bodies);
  await writeUsers(w, opts, userIds, roleIds, bodies);
  w.phase(`${bodies.length} certification bodies, their accreditation bodies, standards, roles and users`);
  const clients = await writeClients(w, bodies);
  const { auditRows, statuses } = await writeSchemes(w, bodies, clients);
  await writeTrainings(w, bodies);
  // The register counts are made once from the rows above and the list versions renewed.
  await rebuildDerived(exec, w.clock);
  w.phase('register counts and list versions');

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
      auditRows,
      images: w.images,
    },
    statuses,
  };
}
