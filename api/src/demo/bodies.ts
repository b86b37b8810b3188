/**
 * The demo's certification bodies (companies) with their images, their accreditation bodies and
 * standards, and the demo roles and users with their company scopes: each written through its
 * service, as the staff portal writes them.
 */
import { addDays, MODULE_KEYS, type PermissionKey } from '@sertifikasi/shared-contracts';
import { permissions } from '../db/schema';
import { accreditationBodyService } from '../modules/accreditation-bodies/accreditation-bodies.service';
import { certificationTypeService } from '../modules/certification-types/certification-types.service';
import * as companyService from '../modules/companies/companies.service';
import * as roleService from '../modules/roles/roles.service';
import * as userService from '../modules/users/users.service';
import { preparePassword } from '../modules/users/users.service';
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
      'auditor',
      'audit-plan',
      ...CERT_MODULES.flatMap((m) => [m, `${m}:create`, `${m}:edit`] as PermissionKey[]),
    ],
  },
  {
    name: 'Manajer',
    keys: [
      'statistik',
      'audit-schedule',
      'audit-plan',
      'iaf-certsearch',
      ...REPORT_KEYS,
      'company-certificate',
      'training-certificate',
    ],
  },
];

/** Demo users: staff scoped to one company each, a manager scoped to two. */
export const DEMO_USERS = [
  { username: 'staf.msn', name: 'Rina Wulandari', role: 'Staf Sertifikasi', bodies: [0] },
  { username: 'staf.gqc', name: 'Agus Setiawan', role: 'Staf Sertifikasi', bodies: [1] },
  { username: 'staf.cps', name: 'Dewi Anggraini', role: 'Staf Sertifikasi', bodies: [2] },
  { username: 'manajer', name: 'Bambang Hartono', role: 'Manajer', bodies: [0, 1] },
] as const;

/** The demo roles with their permissions (the roles service); answers their ids by name. */
export async function writeRoles(w: DemoWriter): Promise<Map<string, string>> {
  const permissionRows = await w.exec.select().from(permissions);
  const permissionId = new Map(permissionRows.map((p) => [p.name, p.id]));
  const roleIds = new Map<string, string>();
  for (const role of DEMO_ROLES) {
    const created = await roleService.create(w.ctx, {
      name: role.name,
      permission: role.keys.map((k) => permissionId.get(k)!),
    });
    roleIds.set(role.name, created.id);
  }
  return roleIds;
}

/** The certification bodies with their images (the companies service). */
export async function writeBodies(w: DemoWriter): Promise<Body[]> {
  const bodies: Body[] = [];
  for (const seed of CERTIFICATION_BODIES) {
    const director = personName(w.rnd, true);
    const company = await companyService.create(
      w.ctx,
      {
        name: seed.name,
        email: seed.email,
        phone: seed.phone,
        address: seed.address,
        website: seed.website,
        simple_dates: seed.simple_dates ? 'true' : 'false',
        public_certificate_download: seed.public_certificate_download ? 'true' : 'false',
      },
      {
        logo: await w.image(logoSvg(seed.initials, seed.colour), 'Logo'),
        logo_cert: await w.image(
          certificateLogoSvg(seed.initials, seed.name, seed.colour),
          'Logo sertifikat',
        ),
        ttd_cert: await w.image(signatureSvg(director), 'Tanda tangan sertifikat'),
      },
    );
    bodies.push({
      seed,
      id: company.id,
      types: [],
      accreditationBodies: [],
      staff: { id: '', username: '' },
      ctx: w.ctx,
      counters: { scheme: 0, training: 0, client: 0 },
    });
  }
  return bodies;
}

/**
 * Each body's accreditation bodies and standards (their services' batch forms, with their icons);
 * answers how many of each were written.
 */
export async function writeCatalogues(
  w: DemoWriter,
  bodies: Body[],
): Promise<{ accreditationBodies: number; certificationTypes: number }> {
  let accreditationBodies = 0;
  let certificationTypes = 0;
  for (const body of bodies) {
    const shorts = body.seed.accreditationBodies.map((short) =>
      ACCREDITATION_BODIES.find((x) => x.short === short)!,
    );
    const created = await accreditationBodyService.createMany(
      w.ctx,
      shorts.map((a) => ({ company_id: body.id, name: a.name, acronym: a.short })),
      await Promise.all(
        shorts.map(async (a) => ({
          uploads: { icon: await w.image(badgeSvg(a.short, a.colour), 'Logo akreditasi') },
          at: new Date(w.at(addDays(w.today, -1100))),
        })),
      ),
    );
    body.accreditationBodies.push(...created.map((a) => a.id));
    accreditationBodies += created.length;
    const standards = body.seed.standards.map((code) => STANDARDS.find((x) => x.code === code)!);
    const types = await certificationTypeService.createMany(
      w.ctx,
      standards.map((s, position) => ({
        company_id: body.id,
        name: s.name,
        category: s.category,
        code: s.code,
        position: position + 1,
        valid_for: s.valid_for,
        valid_for_type: s.valid_for_type,
      })),
      await Promise.all(
        standards.map(async (s) => ({
          uploads: { icon: await w.image(badgeSvg(s.label, s.colour), 'Icon sertifikat') },
          at: new Date(w.at(addDays(w.today, -1100))),
        })),
      ),
    );
    types.forEach((t, i) => {
      const s = standards[i]!;
      body.types.push({
        id: t.id,
        code: s.code,
        name: s.name,
        valid_for: s.valid_for,
        valid_for_type: s.valid_for_type,
      });
    });
    certificationTypes += types.length;
  }
  return { accreditationBodies, certificationTypes };
}

/**
 * The demo users and their company scopes (the users service, their password hashed once); each
 * company's staff user is the one its records are written by.
 */
export async function writeUsers(
  w: DemoWriter,
  opts: DemoOptions,
  roleIds: Map<string, string>,
  bodies: Body[],
): Promise<void> {
  const password = await preparePassword({ argon2: opts.argon2 }, opts.password);
  for (const u of DEMO_USERS) {
    const user = await userService.create(
      w.ctx,
      {
        name: u.name,
        username: u.username,
        email: null,
        roles_id: roleIds.get(u.role)!,
        company_ids: u.bodies.map((b) => bodies[b]!.id),
        is_active: 'true',
      },
      password,
    );
    if (u.role === 'Staf Sertifikasi') {
      const body = bodies[u.bodies[0]]!;
      body.staff = { id: user.id, username: user.username };
      body.ctx = w.staffContext(body.staff, body.id);
    }
  }
}
