/**
 * List totals stay exact while they are kept between requests (services/list-versions.ts): for each
 * record built by defineResourceService, the total of a searched list (and of the unsearched one),
 * asked again after each kind of write, is the one a fresh count gives. The app's cache is warm
 * before every write (the list was just asked), so a write that did not give its company a new list
 * version would leave the old total in the answer: create, update of a searched column, delete, an
 * import, and writes made through a second app on the same database (another process of a cluster).
 */
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { ALL } from '@sertifikasi/shared-contracts';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { accreditationBodyService } from '../src/modules/accreditation-bodies/accreditation-bodies.service';
import { certificationTypeService } from '../src/modules/certification-types/certification-types.service';
import { clientCertificateService } from '../src/modules/client-certificates/client-certificates.service';
import { trainingCertificateService } from '../src/modules/training-certificates/training-certificates.service';
import { newId } from '../src/lib/crypto';
import type { CompanyOwnedTable, Resource } from '../src/modules/resource/resource.repository';
import { renewListVersions } from '../src/services/list-versions';
import { pngPart, sendForm } from './forms';
import { applyImport } from './import-job';
import { ADMIN_PASSWORD, call, createTestContext, login, type TestContext } from './helpers';

let t: TestContext;
/** A second app on the same database: its writes stand for another process's. */
let other: FastifyInstance;
let otherToken: string;
let alfa: string;
let beta: string;

