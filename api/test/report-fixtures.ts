/**
 * The data set of the dashboard and report tests, made through the services (test/fixtures.ts). Every figure the tests expect is computed by hand from the table below, on "today"
 * 2024-04-15 in Jakarta (the clock is set to 2024-04-14T17:30:00Z, still the 14th in UTC).
 *
 * Company Alfa (A)
 *   types: ISO 9001 (t9001), ISO 14001 (t14001); bodies: KAN, IAS
 *   clients: PT Maju (c1), CV Sentosa (c2), PT Abadi (c3)
 *   scheme  client type   status     issue       expiry      accredited  effective (2024-04-15)
 *   s1      c1     9001   ACTIVE     2023-04-20  2026-04-20  KAN         ACTIVE
 *   s2      c1     14001  ACTIVE     2021-04-14  2024-04-14  -           EXPIRED (the 14th: past in Jakarta)
 *   s3      c2     9001   ACTIVE     2021-04-30  2024-04-30  -           ACTIVE (expires this month)
 *   s4      c2     14001  SUSPENDED  2024-04-10  2027-04-10  IAS         SUSPENDED
 *   s5      c3     9001   DRAFT      2024-04-15  2025-04-15  -           DRAFT
 *   s6      c3     9001   NOACTIVE   2024-03-31  2025-03-31  -           NOACTIVE
 *   s7      c3     9001   WITHDRAWN  2023-12-31  2024-04-02  -           WITHDRAWN (expires this month, not ACTIVE)
 *   s8      c1     9001   ACTIVE     2023-05-01  2024-05-01  -           ACTIVE
 *   trainings: Budi Santoso 2024-04-15, ' budi santoso ' 2024-04-14, Siti Aminah 2024-03-31, Agus 2023-12-31
 * Company Beta (B)
 *   type SMK3; client PT Beta Klien (c4); s9 ACTIVE 2023-04-25 -> 2024-04-25
 *   training: Budi Santoso 2024-04-09
 * Company Gamma (C), outside the limited user's scope
 *   type HACCP; client PT Gamma Klien (c5); s10 ACTIVE 2024-04-12 -> 2024-04-20
 *   training: Rina 2024-04-15
 */
import type { SchemeStatus } from '@sertifikasi/shared-contracts';
import type { Fixtures, SchemeFixture } from './fixtures';
import { type TestContext, useTestContext } from './helpers';

/** 2024-04-15 00:30 in Jakarta, still 2024-04-14 in UTC. */
export const FIXTURE_NOW = new Date('2024-04-14T17:30:00Z');

export type ReportFixture = Awaited<ReturnType<typeof buildReportFixture>>;

