import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { accreditationBodies } from '../../db/schema';
import { call, useTestContext } from '../../../test/helpers';
import { schemeBody } from '../../../test/forms';

// What the certificate PDF shows (docs/rules.md#register-data), read back from the PDF the download
// route sends with poppler's pdftotext, pdfimages and pdftoppm.
const ctx = useTestContext({ PUBLIC_BASE_URL: 'https://sertifikat.contoh.id' });
const URL = '/api/company-certificate-scheme';

const png = (color: string, width = 120, height = 60) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

let company: string;
let type: string;
let body: string;
let client: string;
const sites: string[] = [];

beforeAll(async () => {
  const { make } = ctx;
  company = await make.company('PT Sertifikasi Prima Mandiri', {
    address: 'Gedung Prima Lt. 5, Jl. Jend. Sudirman Kav. 1, Jakarta Selatan 12190',
    logo_cert_file: await png('navy'),
    ttd_cert_file: await png('black', 160, 50),
  });
  type = await make.certificationType(company, 'ISO 9001:2015 Sistem Manajemen Mutu', {
    category: 'ISO',
    code: 'QMS',
  });
  body = await make.accreditationBody(company, 'Komite Akreditasi Nasional');
  await ctx.database.db
    .update(accreditationBodies)
    .set({ acronym: 'KAN' })
    .where(eq(accreditationBodies.id, body));
  client = await make.client(company, 'PT Beton Nusantara', {
    address: 'Jl. Industri Raya No. 7',
    city: 'Kota Bekasi',
    province: 'Jawa Barat',
    postcode: '17530',
    country: 'ID',
    scope: 'Lingkup dari data klien',
  });
  for (let i = 1; i <= 12; i++) {
    sites.push(
      await make.site(client, `Pabrik Nomor ${i}`, {
        address: `Jl. Kawasan Industri Blok ${i}`,
        city: i === 12 ? 'Johor Bahru' : 'Karawang',
        province: i === 12 ? 'Johor' : 'Jawa Barat',
        postcode: `413${String(i).padStart(2, '0')}`,
        country: i === 12 ? 'MY' : 'ID',
      }),
    );
  }
});

