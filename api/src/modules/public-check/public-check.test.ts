// Long file: the public checks, their history by date, caching and limits and the download all read one fixture of companies with schemes in every status.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq as eqId } from 'drizzle-orm';
import sharp from 'sharp';
import { addDays, addValidity, type SchemeStatus, todayIn } from '@sertifikasi/shared-contracts';
import {
  COMPANY_CHECK_KEYS,
  type CompanyCheck,
  NOT_FOUND_TEXT,
  TRAINING_CHECK_KEYS,
} from '@sertifikasi/shared-contracts/public';
import { auditLog } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { systemActor } from '../../services/context';
import { SCHEME_AUDIT_ENTITY } from '../../services/scheme-history';
import { schemeService } from '../schemes/schemes.service';
import { useTestContext } from '../../../test/helpers';

const TZ = 'Asia/Jakarta';
const today = todayIn(TZ);
const ctx = useTestContext({ RATE_LIMIT_PUBLIC: '30', PUBLIC_BASE_URL: 'https://sertifikat.contoh.id' });

/** Each test asks from its own address, so the per-address limit (30 here) is the 429 test's alone. */
let addressCounter = 0;
let address = '10.0.0.1';
beforeEach(() => {
  addressCounter += 1;
  address = `10.0.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
});

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers, remoteAddress: address });

const db = () => ctx.database.db;

interface CompanyFixture {
  id: string;
  type: string;
  accredited: string;
  client: string;
}

const png = (color: string, width = 120, height = 60) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

/** A company with a certification type, an accreditation body and a client, private values everywhere. */
async function company(
  name: string,
  opts: { simple_dates?: boolean; public_certificate_download?: boolean; images?: boolean } = {},
): Promise<CompanyFixture> {
  const id = await ctx.make.company(name, {
    phone: '021-RAHASIA-KANTOR',
    email: 'rahasia@contoh.co.id',
    simple_dates: String(opts.simple_dates ?? false),
    public_certificate_download: String(opts.public_certificate_download ?? false),
    ...(opts.images ? { logo_cert_file: await png('navy'), ttd_cert_file: await png('black', 160, 50) } : {}),
  });
  return {
    id,
    type: await ctx.make.certificationType(id, 'ISO 9001:2015 Sistem Manajemen Mutu', {
      category: 'ISO',
      code: 'QMS',
    }),
    accredited: await ctx.make.accreditationBody(id, 'KAN (Komite Akreditasi Nasional)'),
    client: await ctx.make.client(id, 'PT Maju Bersama Sejahtera', {
      address: 'Jl. Merdeka No. 10, Jakarta Pusat',
      scope: 'Produksi dan distribusi makanan ringan',
      ea_code: 'EA 03',
      nace_code: 'NACE-RAHASIA-10.8',
      president: 'Direktur Rahasia',
      phone: '021-RAHASIA-KLIEN',
      email: 'klien-rahasia@contoh.co.id',
    }),
  };
}

interface SchemeOptions {
  number: string;
  status: 'ACTIVE' | 'SUSPENDED' | 'WITHDRAWN' | 'DRAFT' | 'NOACTIVE';
  issue?: string;
  validYears?: number;
  desc?: string;
}

/** A scheme of the company's client, accredited, with a private description. */
async function scheme(c: CompanyFixture, o: SchemeOptions): Promise<{ id: string; expired: string }> {
  const issue = o.issue ?? addDays(today, -30);
  const expired = addValidity(issue, o.validYears ?? 3, 'YEAR');
  const id = await ctx.make.scheme({
    company: c.id,
    type: c.type,
    client: c.client,
    accredited: c.accredited,
    cert_number: o.number,
    status: o.status,
    issue_date: issue,
    expired_date: expired,
    surveillance_date: addDays(issue, 365),
    desc: o.desc ?? 'Catatan internal skema',
  });
  return { id, expired };
}

/** A scheme without an audit trail, as one stored before the audit log existed. */
async function unaudited(c: CompanyFixture, o: SchemeOptions): Promise<string> {
  const { id } = await scheme(c, o);
  // Raw: every service write audits; this simulates a scheme from before the audit log.
  await db().delete(auditLog).where(eqId(auditLog.entity_id, id));
  return id;
}

/** Noon in Jakarta on a calendar date. */
const noonOn = (date: string) => new Date(`${date}T05:00:00Z`);

/** Every private value of the fixtures (and their stored QRs): none may appear in any public answer. */
const PRIVATE = ['RAHASIA', 'rahasia', 'petugas', 'Catatan internal', 'NACE'];
const expectNoPrivate = (body: string) => {
  for (const word of PRIVATE) expect(body).not.toContain(word);
};

let main: CompanyFixture;
let simple: CompanyFixture;
let other: CompanyFixture;
type Fixture =
  'active' | 'suspended' | 'withdrawn' | 'noactive' | 'draft' | 'expired' | 'simple' | 'other' | 'unaudited';
const ids = {} as Record<Fixture, string>;

beforeAll(async () => {
  main = await company('PT Sertifikasi Utama', { public_certificate_download: true, images: true });
  simple = await company('PT Sertifikasi Sederhana', { simple_dates: true });
  other = await company('PT Sertifikasi Lain', { public_certificate_download: true });
  ids.active = (await scheme(main, { number: 'QMS/2024/001', status: 'ACTIVE' })).id;
  ids.suspended = (
    await scheme(main, { number: 'QMS-SUS-01', status: 'SUSPENDED', desc: 'Dibekukan sementara' })
  ).id;
  ids.withdrawn = (await scheme(main, { number: 'QMS-WD-01', status: 'WITHDRAWN', desc: 'Dicabut' })).id;
  ids.noactive = (await scheme(main, { number: 'QMS-NA-01', status: 'NOACTIVE', desc: 'Tidak aktif' })).id;
  ids.draft = (await scheme(main, { number: 'QMS-DRAFT-01', status: 'DRAFT' })).id;
  ids.expired = (
    await scheme(main, { number: 'QMS-EXP-01', status: 'ACTIVE', issue: addDays(today, -800), validYears: 2 })
  ).id;
  ids.simple = (await scheme(simple, { number: 'SMP-01', status: 'ACTIVE' })).id;
  ids.other = (await scheme(other, { number: 'OTH-01', status: 'ACTIVE' })).id;
  ids.unaudited = await unaudited(main, { number: 'IMP-01', status: 'ACTIVE' });
  await ctx.make.training(main.id, {
    certificate_number: 'TRN/HSE/2024/07',
    name: 'Siti Nurhaliza',
    training: 'Ahli K3 Umum',
    location: 'Bandung',
    date: '2024-07-15',
    desc: 'Catatan pelatihan rahasia',
  });
  // The stored QRs (made as 'Generate QR' makes them) are private too.
  for (const id of [ids.active, ids.suspended, ids.expired]) {
    const qr = await ctx.make.write((c) => schemeService.refreshQr(c, id));
    PRIVATE.push(qr.qrcode!.slice(100, 160)); // past the PNG header every PNG shares
  }
});

describe('GET /api/check-certificate-company/{number}', () => {
  it('answers an ACTIVE certificate with exactly the public fields', async () => {
    const res = await get('/api/check-certificate-company/QMS+2024+001');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...COMPANY_CHECK_KEYS].sort());
    expect(body).toMatchObject({
      cert_number: 'QMS/2024/001',
      name: 'PT Maju Bersama Sejahtera',
      address: 'Jl. Merdeka No. 10, Jakarta Pusat',
      scope: 'Produksi dan distribusi makanan ringan',
      ea_code: 'EA 03',
      standard: 'ISO 9001:2015 Sistem Manajemen Mutu',
      accreditation: 'KAN (Komite Akreditasi Nasional)',
      issue_date: addDays(today, -30),
      status: 'ACTIVE',
      desc: null,
      simple_dates: false,
      public_certificate_download: true,
      download_id: ids.active,
      on: null,
    });
    expect(body.history).toEqual([{ status: 'ACTIVE', from: addDays(today, -30) }]);
    expectNoPrivate(res.body);
  });

  it.each([
    ['QMS-SUS-01', 'SUSPENDED', 'Dibekukan sementara'],
    ['QMS-WD-01', 'WITHDRAWN', 'Dicabut'],
    ['QMS-NA-01', 'NOACTIVE', 'Tidak aktif'],
  ])('answers %s as %s with its description, and offers no download', async (number, status, desc) => {
    const res = await get(`/api/check-certificate-company/${number}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...COMPANY_CHECK_KEYS].sort());
    expect(body).toMatchObject({ status, desc, download_id: null });
    expectNoPrivate(res.body);
  });

  it('shows an ACTIVE certificate past its expiry as EXPIRED, never ACTIVE', async () => {
    const res = await get('/api/check-certificate-company/QMS-EXP-01');
    expect(res.statusCode).toBe(200);
    const body = res.json<CompanyCheck>();
    expect(body.status).toBe('EXPIRED');
    expect(body.download_id).toBeNull();
    expect(body.desc).toBe('Catatan internal skema'); // not ACTIVE: its description is shown
    expect(body.history.at(-1)).toEqual({ status: 'EXPIRED', from: addDays(body.expired_date, 1) });
  });

  it('never finds a DRAFT, and answers unknown numbers 404 with the text NOT FOUND', async () => {
    for (const number of ['QMS-DRAFT-01', 'TIDAK-ADA-999']) {
      const res = await get(`/api/check-certificate-company/${number}`);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe(NOT_FOUND_TEXT);
    }
  });

  it('reads + and %2F as /, and matches trimmed and ignoring case', async () => {
    for (const path of ['QMS+2024+001', 'QMS%2F2024%2F001', 'qms+2024+001', '%20%20Qms%2F2024+001%20']) {
      const res = await get(`/api/check-certificate-company/${path}`);
      expect({ path, status: res.statusCode }).toEqual({ path, status: 200 });
      expect(res.json().cert_number).toBe('QMS/2024/001');
    }
  });

  it('answers the / spelling when a number written with + exists as well, whichever comes first', async () => {
    // Written the other way round from what a reader would meet first.
    await scheme(other, { number: 'TWIN+2025+01', status: 'WITHDRAWN', desc: 'Nomor dengan plus' });
    await scheme(main, { number: 'TWIN/2025/01', status: 'ACTIVE' });
    for (const path of ['TWIN+2025+01', 'twin%2B2025%2B01', 'TWIN%2F2025%2F01']) {
      const res = await get(`/api/check-certificate-company/${path}`);
      expect({ path, status: res.statusCode }).toEqual({ path, status: 200 });
      expect({ path, number: res.json().cert_number }).toEqual({ path, number: 'TWIN/2025/01' });
    }
    for (const [i, number] of ['TRN+TWIN+01', 'TRN/TWIN/01'].entries()) {
      await ctx.make.training(main.id, {
        certificate_number: number,
        name: `Peserta ${i}`,
        training: 'Ahli K3 Umum',
        location: 'Bandung',
        date: '2024-07-15',
      });
    }
    const training = await get('/api/check-certificate-training/TRN+TWIN+01');
    expect(training.json()).toMatchObject({ certificate_number: 'TRN/TWIN/01', name: 'Peserta 1' });
  });

  it('reads a creation and a status change written at the same instant in that order', async () => {
    const at = noonOn(addDays(today, -10));
    const id = await unaudited(main, { number: 'SAME-INSTANT-01', status: 'ACTIVE' });
    // Raw: the change is stored before the creation, both at one instant (a bulk import can do
    // that); the services write one row at a time, in order.
    const row = { at, actor_id: null, actor_username: 'petugas-rahasia', entity_id: id, company_id: main.id };
    await db()
      .insert(auditLog)
      .values([
        {
          ...row,
          id: newId(),
          action: 'update',
          entity: SCHEME_AUDIT_ENTITY,
          before: { id, status: 'ACTIVE' },
          after: { id, status: 'SUSPENDED' },
        },
        {
          ...row,
          id: newId(),
          action: 'create',
          entity: SCHEME_AUDIT_ENTITY,
          before: null,
          after: { id, status: 'ACTIVE', issue_date: addDays(today, -30) },
        },
      ]);
    const body = (await get('/api/check-certificate-company/SAME-INSTANT-01')).json<CompanyCheck>();
    expect(body.history).toEqual([
      { status: 'ACTIVE', from: addDays(today, -30) },
      { status: 'SUSPENDED', from: addDays(today, -10) },
    ]);
  });

  it('shows the simple_dates setting of the company', async () => {
    const body = (await get('/api/check-certificate-company/smp-01')).json();
    expect(body).toMatchObject({ simple_dates: true, public_certificate_download: false, download_id: null });
  });

  it('gives a history to a scheme written without an audit trail (from its issue date)', async () => {
    const body = (await get('/api/check-certificate-company/IMP-01')).json();
    expect(body.history).toEqual([{ status: 'ACTIVE', from: body.issue_date }]);
  });

  it('refuses unknown query parameters and impossible dates with 422', async () => {
    expect((await get('/api/check-certificate-company/QMS-SUS-01?foo=1')).statusCode).toBe(422);
    for (const on of ['2023-02-29', '2024-13-01', 'kemarin']) {
      const res = await get(`/api/check-certificate-company/QMS-SUS-01?on=${on}`);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: expect.any(String), errors: { on: expect.any(String) } });
    }
  });
});