/** Builds the data set with `f` (a test context's `ctx.make`, its clock at FIXTURE_NOW). */
export async function buildReportFixture(f: Fixtures) {
  /** One row of the table above: the validity is chosen so that the scheme expires on `expiry`. */
  const scheme = (
    company: string,
    client: string,
    type: string,
    status: SchemeStatus,
    issue: string,
    expiry: string,
    more: Partial<SchemeFixture> = {},
  ) => f.scheme({ company, client, type, status, issue_date: issue, expired_date: expiry, ...more });
  const A = await f.company('PT Alfa Sertifikasi');
  const B = await f.company('PT Beta Sertifikasi');
  const C = await f.company('PT Gamma Sertifikasi');
  const t9001 = await f.certificationType(A, 'ISO 9001');
  const t14001 = await f.certificationType(A, 'ISO 14001');
  const kan = await f.accreditationBody(A, 'KAN');
  const ias = await f.accreditationBody(A, 'IAS');
  const c1 = await f.client(A, 'PT Maju', {
    certificate_number: 'MJ-001',
    ea_code: '28',
    nace_code: 'C25',
    phone: '021-555-0101',
    handphone: '0812-1111-2222',
    email: 'info@maju.co.id',
    region: 'Bekasi',
    city: 'Kabupaten Bekasi',
    province: 'Jawa Barat',
  });
  const c2 = await f.client(A, 'CV Sentosa', { certificate_number: 'CS-002', region: 'Bandung' });
  const c3 = await f.client(A, 'PT Abadi', { certificate_number: 'AB-003', region: 'Surabaya' });
  const acc = (id: string) => ({ accredited: id });
  const s1 = await scheme(A, c1, t9001, 'ACTIVE', '2023-04-20', '2026-04-20', {
    ...acc(kan),
    cert_number: 'QMS-0001',
    more: { original_issue_date: '2017-04-20', scope: 'Fabrikasi baja', sector_codes: [17, 28] },
  });
  const s2 = await scheme(A, c1, t14001, 'ACTIVE', '2021-04-14', '2024-04-14');
  const s3 = await scheme(A, c2, t9001, 'ACTIVE', '2021-04-30', '2024-04-30');
  const s4 = await scheme(A, c2, t14001, 'SUSPENDED', '2024-04-10', '2027-04-10', acc(ias));
  const s5 = await scheme(A, c3, t9001, 'DRAFT', '2024-04-15', '2025-04-15');
  const s6 = await scheme(A, c3, t9001, 'NOACTIVE', '2024-03-31', '2025-03-31');
  const s7 = await scheme(A, c3, t9001, 'WITHDRAWN', '2023-12-31', '2024-04-02');
  const s8 = await scheme(A, c1, t9001, 'ACTIVE', '2023-05-01', '2024-05-01');
  const tA1 = await f.training(A, {
    name: 'Budi Santoso',
    date: '2024-04-15',
    training: 'Lead Auditor ISO 9001',
    location: 'Yogyakarta',
  });
  const tA2 = await f.training(A, { name: ' budi santoso ', date: '2024-04-14' });
  const tA3 = await f.training(A, { name: 'Siti Aminah', date: '2024-03-31' });
  const tA4 = await f.training(A, { name: 'Agus', date: '2023-12-31' });

  const tB = await f.certificationType(B, 'SMK3');
  const c4 = await f.client(B, 'PT Beta Klien');
  const s9 = await scheme(B, c4, tB, 'ACTIVE', '2023-04-25', '2024-04-25');
  const tB1 = await f.training(B, { name: 'Budi Santoso', date: '2024-04-09' });

  const tC = await f.certificationType(C, 'HACCP');
  const c5 = await f.client(C, 'PT Gamma Klien');
  const s10 = await scheme(C, c5, tC, 'ACTIVE', '2024-04-12', '2024-04-20');
  const tC1 = await f.training(C, { name: 'Rina', date: '2024-04-15' });

  return {
    company: { A, B, C },
    type: { t9001, t14001, tB, tC },
    body: { kan, ias },
    client: { c1, c2, c3, c4, c5 },
    scheme: { s1, s2, s3, s4, s5, s6, s7, s8, s9, s10 },
    training: { tA1, tA2, tA3, tA4, tB1, tC1 },
  };
}

/** A user of the report tests: a new role holding `keys`, scope Alfa and Beta (not Gamma) or ALL. */
export interface ReportUser {
  username: string;
  role: string;
  keys: string[];
  scope: 'Alfa and Beta' | 'ALL';
}

/**
 * The report tests' set-up, made once before a file's tests: a context whose clock stands at
 * FIXTURE_NOW, the data set in it (`fx`) and, for each of `users`, a token signed in as them (`tokens`).
 * `fx` and `tokens` are filled in before the tests run.
 */
export function useReportFixture<K extends string>(
  users: Record<K, ReportUser>,
): { ctx: TestContext; fx: ReportFixture; tokens: Record<K, string> } {
  const ctx = useTestContext({}, { now: FIXTURE_NOW });
  const fx = {} as ReportFixture;
  const tokens = {} as Record<K, string>;
  beforeAll(async () => {
    Object.assign(fx, await buildReportFixture(ctx.make));
    for (const name of Object.keys(users) as K[]) {
      const { username, role, keys, scope } = users[name];
      const company_ids = scope === 'ALL' ? 'ALL' : [fx.company.A, fx.company.B];
      const roles_id = await ctx.make.role(role, keys);
      tokens[name] = (await ctx.make.user({ username, roles_id, company_ids })).token;
    }
  });
  return { ctx, fx, tokens };
}