async function scheme(over: Record<string, unknown>): Promise<{ id: string; revision: number }> {
  const res = await call(ctx.app, ctx.adminToken, 'POST', URL, schemeBody(client, type, over));
  if (res.statusCode !== 201) throw new Error(`scheme: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The PDF of a scheme as staff download it, with its text per page and its images. */
async function certificate(id: string) {
  const res = await call(ctx.app, ctx.adminToken, 'GET', `/api/download-certificate/${id}`);
  expect(res.statusCode).toBe(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cert-pdf-'));
  try {
    const file = path.join(dir, 'c.pdf');
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    const pages = text.split('\f').filter((page) => page.trim());
    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2)
      .filter((line) => line.trim().split(/\s+/)[2] === 'image');
    const bbox = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    // Every page renders (what a viewer shows).
    execFileSync('pdftoppm', ['-png', '-r', '60', file, path.join(dir, 'page')]);
    const rendered = fs.readdirSync(dir).filter((f) => f.endsWith('.png'));
    return { pages, flat: pages.map((p) => p.replace(/\s+/g, ' ')), images, bbox, rendered };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Words of one page that overlap another, or lie outside the inner frame: what a reader would see
 * as text drawn over text, or cut off.
 */
function layoutFaults(bbox: string): string[] {
  const faults: string[] = [];
  for (const page of bbox.split('<page ').slice(1)) {
    const words = [
      ...page.matchAll(/xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</g),
    ].map((m) => ({ x0: +m[1]!, y0: +m[2]!, x1: +m[3]!, y1: +m[4]!, word: m[5]! }));
    for (const [i, a] of words.entries()) {
      if (a.x0 < 31 || a.y0 < 31 || a.x1 > 595.28 - 31 || a.y1 > 841.89 - 31)
        faults.push(`outside: ${a.word}`);
      for (const b of words.slice(i + 1)) {
        const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
        const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
        if (dx > 0.5 && dy > 1) faults.push(`${a.word} / ${b.word}`);
      }
    }
  }
  return faults;
}

const hasPoppler = spawnSync('pdftotext', ['-v']).error === undefined;

beforeAll(() => {
  if (!hasPoppler) throw new Error('poppler-utils is missing: apt-get install -y poppler-utils');
});

describe('the certificate PDF (ISO/IEC 17021-1 8.2.2)', () => {
  it('shows the client, address, site, scope, standard, sectors, dates, revision, both bodies and the QR on one page', async () => {
    const over = {
      cert_number: 'QMS/2025/777',
      issue_date: '2024-03-01',
      original_issue_date: '2018-03-01',
      issue_date2: '2025-06-15',
      is_accredited: 'true',
      accredited_id: body,
      scope: 'Produksi beton pracetak dan beton siap pakai',
      sector_codes: [28, 33],
      sites: [{ site_id: sites[0], scope: 'Penyimpanan beton pracetak' }],
    };
    const made = await scheme(over);
    // A save that changes what the certificate shows: revision 1.
    const res = await call(ctx.app, ctx.adminToken, 'PUT', `${URL}/${made.id}`, {
      ...schemeBody(client, type, over),
      scope: 'Produksi dan pemasangan beton pracetak',
    });
    expect(res.json()).toMatchObject({ revision: 1 });

    const pdf = await certificate(made.id);
    expect(pdf.pages).toHaveLength(1);
    const text = pdf.flat[0] ?? '';
    expect(text).toContain('SERTIFIKAT');
    expect(text).toContain('PT Beton Nusantara');
    expect(text).toContain('Jl. Industri Raya No. 7, Kota Bekasi, Jawa Barat 17530, Indonesia');
    expect(text).toContain('Pabrik Nomor 1');
    expect(text).toContain('Jl. Kawasan Industri Blok 1, Karawang, Jawa Barat 41301, Indonesia');
    expect(text).toContain('Lingkup / Scope: Penyimpanan beton pracetak');
    expect(text).toContain('Produksi dan pemasangan beton pracetak');
    expect(text).not.toContain('Lingkup dari data klien');
    expect(text).toContain('ISO 9001:2015 Sistem Manajemen Mutu');
    expect(text).toContain('Kode Sektor IAF / IAF Sectors: IAF 28, 33');
    expect(text).toContain('28 Konstruksi / Construction');
    expect(text).toMatch(/Original Issue Date 01 March 2018/);
    expect(text).toMatch(/Latest Issue Date 15 June 2025/);
    expect(text).toMatch(/Expiry Date 01 March 2027/);
    expect(text).toContain('No. QMS/2025/777');
    expect(text).toContain('Revisi 1 / Revision 1: 15 June 2025');
    expect(text).toContain('Komite Akreditasi Nasional (KAN)');
    expect(text).toContain('PT Sertifikasi Prima Mandiri');
    expect(text).toContain('Jl. Jend. Sudirman Kav. 1');
    expect(text.replace(/\s+/g, '')).toContain(
      'https://sertifikat.contoh.id/check-certification-company?cert=QMS%2F2025%2F777',
    );
    // The body's mark (logo_cert), the signature, the accreditation mark and the QR.
    expect(pdf.images).toHaveLength(4);
    expect(pdf.rendered).toHaveLength(1);
    expect(layoutFaults(pdf.bbox)).toEqual([]);
  });

  it('lists many sites on a Lampiran, each with its scope or the scheme’s, and never overlaps', async () => {
    const made = await scheme({
      cert_number: 'QMS/2025/12',
      sector_codes: [],
      sites: sites.map((site_id, i) => ({
        site_id,
        scope:
          i % 2 ? null : `Lingkup khusus lokasi ${i + 1}: ${'perakitan komponen beton, '.repeat(6)}selesai`,
      })),
    });
    const pdf = await certificate(made.id);
    expect(pdf.pages.length).toBeGreaterThanOrEqual(2);
    expect(pdf.rendered).toHaveLength(pdf.pages.length);
    const [first, ...annex] = pdf.flat;
    expect(first).toContain('12 lokasi, lihat Lampiran / see Annex');
    expect(first).not.toContain('Pabrik Nomor');
    // No scheme scope: the client's stands, on the page and for the sites without their own.
    expect(first).toContain('Lingkup dari data klien');
    expect(first).not.toContain('Akreditasi');
    expect(first).toContain(`Halaman 1 dari ${pdf.pages.length}`);
    const rest = annex.join(' ');
    expect(annex[0]).toContain('LAMPIRAN');
    expect(annex[0]).toContain('Certificate No. QMS/2025/12 - Revisi 0');
    for (let i = 1; i <= 12; i++) expect(rest).toContain(`${i}. Pabrik Nomor ${i}`);
    expect(rest).toContain('Jl. Kawasan Industri Blok 12, Johor Bahru, Johor 41312, Malaysia');
    expect(rest).toContain('Lingkup khusus lokasi 1:');
    expect(rest).toContain('Lingkup / Scope: Lingkup dari data klien');
    // The body's mark, the signature and the QR; no accreditation mark.
    expect(pdf.images).toHaveLength(3);
    expect(layoutFaults(pdf.bbox)).toEqual([]);
  });

  it('keeps the first page whole with a very long scope, three long sites and long names', async () => {
    const made = await scheme({
      cert_number: 'QMS/2025/PANJANG',
      is_accredited: 'true',
      accredited_id: body,
      scope: Array.from({ length: 60 }, (_, i) => `Jasa konstruksi gedung bertingkat tahap ${i + 1}`).join(
        ', ',
      ),
      sector_codes: [1, 3, 12, 16, 17, 18, 19, 28, 29, 31, 33, 34, 35, 36, 37, 38, 39],
      sites: sites.slice(0, 3).map((site_id) => ({ site_id, scope: 'Gudang dan bengkel. '.repeat(30) })),
    });
    const pdf = await certificate(made.id);
    expect(pdf.flat[0]).toContain('tahap 1,');
    expect(pdf.flat[0]).toContain('IAF 1, 3, 12, 16, 17, 18, 19, 28, 29, 31, 33, 34, 35, 36, 37, 38, 39');
    // Three sites that take too much of the page go to the Lampiran.
    expect(pdf.flat[0]).toContain('3 lokasi, lihat Lampiran');
    expect(pdf.flat.slice(1).join(' ')).toContain('3. Pabrik Nomor 3');
    expect(layoutFaults(pdf.bbox)).toEqual([]);
  });

  it('keeps every field at its longest within the pages', async () => {
    const words = (word: string, length: number) => `${word} `.repeat(length).slice(0, length).trim();
    const longClient = await ctx.make.client(company, words('Nusantara', 200), {
      address: words('Jl. Raya Panjang Sekali\nBlok', 1000),
      city: words('Kota', 100),
      province: words('Provinsi', 100),
      postcode: '12345',
    });
    const site = await ctx.make.site(longClient, words('Lokasi', 200), { address: words('Jalan', 1000) });
    const res = await call(
      ctx.app,
      ctx.adminToken,
      'POST',
      URL,
      schemeBody(longClient, type, {
        cert_number: 'QMS/2025/TERPANJANG',
        is_accredited: 'true',
        accredited_id: body,
        scope: words('Lingkup', 3000),
        sector_codes: Array.from({ length: 39 }, (_, i) => i + 1),
        sites: [{ site_id: site, scope: words('Lingkup lokasi', 3000) }],
      }),
    );
    expect(res.statusCode).toBe(201);
    const pdf = await certificate(res.json<{ id: string }>().id);
    expect(pdf.flat[0]).toContain('Nusantara Nusantara');
    // The whole address, however long: the country at its end.
    expect(pdf.flat[0]).toContain('12345, Indonesia');
    expect(pdf.flat[0]).toContain('1 lokasi, lihat Lampiran');
    expect(pdf.flat.slice(1).join(' ')).toContain('1. Lokasi Lokasi');
    expect(layoutFaults(pdf.bbox)).toEqual([]);
  });
});