describe('?on=YYYY-MM-DD: the status on a date, and the public history', () => {
  let number: string;
  const issue = addDays(today, -400);
  const suspendedOn = addDays(today, -200);
  const reinstatedOn = addDays(today, -100);
  let expired: string;
  beforeAll(async () => {
    number = 'PIT/2025/77';
    // Written on the days they happen, the changes by a staff member whose name is private.
    const staff = await ctx.make.user({ username: 'petugas-rahasia', keys: [], company_ids: 'ALL' });
    const asStaff = (id: string, status: SchemeStatus) =>
      ctx.app.db.transaction((tx) =>
        schemeService.changeStatus(
          {
            tx,
            actor: { ...systemActor(), user: { id: staff.id, username: 'petugas-rahasia' } },
            clock: ctx.clock,
            config: ctx.app.config,
          },
          id,
          status,
        ),
      );
    ctx.clock.set(noonOn(issue));
    const s = await scheme(main, { number, status: 'ACTIVE', issue, validYears: 3 });
    expired = s.expired;
    ctx.clock.set(noonOn(suspendedOn));
    await asStaff(s.id, 'SUSPENDED');
    ctx.clock.set(noonOn(reinstatedOn));
    await asStaff(s.id, 'ACTIVE');
    ctx.clock.set(null);
  });
  const on = async (date: string) => {
    const res = await get(`/api/check-certificate-company/PIT+2025+77?on=${date}`);
    expect(res.statusCode).toBe(200);
    expectNoPrivate(res.body);
    return res.json<CompanyCheck>();
  };

  it('lists the history (status and from which date), without who changed it', async () => {
    const body = await on(today);
    expect(body.history).toEqual([
      { status: 'ACTIVE', from: issue },
      { status: 'SUSPENDED', from: suspendedOn },
      { status: 'ACTIVE', from: reinstatedOn },
    ]);
    expect(body.cert_number).toBe(number);
  });

  it('before the issue date: no status, not valid', async () => {
    expect((await on(addDays(issue, -1))).on).toEqual({
      date: addDays(issue, -1),
      status: null,
      valid: false,
    });
  });

  it('before the suspension: valid', async () => {
    expect((await on(issue)).on).toEqual({ date: issue, status: 'ACTIVE', valid: true });
    expect((await on(addDays(suspendedOn, -1))).on).toMatchObject({ status: 'ACTIVE', valid: true });
  });

  it('during the suspension (its first day included): not valid', async () => {
    expect((await on(suspendedOn)).on).toEqual({ date: suspendedOn, status: 'SUSPENDED', valid: false });
    expect((await on(addDays(reinstatedOn, -1))).on).toMatchObject({ status: 'SUSPENDED', valid: false });
  });

  it('after the reinstatement: valid again', async () => {
    expect((await on(reinstatedOn)).on).toEqual({ date: reinstatedOn, status: 'ACTIVE', valid: true });
  });

  it('after the expiry: EXPIRED, not valid', async () => {
    expect((await on(expired)).on).toMatchObject({ status: 'ACTIVE', valid: true });
    expect((await on(addDays(expired, 1))).on).toEqual({
      date: addDays(expired, 1),
      status: 'EXPIRED',
      valid: false,
    });
  });
});

