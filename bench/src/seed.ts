import { randomUUID } from 'node:crypto';
import {
  companies,
  type Config,
  type Db,
  hashPassword,
  permissions,
  rolePermissions,
  roles,
  userCompanies,
  users,
} from './api';
import { companySeeds, randomSource, ROLE_NAMES, userSeeds } from './names';

/** The password of every seeded user (hashed once, with the production argon2 cost). */
export const SEEDED_PASSWORD = 'Bench-Sandi-2024!';

export interface SeedCounts {
  companies: number;
  users: number;
  roles: number;
  userCompanies: number;
  /** Active seeded users with a role: they can sign in with SEEDED_PASSWORD. */
  loginUsernames: string[];
}

const BATCH = 500;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/**
 * Seeds companies, roles, users and their company scopes straight into the database (not through
 * the API, which would spend minutes on argon2 and audit rows). Deterministic: same data every run.
 */
export async function seed(
  db: Db,
  config: Config,
  volume: { companies: number; users: number },
): Promise<SeedCounts> {
  const rnd = randomSource(20_240_611);
  const now = Date.now();
  const createdAt = () => new Date(now - rnd.int(3 * 365 * 24 * 3600) * 1000);

  const companyRows = companySeeds(rnd, volume.companies).map((c) => {
    const at = createdAt();
    return { id: randomUUID(), ...c, simple_dates: rnd.chance(0.2), created_at: at, updated_at: at };
  });
  await insertInBatches(companyRows, (batch) => db.insert(companies).values(batch));

  const permissionIds = (await db.select({ id: permissions.id }).from(permissions)).map((p) => p.id);
  const roleRows = ROLE_NAMES.map((name) => ({ id: randomUUID(), name }));
  await db.insert(roles).values(roleRows);
  await db
    .insert(rolePermissions)
    .values(
      roleRows.flatMap((role) =>
        permissionIds
          .filter(() => rnd.chance(0.4))
          .map((permission_id) => ({ role_id: role.id, permission_id })),
      ),
    );

  const passwordHash = await hashPassword(SEEDED_PASSWORD, config.argon2);
  const userRows = userSeeds(rnd, volume.users).map((u) => {
    const at = createdAt();
    return {
      id: randomUUID(),
      ...u,
      password_hash: passwordHash,
      roles_id: rnd.pick(roleRows).id,
      scope_all: rnd.chance(0.05),
      is_active: rnd.chance(0.95),
      created_at: at,
      updated_at: at,
    };
  });
  await insertInBatches(userRows, (batch) => db.insert(users).values(batch));

  const links: { user_id: string; company_id: string }[] = [];
  if (companyRows.length) {
    for (const user of userRows) {
      if (user.scope_all) continue;
      const picked = new Set<string>();
      const n = 1 + rnd.int(3);
      while (picked.size < Math.min(n, companyRows.length)) picked.add(rnd.pick(companyRows).id);
      for (const company_id of picked) links.push({ user_id: user.id, company_id });
    }
  }
  await insertInBatches(links, (batch) => db.insert(userCompanies).values(batch));

  return {
    companies: companyRows.length,
    users: userRows.length,
    roles: roleRows.length,
    userCompanies: links.length,
    loginUsernames: userRows
      .filter((u) => u.is_active)
      .slice(0, 200)
      .map((u) => u.username),
  };
}
