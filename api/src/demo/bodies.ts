/**
 * The demo's certification bodies (companies) with their images, their accreditation bodies and
 * standards, and the demo roles and users with their company scopes.
 */
import { addDays, MODULE_KEYS, type PermissionKey } from '@sertifikasi/shared-contracts';
import { companies, permissions, rolePermissions, roles, userCompanies, users } from '../db/schema';
import { hashPassword } from '../lib/crypto';
import { ACCREDITATION_BODIES, CERTIFICATION_BODIES, STANDARDS } from './data';
import { badgeSvg, certificateLogoSvg, logoSvg, signatureSvg } from './images';
import { type Body, type DemoOptions, type DemoWriter, personName } from './writer';

/** Roles of the demo users: what each may do (docs/rules.md#permissions). */
const CERT_MODULES = ['accredited', 'certification', 'company-certificate', 'training-certificate'] as const;
const REPORT_KEYS = MODULE_KEYS.filter((k) => k.startsWith('report-'));
export const DEMO_ROLES: { name: string; keys: PermissionKey[] }[] = [
  {
    name: 'Staf Sertifikasi',
    keys: [
      'statistik',
      'audit-schedule',
      ...CERT_MODULES.flatMap((m) => [m, `${m}:create`, `${m}:edit`] as PermissionKey[]),
    ],
  },
  {
    name: 'Manajer',
    keys: ['statistik', 'audit-schedule', ...REPORT_KEYS, 'company-certificate', 'training-certificate'],
  },
];

/** Demo users: staff scoped to one company each, a manager scoped to two. */
export const DEMO_USERS = [
  { username: 'staf.msn', name: 'Rina Wulandari', role: 'Staf Sertifikasi', bodies: [0] },
  { username: 'staf.gqc', name: 'Agus Setiawan', role: 'Staf Sertifikasi', bodies: [1] },
  { username: 'staf.cps', name: 'Dewi Anggraini', role: 'Staf Sertifikasi', bodies: [2] },
  { username: 'manajer', name: 'Bambang Hartono', role: 'Manajer', bodies: [0, 1] },
] as const;

/** The demo roles with their permissions; answers their ids by name. */
export async function writeRoles(w: DemoWriter): Promise<Map<string, string>> {
  const permissionRows = await w.exec.select().from(permissions);
  const permissionId = new Map(permissionRows.map((p) => [p.name, p.id]));
  const roleIds = new Map<string, string>();
  for (const role of DEMO_ROLES) {
    const id = w.rnd.uuid();
    roleIds.set(role.name, id);
    const stamp = w.at(addDays(w.today, -400));
    await w.exec
      .insert(roles)
      .values({ id, name: role.name, created_at: new Date(stamp), updated_at: new Date(stamp) });
    await w.exec
      .insert(rolePermissions)
      .values(role.keys.map((k) => ({ role_id: id, permission_id: permissionId.get(k)! })));
  }
  return roleIds;
}

/** The certification bodies with their images; `userIds` are the demo users' ids (staff named on audit rows). */
export async function writeBodies(w: DemoWriter, userIds: string[]): Promise<Body[]> {
  const bodies: Body[] = [];
  for (const [i, seed] of CERTIFICATION_BODIES.entries()) {
    const id = w.rnd.uuid();
    const director = personName(w.rnd, true);
    const created = new Date(w.at(addDays(w.today, -1200 + i * 7)));
    await w.exec.insert(companies).values({
      id,
      name: seed.name,
      email: seed.email,
      phone: seed.phone,
      address: seed.address,
      website: seed.website,
      logo: await w.store(logoSvg(seed.initials, seed.colour), 'Logo'),
      logo_cert: await w.store(certificateLogoSvg(seed.initials, seed.name, seed.colour), 'Logo sertifikat'),
      ttd_cert: await w.store(signatureSvg(director), 'Tanda tangan sertifikat'),
      simple_dates: seed.simple_dates,
      public_certificate_download: seed.public_certificate_download,
      created_at: created,
      updated_at: created,
    });
    const staffIndex = DEMO_USERS.findIndex((u) => u.role === 'Staf Sertifikasi' && u.bodies[0] === i);
    bodies.push({
      seed,
      id,
      types: [],
      accreditationBodies: [],
      staff: { id: userIds[staffIndex]!, username: DEMO_USERS[staffIndex]!.username },
      counters: { scheme: 0, training: 0, client: 0 },
    });
  }
  return bodies;
}

/** Each body's accreditation bodies and standards; answers how many of each were written. */
export async function writeCatalogues(
  w: DemoWriter,
  bodies: Body[],
): Promise<{ accreditationBodies: number; certificationTypes: number }> {
  const accreditationBodyRows: object[] = [];
  const typeRows: object[] = [];
  for (const body of bodies) {
    for (const short of body.seed.accreditationBodies) {
      const a = ACCREDITATION_BODIES.find((x) => x.short === short)!;
      const id = w.rnd.uuid();
      const stamp = w.at(addDays(w.today, -1100));
      body.accreditationBodies.push(id);
      accreditationBodyRows.push({
        id,
        company_id: body.id,
        name: a.name,
        acronym: a.short,
        icon: await w.store(badgeSvg(a.short, a.colour), 'Logo akreditasi'),
        created_at: stamp,
        updated_at: stamp,
      });
    }
    for (const [position, code] of body.seed.standards.entries()) {
      const s = STANDARDS.find((x) => x.code === code)!;
      const id = w.rnd.uuid();
      const stamp = w.at(addDays(w.today, -1100));
      body.types.push({ id, code, name: s.name, valid_for: s.valid_for, valid_for_type: s.valid_for_type });
      typeRows.push({
        id,
        company_id: body.id,
        name: s.name,
        category: s.category,
        code: s.code,
        position: position + 1,
        valid_for: s.valid_for,
        valid_for_type: s.valid_for_type,
        icon: await w.store(badgeSvg(s.label, s.colour), 'Icon sertifikat'),
        created_at: stamp,
        updated_at: stamp,
      });
    }
  }
  await w.insertRows('accredited_bodies', accreditationBodyRows);
  await w.insertRows('certification_types', typeRows);
  return { accreditationBodies: accreditationBodyRows.length, certificationTypes: typeRows.length };
}

/** The demo users and their company scopes. */
export async function writeUsers(
  w: DemoWriter,
  opts: DemoOptions,
  userIds: string[],
  roleIds: Map<string, string>,
  bodies: Body[],
): Promise<void> {
  const passwordHash = await hashPassword(opts.password, opts.argon2);
  for (const [i, u] of DEMO_USERS.entries()) {
    const stamp = new Date(w.at(addDays(w.today, -380 + i)));
    await w.exec.insert(users).values({
      id: userIds[i]!,
      name: u.name,
      username: u.username,
      password_hash: passwordHash,
      roles_id: roleIds.get(u.role)!,
      scope_all: false,
      is_active: true,
      created_at: stamp,
      updated_at: stamp,
    });
    await w.exec
      .insert(userCompanies)
      .values(u.bodies.map((b) => ({ user_id: userIds[i]!, company_id: bodies[b]!.id })));
  }
}
