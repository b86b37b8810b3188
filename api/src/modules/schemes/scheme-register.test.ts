import { eq, inArray, sql } from 'drizzle-orm';
import { checkPathNumber } from '@sertifikasi/shared-contracts/public';
import { schemes } from '../../db/schema';
import { readMigrations } from '../../db/migrate';
import { call, expect422, useTestContext } from '../../../test/helpers';
import { schemeBody } from '../../../test/forms';

const ctx = useTestContext();
let companyA: string;
let typeA: string;
let typeA2: string;
let clientA: string;
let otherClient: string;
let siteA: string;
let siteA2: string;
let siteOther: string;

beforeAll(async () => {
  const { make } = ctx;
  companyA = await make.company('PT Register Alpha');
  typeA = await make.certificationType(companyA, 'ISO 9001:2015');
  typeA2 = await make.certificationType(companyA, 'ISO 14001:2015');
  clientA = await make.client(companyA, 'PT Cakupan', { ea_code: 'EA 28' });
  otherClient = await make.client(companyA, 'PT Sebelah');
  siteA = await make.site(clientA, 'Pabrik 1');
  siteA2 = await make.site(clientA, 'Pabrik 2');
  siteOther = await make.site(otherClient, 'Pabrik Sebelah');
});

const URL = '/api/company-certificate-scheme';
type Answer = Record<string, unknown> & { id: string; revision: number };

async function create(over: Record<string, unknown> = {}) {
  const res = await call(ctx.app, ctx.adminToken, 'POST', URL, schemeBody(clientA, typeA, over));
  if (res.statusCode !== 201) throw new Error(`scheme: ${res.statusCode} ${res.body}`);
  return res.json<Answer>();
}