describe('caching, rate limit and CORS of the checks', () => {
  it('answers with a short Cache-Control and an ETag, and 304 to a matching If-None-Match', async () => {
    const first = await get('/api/check-certificate-company/QMS+2024+001');
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    for (const header of [etag, etag.replace(/^W\//, ''), `"something-else", ${etag}`, '*']) {
      const again = await get('/api/check-certificate-company/qms%2F2024%2F001', { 'if-none-match': header });
      expect({ header, status: again.statusCode }).toEqual({ header, status: 304 });
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    const stale = await get('/api/check-certificate-company/QMS+2024+001', { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
    const training = await get('/api/check-certificate-training/TRN+HSE+2024+07');
    const trainingAgain = await get('/api/check-certificate-training/TRN+HSE+2024+07', {
      'if-none-match': String(training.headers.etag),
    });
    expect(trainingAgain.statusCode).toBe(304);
  });

  it('a different question (?on=) is a different answer with its own ETag', async () => {
    const plain = await get('/api/check-certificate-company/QMS+2024+001');
    const dated = await get(`/api/check-certificate-company/QMS+2024+001?on=${today}`, {
      'if-none-match': String(plain.headers.etag),
    });
    expect(dated.statusCode).toBe(200);
    expect(dated.headers.etag).not.toBe(plain.headers.etag);
  });

  it('limits each address to RATE_LIMIT_PUBLIC a minute (429), other addresses unaffected', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await get('/api/check-certificate-company/NOPE')).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 404)).toBe(true);
    const limited = await get('/api/check-certificate-company/NOPE');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'too-many-requests' });
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    address = '10.9.9.9';
    expect((await get('/api/check-certificate-company/NOPE')).statusCode).toBe(404);
  });

  it('is open to every origin on the two checks (GET and the preflight), and only there', async () => {
    for (const url of [
      '/api/check-certificate-company/QMS+2024+001',
      '/api/check-certificate-company/NOPE',
      '/api/check-certificate-training/TRN+HSE+2024+07',
    ]) {
      const res = await get(url, { origin: 'https://tender.example.org' });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/check-certificate-training/TRN+HSE+2024+07',
      remoteAddress: address,
      headers: {
        origin: 'https://tender.example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toMatch(/GET/);
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain(
      'if-none-match',
    );
    for (const url of ['/api/health', `/api/download-certificate/${ids.active}`]) {
      const res = await get(url, { origin: 'https://tender.example.org' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('documents both checks and the download under the public verification tag', async () => {
    const doc = (await get('/api/docs/json')).json();
    for (const p of [
      '/api/check-certificate-company/{number}',
      '/api/check-certificate-training/{number}',
      '/api/download-certificate/{id}',
    ]) {
      expect(doc.paths[p].get.tags).toEqual(['public verification']);
      expect(doc.paths[p].get.security).toEqual([]);
    }
  });
});

describe('GET /api/check-certificate-training/{number}', () => {
  it('answers exactly the public fields, by + or %2F, trimmed and ignoring case', async () => {
    for (const p of ['TRN+HSE+2024+07', 'trn%2Fhse%2F2024%2F07', '%20TRN+hse+2024+07%20%20']) {
      const res = await get(`/api/check-certificate-training/${p}`);
      expect({ p, status: res.statusCode }).toEqual({ p, status: 200 });
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual([...TRAINING_CHECK_KEYS].sort());
      expect(body).toEqual({
        name: 'Siti Nurhaliza',
        certificate_number: 'TRN/HSE/2024/07',
        training: 'Ahli K3 Umum',
        location: 'Bandung',
        date: '2024-07-15',
      });
      expectNoPrivate(res.body);
    }
  });

  it('answers unknown numbers 404 NOT FOUND, and takes no query parameters', async () => {
    const res = await get('/api/check-certificate-training/TRN+TIDAK+ADA');
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(NOT_FOUND_TEXT);
    expect((await get(`/api/check-certificate-training/TRN+HSE+2024+07?on=${today}`)).statusCode).toBe(422);
  });
});

describe('GET /api/download-certificate/{id}', () => {
  let staffToken: string;
  let noPermissionToken: string;
  let otherScopeToken: string;
  beforeAll(async () => {
    const certRole = await ctx.make.role('Petugas Sertifikat', ['company-certificate']);
    const plainRole = await ctx.make.role('Petugas Statistik', ['statistik']);
    staffToken = (await ctx.make.user({ username: 'petugas', roles_id: certRole, company_ids: [main.id] }))
      .token;
    noPermissionToken = (
      await ctx.make.user({ username: 'statistik', roles_id: plainRole, company_ids: 'ALL' })
    ).token;
    otherScopeToken = (await ctx.make.user({ username: 'lain', roles_id: certRole, company_ids: [other.id] }))
      .token;
  });
  const download = (id: string, token?: string) =>
    get(`/api/download-certificate/${id}`, token ? { authorization: `Bearer ${token}` } : {});

  /** The PDF's text as Debian's pdftotext reads it. */
  function pdfText(pdf: Buffer): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cert-pdf-'));
    const file = path.join(dir, 'c.pdf');
    fs.writeFileSync(file, pdf);
    try {
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;

  it('gives the public an A4 PDF of an ACTIVE certificate with its number, client, dates and images', async () => {
    const res = await download(ids.active);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="CERT. NO. QMS_2024_001 PT Maju Bersama Sejahtera.pdf"; ` +
        `filename*=UTF-8''CERT.%20NO.%20QMS_2024_001%20PT%20Maju%20Bersama%20Sejahtera.pdf`,
    );
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.toString('latin1')).toMatch(/\/MediaBox \[0 0 595\.2\d* 841\.8\d*\]/);
    if (!hasPdftotext) throw new Error('pdftotext is missing: apt-get install -y poppler-utils');
    const text = pdfText(res.rawPayload).replace(/\s+/g, ' ');
    const issue = addDays(today, -30);
    const months = [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ];
    const long = (d: string) => `${d.slice(8)} ${months[Number(d.slice(5, 7)) - 1]} ${d.slice(0, 4)}`;
    expect(text).toContain('QMS/2024/001');
    expect(text).toContain('PT Maju Bersama Sejahtera');
    expect(text).toContain('ISO 9001:2015 Sistem Manajemen Mutu');
    expect(text).toContain('Produksi dan distribusi makanan ringan');
    expect(text).toContain('KAN (Komite Akreditasi Nasional)');
    expect(text).toContain('Kode EA / EA Code: EA 03');
    expect(text).toContain(`Original Issue Date ${long(issue)}`);
    expect(text).toContain(`Expiry Date ${long(addValidity(issue, 3, 'YEAR'))}`);
    expect(text.replace(/\s+/g, '')).toContain(
      'https://sertifikat.contoh.id/check-certification-company?cert=QMS%2F2024%2F001',
    );
    // logo_cert, ttd_cert, the accreditation body's mark and the QR code.
    const list = spawnSync('pdfimages', ['-list', '-'], { input: res.rawPayload, encoding: 'utf8' });
    if (!list.error) {
      const kinds = list.stdout
        .trim()
        .split('\n')
        .slice(2)
        .map((line) => line.trim().split(/\s+/)[2]);
      expect(kinds.filter((k) => k === 'image')).toHaveLength(4);
    }
  });

  it('lays out Indonesian text and a very long scope on one page, with the simple_dates rows', async () => {
    const c = await company('PT Skema Panjang', { public_certificate_download: true, simple_dates: true });
    const longScope = Array.from(
      { length: 60 },
      (_, i) => `Jasa konstruksi gedung bertingkat tahap ${i + 1}`,
    ).join(', ');
    const client = await ctx.make.client(c.id, 'CV Karya Señor Ñusantara', { scope: longScope });
    const s = await scheme({ ...c, client }, { number: 'LONG\\2024/9', status: 'ACTIVE' });
    const res = await download(s.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="CERT. NO. LONG_2024_9 CV Karya Se_or _usantara.pdf"; ` +
        `filename*=UTF-8''CERT.%20NO.%20LONG_2024_9%20CV%20Karya%20Se%C3%B1or%20%C3%91usantara.pdf`,
    );
    const text = pdfText(res.rawPayload);
    expect(text).toContain('CV Karya Señor Ñusantara');
    expect(text).toContain('tahap 1,');
    expect(text).toMatch(/Latest Issue Date/);
    expect(text).toMatch(/Expiry Date/);
    expect(text).not.toMatch(/Next Surveillance/);
    expect(text).not.toMatch(/Original Issue Date/);
    expect(text.split('\f').filter((page) => page.trim()).length).toBe(1);
  });

  it('refuses the public what is not downloadable: 403 when checkable, 404 when not', async () => {
    expect((await download(ids.suspended)).statusCode).toBe(403);
    expect((await download(ids.expired)).statusCode).toBe(403);
    expect((await download(ids.simple)).statusCode).toBe(403); // the company allows no downloads
    expect((await download(ids.draft)).statusCode).toBe(404);
    expect((await download(newId())).statusCode).toBe(404);
    expect((await download('not-a-uuid')).statusCode).toBe(404);
  });

  it('lets staff with company-certificate and the scheme in scope always download', async () => {
    for (const id of [ids.suspended, ids.expired, ids.draft, ids.withdrawn]) {
      const res = await download(id, staffToken);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
    }
    expect((await download(ids.simple, ctx.adminToken)).statusCode).toBe(200);
  });

  it('treats staff without the permission or the scope as the public', async () => {
    expect((await download(ids.suspended, noPermissionToken)).statusCode).toBe(403);
    expect((await download(ids.draft, noPermissionToken)).statusCode).toBe(404);
    expect((await download(ids.suspended, otherScopeToken)).statusCode).toBe(403);
    expect((await download(ids.draft, otherScopeToken)).statusCode).toBe(404);
    expect((await download(ids.active, otherScopeToken)).statusCode).toBe(200);
  });

  it('answers 401 to an ended session asking for what the public may not have', async () => {
    const stale = 'x'.repeat(43);
    expect((await download(ids.suspended, stale)).statusCode).toBe(401);
    expect((await download(ids.active, stale)).statusCode).toBe(200);
  });
});