beforeAll(async () => {
  t = await createTestContext();
  other = await buildApp({
    config: loadConfig({ NODE_ENV: 'test', PORTAL_ROOT: path.join(os.tmpdir(), 'sertifikasi-no-portal') }),
    db: t.database.db,
  });
  await other.ready();
  otherToken = await login(other, 'admin', ADMIN_PASSWORD);
  alfa = await t.make.company('PT Alfa Hitung');
  beta = await t.make.company('PT Beta Hitung');
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** One kind of record: its list, its service (for a fresh count) and how a form writes it. */
interface Kind {
  url: string;
  service: Pick<Resource<CompanyOwnedTable, unknown>, 'list'>;
  /** The JSON body of an update (and, with `icon_file`, of a create) naming the record `name`. */
  body: (company: string, name: string) => Record<string, string | number>;
  /** Create needs a multipart form with an image. */
  image?: boolean;
}

const n = () => newId().slice(0, 8);
const KINDS: Record<string, Kind> = {
  'client-certificate': {
    url: '/api/company-certificate',
    service: clientCertificateService,
    body: (company, name) => ({
      company_id: company,
      name,
      certificate_number: `KL-${n()}`,
      region: 'Jakarta',
    }),
  },
  'training-certificate': {
    url: '/api/training-certificate',
    service: trainingCertificateService,
    body: (company, name) => ({
      company_id: company,
      name,
      certificate_number: `PLT-${n()}`,
      training: 'Lead Auditor',
      location: 'Bandung',
      date: '2025-03-10',
    }),
  },
  'certification-type': {
    url: '/api/certification',
    service: certificationTypeService,
    body: (company, name) => ({ company_id: company, name, category: 'Mutu', code: `K-${n()}`, position: 1 }),
    image: true,
  },
  'accreditation-body': {
    url: '/api/accredited',
    service: accreditationBodyService,
    body: (company, name) => ({ company_id: company, name }),
    image: true,
  },
};

describe.each(Object.entries(KINDS))('the list totals of %s', (_entity, kind) => {
  const word = `zebra${n()}`;

  async function create(app: FastifyInstance, token: string, company: string, name: string): Promise<string> {
    const body = kind.body(company, name);
    const res = kind.image
      ? await sendForm(app, token, kind.url, {
          ...Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])),
          icon_file: await pngPart(),
        })
      : await call(app, token, 'POST', kind.url, body);
    expect([res.statusCode, res.body]).toEqual([201, expect.any(String)]);
    return res.json<{ id: string }>().id;
  }
  async function rename(app: FastifyInstance, token: string, id: string, company: string, name: string) {
    const res = await call(app, token, 'PUT', `${kind.url}/${id}`, kind.body(company, name));
    expect([res.statusCode, res.body]).toEqual([200, expect.any(String)]);
  }
  async function remove(app: FastifyInstance, token: string, id: string) {
    const res = await call(app, token, 'DELETE', `${kind.url}/${id}`);
    expect(res.json()).toMatchObject({ success: true });
  }

  /** The lists every check asks: searched and not, every company and one. */
  const lists = () => [
    { company_id: ALL, search: word },
    { company_id: alfa, search: word },
    { company_id: beta, search: word },
    { company_id: ALL, search: '' },
  ];
  /** The totals the app answers (its cache warm after the first call) for the lists above. */
  const answered = async () => {
    const totals: number[] = [];
    const pages: unknown[] = [];
    for (const q of lists()) {
      const res = await call(
        t.app,
        t.adminToken,
        'GET',
        `${kind.url}?company_id=${q.company_id}&search=${encodeURIComponent(q.search)}`,
      );
      expect(res.statusCode).toBe(200);
      const body = res.json<{ total: number; data: unknown[] }>();
      totals.push(body.total);
      pages.push(body.data);
    }
    return { totals, pages };
  };
  /** The same lists read afresh (the service without a cache), as JSON. */
  const fresh = async () => {
    const totals: number[] = [];
    const pages: unknown[] = [];
    for (const q of lists()) {
      const scope = q.company_id === ALL ? ALL : [q.company_id];
      const body = await kind.service.list(t.database.db, { page: 1, paginate: 20, ...q }, scope);
      totals.push(body.total);
      pages.push(JSON.parse(JSON.stringify(body.data)));
    }
    return { totals, pages };
  };
  /** After a write: the app answers what a fresh read gives (total and page), the totals moved by `moved`. */
  let last: number[];
  const expectTotals = async (moved: number[]) => {
    const now = await fresh();
    expect(now.totals).toEqual(last.map((v, i) => v + moved[i]!));
    expect(await answered()).toEqual(now);
    last = now.totals;
  };

  it('stay exact across create, update of a searched column, delete and another app’s writes', async () => {
    const first = await create(t.app, t.adminToken, alfa, `Satu ${word}`);
    await create(t.app, t.adminToken, beta, `Dua ${word}`);
    const start = await fresh();
    expect(start.totals.slice(0, 3)).toEqual([2, 1, 1]);
    expect(await answered()).toEqual(start);
    last = start.totals;

    const third = await create(t.app, t.adminToken, alfa, `Tiga ${word}`);
    await expectTotals([1, 1, 0, 1]);
    await rename(t.app, t.adminToken, first, alfa, 'Satu tanpa kata');
    await expectTotals([-1, -1, 0, 0]);
    await rename(t.app, t.adminToken, first, alfa, `Satu ${word} lagi`);
    await expectTotals([1, 1, 0, 0]);
    await remove(t.app, t.adminToken, third);
    await expectTotals([-1, -1, 0, -1]);

    // Another process: this app's cache is warm, the writes come through the other app.
    const fourth = await create(other, otherToken, alfa, `Empat ${word}`);
    await expectTotals([1, 1, 0, 1]);
    await rename(other, otherToken, fourth, alfa, 'Empat tanpa kata');
    await expectTotals([-1, -1, 0, 0]);
    await create(other, otherToken, beta, `Lima ${word}`);
    await expectTotals([1, 0, 1, 1]);
    await remove(other, otherToken, fourth);
    await expectTotals([0, 0, 0, -1]);
  });

  it('moving a record to another company counts it in the new company, no longer in the old', async () => {
    const start = await fresh();
    expect(await answered()).toEqual(start);
    last = start.totals;
    const moved = await create(t.app, t.adminToken, beta, `Pindah ${word}`);
    await expectTotals([1, 0, 1, 1]);
    await rename(t.app, t.adminToken, moved, alfa, `Pindah ${word}`);
    await expectTotals([0, 1, -1, 0]);
  });
});