const put = (id: string, body: Record<string, unknown>) =>
  call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${id}`, body);

describe('the certificate data of a scheme', () => {
  it('keeps the original issue date, scope, sector codes (ascending, once each) and covered sites', async () => {
    const made = await create({
      original_issue_date: '2019-05-01',
      scope: 'Pembangunan gedung',
      sector_codes: [33, 28, 28],
      sites: [
        { site_id: siteA, scope: 'Fabrikasi' },
        { site_id: siteA2, scope: '' },
      ],
    });
    expect(made).toMatchObject({
      original_issue_date: '2019-05-01',
      scope: 'Pembangunan gedung',
      sector_codes: [28, 33],
      sites: [
        { site_id: siteA, scope: 'Fabrikasi' },
        { site_id: siteA2, scope: null },
      ],
      revision: 0,
    });
    const detail = await call(ctx.app, ctx.adminToken, 'GET', `/api/company-certificate/ALL/${clientA}`);
    const shown = detail.json<{ schema: Answer[] }>().schema.find((s) => s.id === made.id);
    expect(shown).toMatchObject({ sector_codes: [28, 33], revision: 0, original_issue_date: '2019-05-01' });
  });

  it('refuses sector codes outside 1-39, and a site of another client', async () => {
    expect422.including(
      await call(
        ctx.app,
        ctx.adminToken,
        'POST',
        URL,
        schemeBody(clientA, typeA, { sector_codes: [28, 40] }),
      ),
      { 'sector_codes[1]': 'Kode Sektor IAF harus antara 1 dan 39' },
    );
    expect422.including(
      await call(ctx.app, ctx.adminToken, 'POST', URL, schemeBody(clientA, typeA, { sector_codes: [0] })),
      { 'sector_codes[0]': 'Kode Sektor IAF harus antara 1 dan 39' },
    );
    expect422.field(
      await call(
        ctx.app,
        ctx.adminToken,
        'POST',
        URL,
        schemeBody(clientA, typeA, { sites: [{ site_id: siteOther, scope: null }] }),
      ),
      'sites',
      'Lokasi tidak ditemukan pada klien',
    );
    expect(
      (
        await call(
          ctx.app,
          ctx.adminToken,
          'POST',
          URL,
          schemeBody(clientA, typeA, { sites: [{ site_id: siteA }, { site_id: siteA }] }),
        )
      ).statusCode,
    ).toBe(422);
  });

  it('refuses an original issue date after the issue date', async () => {
    expect422.field(
      await call(
        ctx.app,
        ctx.adminToken,
        'POST',
        URL,
        schemeBody(clientA, typeA, { original_issue_date: '2026-01-01' }),
      ),
      'original_issue_date',
      'Tanggal Terbit Awal tidak boleh setelah Tanggal Terbit',
    );
  });
});

describe('revision', () => {
  it('goes up by one on each save that changes what the certificate shows, and not otherwise', async () => {
    const base = schemeBody(clientA, typeA, { sector_codes: [28] });
    const made = (await call(ctx.app, ctx.adminToken, 'POST', URL, base)).json<Answer>();
    expect(made.revision).toBe(0);
    let body = base;
    const save = async (over: Record<string, unknown>) => {
      body = { ...body, ...over };
      const res = await put(made.id, body);
      expect(res.statusCode).toBe(200);
      return res.json<Answer>().revision;
    };
    // Not on the certificate: description, surveillance date, decision date, status; the same again.
    expect(await save({ desc: 'Catatan internal' })).toBe(0);
    expect(await save({ surveillance_date: '2026-01-10' })).toBe(0);
    expect(await save({ status: 'SUSPENDED' })).toBe(0);
    expect(await save({})).toBe(0);
    expect(await save({ sector_codes: [28] })).toBe(0);
    // On it: each one more.
    expect(await save({ sector_codes: [28, 33] })).toBe(1);
    expect(await save({ scope: 'Lingkup baru' })).toBe(2);
    expect(await save({ sites: [{ site_id: siteA, scope: null }] })).toBe(3);
    expect(await save({ sites: [{ site_id: siteA, scope: 'Gudang' }] })).toBe(4);
    expect(await save({ issue_date: '2025-02-10' })).toBe(5);
    expect(await save({ original_issue_date: '2020-01-01' })).toBe(6);
    expect(await save({ cert_number: `${String(body.cert_number)}-R` })).toBe(7);
    expect(await save({ certification_id: typeA2 })).toBe(8);
    expect(await save({ valid_for: 2 })).toBe(9);
    // Making the QR does not count either.
    expect(
      (await call(ctx.app, ctx.adminToken, 'GET', `/api/generate-qr-scheme/${made.id}`)).json<Answer>()
        .revision,
    ).toBe(9);
  });
});

describe('the public check', () => {
  it('shows the original issue date when the scheme has one, and the scheme’s own scope before the client’s', async () => {
    const made = await create({ original_issue_date: '2018-03-01', scope: 'Jasa konstruksi' });
    const res = await ctx.app.inject({
      url: `/api/check-certificate-company/${checkPathNumber(String(made.cert_number))}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ original_issue_date: '2018-03-01', scope: 'Jasa konstruksi' });
    const plain = await create();
    const other = await ctx.app.inject({
      url: `/api/check-certificate-company/${checkPathNumber(String(plain.cert_number))}`,
    });
    expect(other.json()).toMatchObject({ original_issue_date: null });
  });
});

describe('the migration that fills sector codes from the client’s Kode EA', () => {
  it('reads "EA 28" as [28] and "28; 33" as [28, 33]; "abc" and "EA 40" leave none', async () => {
    const ids: Record<string, string> = {};
    for (const ea of ['EA 28', '28; 33', 'abc', 'EA 40']) {
      const client = await ctx.make.client(companyA, `PT EA ${ea}`, { ea_code: ea });
      ids[ea] = await ctx.make.scheme({ company: companyA, type: typeA, client });
    }
    const db = ctx.database.db;
    await db
      .update(schemes)
      .set({ sector_codes: [] })
      .where(inArray(schemes.id, Object.values(ids)));
    const fill = readMigrations().find((m) => m.name.endsWith('_scheme_sector_codes_fill'))!;
    for (const statement of fill.statements) await db.execute(sql.raw(statement));
    const codes = async (ea: string) =>
      (await db.select({ c: schemes.sector_codes }).from(schemes).where(eq(schemes.id, ids[ea]!)))[0]!.c;
    expect(await codes('EA 28')).toEqual([28]);
    expect(await codes('28; 33')).toEqual([28, 33]);
    expect(await codes('abc')).toEqual([]);
    expect(await codes('EA 40')).toEqual([]);
  });
});