/** An xlsx with `header` and `rows` on its first sheet. */
async function xlsx(header: string[], rows: (string | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Data');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function importFile(kind: string, company: string, file: Buffer) {
  const job = await applyImport(t.app, t.adminToken, kind, company, file);
  expect(job.state).toBe('done');
  return job.result as unknown as Record<string, unknown>;
}

const total = async (url: string) => {
  const res = await call(t.app, t.adminToken, 'GET', url);
  expect(res.statusCode).toBe(200);
  return res.json<{ total: number }>().total;
};

describe('an import', () => {
  it('moves the totals of the client list it writes to', async () => {
    const word = `impor${n()}`;
    const id = n();
    const url = `/api/company-certificate?company_id=ALL&search=${word}`;
    expect(await total(url)).toBe(0);
    const header = ['Nomor Sertifikat Klien', 'Nama Klien', 'Region'];
    const created = await importFile(
      'company-certificate',
      alfa,
      await xlsx(header, [
        [`IK1-${id}`, `PT ${word} Satu`, 'Jakarta'],
        [`IK2-${id}`, `PT ${word} Dua`, 'Bandung'],
      ]),
    );
    expect(created).toMatchObject({ created: { clients: 2 } });
    expect(await total(url)).toBe(2);
    // Both renamed away from the word, a third client named with it.
    const renamed = await importFile(
      'company-certificate',
      alfa,
      await xlsx(header, [
        [`IK1-${id}`, 'PT Tanpa Kata Satu', 'Jakarta'],
        [`IK2-${id}`, 'PT Tanpa Kata Dua', 'Bandung'],
        [`IK3-${id}`, `PT ${word} Tiga`, 'Surabaya'],
      ]),
    );
    expect(renamed).toMatchObject({ created: { clients: 1 }, updated: { clients: 2 } });
    expect(await total(url)).toBe(1);
  });

  it('moves the totals of the training list it writes to', async () => {
    const word = `latih${n()}`;
    const url = `/api/training-certificate?company_id=${beta}&search=${word}`;
    expect(await total(url)).toBe(0);
    const header = ['Nomor Sertifikat', 'Nama Personel', 'Nama Pelatihan', 'Lokasi', 'Tanggal Sertifikasi'];
    const res = await importFile(
      'training-certificate',
      beta,
      await xlsx(header, [
        [`IT-${word}-1`, 'Siti', `Pelatihan ${word}`, 'Bandung', '2025-04-01'],
        [`IT-${word}-2`, 'Budi', 'Lead Auditor', 'Jakarta', '2025-04-02'],
      ]),
    );
    expect(res).toMatchObject({ created: 2 });
    expect(await total(url)).toBe(2);
  });
});

describe('rows written without the services', () => {
  it('count once the list versions are renewed, as a bulk load and a restore do', async () => {
    const word = `massal${n()}`;
    const url = `/api/training-certificate?company_id=ALL&search=${word}`;
    expect(await total(url)).toBe(0);
    await t.database.db.execute(sql`
      insert into training_certificates (id, company_id, certificate_number, name, training, location, date)
      select gen_random_uuid(), ${alfa}::uuid, ${word} || '/' || g, 'Peserta', 'Pelatihan', 'Jakarta', date '2025-01-01'
      from generate_series(1, 3) g`);
    // The total was kept: nothing told this app the rows changed (so it is kept between requests).
    expect(await total(url)).toBe(0);
    await renewListVersions(t.database.db);
    expect(await total(url)).toBe(3);
  });

  it('answers a kept page with its rows as they are now (the company renamed)', async () => {
    const url = `/api/training-certificate?company_id=${beta}`;
    const names = async () =>
      new Set(
        (await call(t.app, t.adminToken, 'GET', url))
          .json<{ data: { company: { name: string } }[] }>()
          .data.map((r) => r.company.name),
      );
    expect(await names()).toEqual(new Set(['PT Beta Hitung']));
    const res = await call(t.app, t.adminToken, 'PUT', `/api/company/${beta}`, {
      name: 'PT Beta Baru',
      website: 'https://beta.co.id',
    });
    expect(res.statusCode).toBe(200);
    expect(await names()).toEqual(new Set(['PT Beta Baru']));
  });

  it('keeps each app’s totals to itself', () => {
    expect(t.app.listCache).not.toBe(other.listCache);
    expect(t.app.listCache.size.entries).toBeGreaterThan(0);
  });
});
