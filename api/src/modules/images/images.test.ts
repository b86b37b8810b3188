import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { companies, images } from '../../db/schema';
import { call, createCompany, createTestContext, type TestContext } from '../../../test/helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

const NAME = /^[0-9a-f-]{36}\.(png|jpg)$/;

interface FilePart {
  data: Buffer;
  filename: string;
  type: string;
}
type Fields = Record<string, string | FilePart>;

/** A multipart/form-data body for app.inject, built the way a browser builds it. */
async function formBody(fields: Fields): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else form.append(key, new Blob([value.data], { type: value.type }), value.filename);
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

async function postForm(url: string, fields: Fields, token: string = ctx.adminToken) {
  const { payload, headers } = await formBody(fields);
  return ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

const file = (data: Buffer, filename: string, type: string): FilePart => ({ data, filename, type });
const pngFile = (data: Buffer, filename = 'logo.png') => file(data, filename, 'image/png');
const jpegFile = (data: Buffer, filename = 'logo.jpg') => file(data, filename, 'image/jpeg');

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });
/** Incompressible pixels, so encoded sizes are predictable. */
const noise = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

const imageCount = async () => (await ctx.database.db.select({ n: count() }).from(images))[0]!.n;
const companyCount = async () => (await ctx.database.db.select({ n: count() }).from(companies))[0]!.n;
const companyRow = async (id: string) =>
  (await ctx.database.db.select().from(companies).where(eq(companies.id, id)))[0]!;
const getImage = (name: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `/images/${name}`, headers });

let png: Buffer;
let jpeg: Buffer;
beforeAll(async () => {
  png = await solid(40, 30, 'red').png().toBuffer();
  jpeg = await solid(50, 20, 'blue').jpeg().toBuffer();
});

describe('uploading company images', () => {
  it('stores a PNG and a JPEG and serves them at /images/<name>', async () => {
    const before = await imageCount();
    const res = await postForm('/api/company', {
      name: 'PT Gambar Lengkap',
      website: 'https://gambar.co.id',
      logo_file: pngFile(png),
      ttd_cert_file: jpegFile(jpeg, 'ttd.jpeg'),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.logo).toMatch(NAME);
    expect(body.logo).toMatch(/\.png$/);
    expect(body.ttd_cert).toMatch(/\.jpg$/);
    expect(body.logo_cert).toBeNull();
    expect(await imageCount()).toBe(before + 2);

    const logo = await getImage(body.logo);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(logo.headers['cache-control']).toMatch(/public/);
    const logoMeta = await sharp(logo.rawPayload).metadata();
    expect(logoMeta).toMatchObject({ format: 'png', width: 40, height: 30 });

    expect(logo.headers['content-security-policy']).toBe("default-src 'none'");
    const [row] = await ctx.database.db.select().from(images).where(eq(images.name, body.logo));
    expect(row).toMatchObject({
      content_type: 'image/png',
      width: 40,
      height: 30,
      size: logo.rawPayload.length,
    });

    const ttd = await getImage(body.ttd_cert);
    expect(ttd.statusCode).toBe(200);
    expect(ttd.headers['content-type']).toBe('image/jpeg');
    expect(ttd.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(ttd.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 50, height: 20 });
  });

  it('recognises the type by the bytes, not by the name or the declared type', async () => {
    const res = await postForm('/api/company', {
      name: 'PT Nama Menipu',
      website: 'https://menipu.co.id',
      logo_file: file(jpeg, 'logo.png', 'image/png'),
    });
    expect(res.statusCode).toBe(201);
    const name = res.json().logo as string;
    expect(name).toMatch(/\.jpg$/);
    expect((await getImage(name)).headers['content-type']).toBe('image/jpeg');
  });

  it('re-encodes: EXIF metadata of a JPEG is dropped', async () => {
    const withExif = await solid(32, 32, 'green')
      .jpeg()
      .withExif({ IFD0: { Copyright: 'RAHASIA-EXIF-PENANDA', Artist: 'Penguji' } })
      .toBuffer();
    expect(withExif.includes('RAHASIA-EXIF-PENANDA')).toBe(true);
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const res = await postForm('/api/company', {
      name: 'PT Exif',
      website: 'https://exif.co.id',
      logo_file: jpegFile(withExif),
    });
    expect(res.statusCode).toBe(201);
    const served = await getImage(res.json().logo);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.includes('RAHASIA-EXIF-PENANDA')).toBe(false);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta).toMatchObject({ format: 'jpeg', width: 32, height: 32 });
  });

  it('re-encodes: a JPEG is turned upright by its EXIF orientation before the EXIF goes', async () => {
    const sideways = await solid(50, 20, 'purple').jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const res = await postForm('/api/company', {
      name: 'PT Miring',
      website: 'https://miring.co.id',
      logo_file: jpegFile(sideways),
    });
    expect(res.statusCode).toBe(201);
    const meta = await sharp((await getImage(res.json().logo)).rawPayload).metadata();
    expect(meta).toMatchObject({ width: 20, height: 50 });
    expect(meta.orientation).toBeUndefined();
  });

  it('re-encodes: bytes appended after the PNG end are dropped', async () => {
    const appended = Buffer.concat([png, Buffer.from('<script>alert("TAMBAHAN-SETELAH-IEND")</script>')]);
    const res = await postForm('/api/company', {
      name: 'PT Polyglot',
      website: 'https://polyglot.co.id',
      logo_file: pngFile(appended),
    });
    expect(res.statusCode).toBe(201);
    const served = await getImage(res.json().logo);
    expect(served.rawPayload.includes('TAMBAHAN-SETELAH-IEND')).toBe(false);
    expect(served.rawPayload.subarray(-8).toString('latin1')).toBe('IEND\xaeB`\x82');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 40, height: 30 });
  });

  it('ignores an empty file part, as a browser sends for an unpicked file input', async () => {
    const before = await imageCount();
    const res = await postForm('/api/company', {
      name: 'PT Tanpa Gambar',
      website: 'https://tanpa.co.id',
      logo_file: file(Buffer.alloc(0), '', 'application/octet-stream'),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().logo).toBeNull();
    expect(await imageCount()).toBe(before);
  });

  describe('refuses anything but a sane JPEG or PNG with 422, storing nothing', () => {
    const cases: [string, () => Promise<FilePart>, string][] = [
      [
        'a GIF',
        async () => file(await solid(8, 8, 'red').gif().toBuffer(), 'logo.gif', 'image/gif'),
        'Logo harus berupa gambar JPEG atau PNG',
      ],
      [
        'an SVG',
        async () =>
          file(
            Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>1</script></svg>',
            ),
            'logo.svg',
            'image/svg+xml',
          ),
        'Logo harus berupa gambar JPEG atau PNG',
      ],
      [
        'an SVG named and declared as PNG',
        async () => pngFile(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')),
        'Logo harus berupa gambar JPEG atau PNG',
      ],
      [
        'a text file named .png',
        async () => pngFile(Buffer.from('ini bukan gambar sama sekali\n')),
        'Logo harus berupa gambar JPEG atau PNG',
      ],
      [
        'a truncated PNG',
        async () => {
          const whole = await noise(120, 120).png().toBuffer();
          return pngFile(whole.subarray(0, whole.length >> 1));
        },
        'Logo rusak atau tidak dapat dibaca',
      ],
      [
        'a PNG with only its signature',
        async () => pngFile(png.subarray(0, 8)),
        'Logo rusak atau tidak dapat dibaca',
      ],
      [
        'a PNG with corrupted data',
        async () => {
          const bad = Buffer.from(await noise(120, 120).png().toBuffer());
          bad.fill(0x41, 100, 2000);
          return pngFile(bad);
        },
        'Logo rusak atau tidak dapat dibaca',
      ],
      [
        'a truncated JPEG',
        async () => {
          const whole = await noise(120, 120).jpeg().toBuffer();
          return jpegFile(whole.subarray(0, whole.length >> 1));
        },
        'Logo rusak atau tidak dapat dibaca',
      ],
      [
        'a PNG wider than 4096 pixels',
        async () => pngFile(await solid(4097, 2, 'white').png().toBuffer()),
        'Logo maksimal 4096 x 4096 piksel',
      ],
      [
        'a PNG of 4097 x 4097 pixels',
        async () => pngFile(await solid(4097, 4097, 'white').png().toBuffer()),
        'Logo maksimal 4096 x 4096 piksel',
      ],
      [
        'a JPEG taller than 4096 pixels',
        async () => jpegFile(await solid(2, 5000, 'white').jpeg().toBuffer()),
        'Logo maksimal 4096 x 4096 piksel',
      ],
    ];

    it.each(cases)('%s', async (_label, make, message) => {
      const images0 = await imageCount();
      const companies0 = await companyCount();
      const res = await postForm('/api/company', {
        name: 'PT Gambar Ditolak',
        website: 'https://ditolak.co.id',
        logo_file: await make(),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ code: 'validation', message, errors: { logo_file: message } });
      expect(await imageCount()).toBe(images0);
      expect(await companyCount()).toBe(companies0);
    });
  });

  it('accepts an image of exactly 4096 x 4096 pixels', async () => {
    const big = await solid(4096, 4096, 'white').png().toBuffer();
    const res = await postForm('/api/company', {
      name: 'PT Gambar Maksimal',
      website: 'https://maksimal.co.id',
      logo_cert_file: pngFile(big),
    });
    expect(res.statusCode).toBe(201);
    expect(await sharp((await getImage(res.json().logo_cert)).rawPayload).metadata()).toMatchObject({
      width: 4096,
      height: 4096,
    });
  });

  it('answers 413 past 2 MiB and stores nothing', async () => {
    const huge = await noise(900, 900).png({ compressionLevel: 0 }).toBuffer();
    expect(huge.length).toBeGreaterThan(2 * 1024 * 1024);
    const images0 = await imageCount();
    const companies0 = await companyCount();
    const res = await postForm('/api/company', {
      name: 'PT Terlalu Besar',
      website: 'https://besar.co.id',
      logo_file: pngFile(huge),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'too-large', message: expect.any(String) });
    // A small image padded past the limit is refused alike.
    const padded = await postForm('/api/company', {
      name: 'PT Terlalu Besar',
      website: 'https://besar.co.id',
      ttd_cert_file: pngFile(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 + 1 - png.length)])),
    });
    expect(padded.statusCode).toBe(413);
    expect(await imageCount()).toBe(images0);
    expect(await companyCount()).toBe(companies0);
  });

  it('refuses a file sent in JSON or an unknown file field with 422', async () => {
    const companies0 = await companyCount();
    const images0 = await imageCount();
    const json = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Base64',
      website: 'https://base64.co.id',
      logo_file: png.toString('base64'),
    });
    expect(json.statusCode).toBe(422);
    expect(json.json().errors).toHaveProperty('logo_file');
    const jsonObject = await call(ctx.app, ctx.adminToken, 'POST', '/api/company', {
      name: 'PT Base64',
      website: 'https://base64.co.id',
      logo_file: { type: 'Buffer', data: [...png] },
    });
    expect(jsonObject.statusCode).toBe(422);
    expect(jsonObject.json().errors).toHaveProperty('logo_file');
    const unknown = await postForm('/api/company', {
      name: 'PT Field Asing',
      website: 'https://asing.co.id',
      icon_file: pngFile(png),
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ icon_file: 'Field tidak dikenal' });
    const fileAsName = await postForm('/api/company', {
      name: 'PT Nama Berkas',
      website: 'https://berkas.co.id',
      logo: pngFile(png),
    });
    expect(fileAsName.statusCode).toBe(422);
    expect(fileAsName.json().errors).toHaveProperty('logo');
    expect(await companyCount()).toBe(companies0);
    expect(await imageCount()).toBe(images0);
  });

  it('refuses an image name on create that the API never gave, storing nothing', async () => {
    const companies0 = await companyCount();
    const res = await postForm('/api/company', {
      name: 'PT Nama Gambar Asing',
      website: 'https://asing.co.id',
      logo: '00000000-0000-4000-8000-000000000000.png',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('logo');
    expect(await companyCount()).toBe(companies0);
  });

  it('stores no image when the company itself is refused', async () => {
    await createCompany(ctx.app, ctx.adminToken, 'PT Sudah Ada');
    const images0 = await imageCount();
    const res = await postForm('/api/company', {
      name: 'pt sudah ada',
      website: 'https://ada.co.id',
      logo_file: pngFile(png),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: 'Nama perusahaan sudah digunakan' });
    const invalid = await postForm('/api/company', {
      name: 'PT Website Salah',
      website: 'bukan-url',
      logo_file: pngFile(png),
    });
    expect(invalid.statusCode).toBe(422);
    expect(await imageCount()).toBe(images0);
  });
});

describe('changing company images', () => {
  let id: string;
  let logo: string;
  let logoCert: string;
  const update = (fields: Fields) =>
    postForm(`/api/company/${id}`, {
      _method: 'PUT',
      name: 'PT Ganti Gambar',
      website: 'https://ganti.co.id',
      ...fields,
    });

  beforeAll(async () => {
    const res = await postForm('/api/company', {
      name: 'PT Ganti Gambar',
      website: 'https://ganti.co.id',
      logo_file: pngFile(png),
      logo_cert_file: jpegFile(jpeg),
    });
    expect(res.statusCode).toBe(201);
    id = res.json().id;
    logo = res.json().logo;
    logoCert = res.json().logo_cert;
  });

  it('keeps the images when their names are absent or unchanged', async () => {
    const absent = await update({});
    expect(absent.statusCode).toBe(200);
    expect(absent.json()).toMatchObject({ logo, logo_cert: logoCert, ttd_cert: null });
    const same = await update({ logo, logo_cert: logoCert, ttd_cert: '' });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ logo, logo_cert: logoCert, ttd_cert: null });
    const json = await call(ctx.app, ctx.adminToken, 'PUT', `/api/company/${id}`, {
      name: 'PT Ganti Gambar',
      website: 'https://ganti.co.id',
      logo,
    });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ logo, logo_cert: logoCert });
    expect((await getImage(logo)).statusCode).toBe(200);
    expect((await getImage(logoCert)).statusCode).toBe(200);
  });

  it('replaces an image: the old one is deleted and its URL answers 404', async () => {
    const images0 = await imageCount();
    const newPng = await solid(12, 12, 'yellow').png().toBuffer();
    const res = await update({ logo, logo_file: pngFile(newPng) });
    expect(res.statusCode).toBe(200);
    const next = res.json().logo as string;
    expect(next).toMatch(NAME);
    expect(next).not.toBe(logo);
    expect(res.json().logo_cert).toBe(logoCert);
    const old = await getImage(logo);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ code: 'not-found', message: 'Data tidak ditemukan' });
    expect(await sharp((await getImage(next)).rawPayload).metadata()).toMatchObject({
      width: 12,
      height: 12,
    });
    expect(await imageCount()).toBe(images0);
    expect((await ctx.database.db.select().from(images).where(eq(images.name, logo))).length).toBe(0);
    logo = next;
  });

  it('removes an image when its name is sent empty', async () => {
    const images0 = await imageCount();
    const res = await update({ logo: '', logo_cert: logoCert });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ logo: null, logo_cert: logoCert });
    expect((await getImage(logo)).statusCode).toBe(404);
    expect(await imageCount()).toBe(images0 - 1);
    expect((await companyRow(id)).logo).toBeNull();
  });

  it('refuses an unknown image name with 422 and changes nothing', async () => {
    const before = await companyRow(id);
    const images0 = await imageCount();
    for (const name of ['00000000-0000-4000-8000-000000000000.png', '../../etc/passwd', 'logo.png']) {
      const res = await update({ logo_cert: name, phone: '0999' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toHaveProperty('logo_cert');
    }
    // Another company's image is not this company's to take.
    const other = await postForm('/api/company', {
      name: 'PT Pemilik Lain',
      website: 'https://lain.co.id',
      logo_file: pngFile(png),
    });
    const foreign = await update({ logo: other.json().logo });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toHaveProperty('logo');
    expect(await companyRow(id)).toEqual(before);
    expect(await imageCount()).toBe(images0 + 1);
  });

  it('a refused upload leaves the company and its images unchanged', async () => {
    const before = await companyRow(id);
    const images0 = await imageCount();
    const bad = await update({
      logo_file: pngFile(png),
      ttd_cert_file: file(Buffer.from('GIF89a....'), 'ttd.png', 'image/png'),
      phone: '0888',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      ttd_cert_file: 'Tanda Tangan Sertifikat harus berupa gambar JPEG atau PNG',
    });
    // A good upload refused for another field (checked inside the write) is rolled back too.
    const rolledBack = await update({ logo_file: pngFile(png), logo_cert: 'bukan-nama-gambar.png' });
    expect(rolledBack.statusCode).toBe(422);
    expect(rolledBack.json().errors).toHaveProperty('logo_cert');
    const tooBig = await update({
      logo_cert_file: pngFile(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)])),
    });
    expect(tooBig.statusCode).toBe(413);
    const badName = await update({ name: '', logo_file: pngFile(png) });
    expect(badName.statusCode).toBe(422);
    expect(await companyRow(id)).toEqual(before);
    expect(await imageCount()).toBe(images0);
    expect((await getImage(logoCert)).statusCode).toBe(200);
  });

  it('deleting the company deletes its images', async () => {
    const res = await postForm('/api/company', {
      name: 'PT Hapus Bergambar',
      website: 'https://hapus.co.id',
      logo_file: pngFile(png),
      ttd_cert_file: jpegFile(jpeg),
    });
    const { id: doomed, logo: l, ttd_cert: t } = res.json();
    const images0 = await imageCount();
    const del = await call(ctx.app, ctx.adminToken, 'DELETE', `/api/company/${doomed}`);
    expect(del.json()).toEqual({ success: true, message: 'Berhasil menghapus data' });
    expect((await getImage(l)).statusCode).toBe(404);
    expect((await getImage(t)).statusCode).toBe(404);
    expect(await imageCount()).toBe(images0 - 2);
  });
});

describe('GET /images/<name>', () => {
  let name: string;
  beforeAll(async () => {
    const res = await postForm('/api/company', {
      name: 'PT Sajian Gambar',
      website: 'https://sajian.co.id',
      logo_file: pngFile(png),
    });
    name = res.json().logo;
  });

  it('is public, with an ETag that answers 304 when unchanged', async () => {
    const res = await getImage(name);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await getImage(name, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect((await getImage(name, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await ctx.app.inject({ method: 'HEAD', url: `/images/${name}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 404 {code, message} for unknown or malformed names', async () => {
    for (const bad of [
      '00000000-0000-4000-8000-000000000000.png',
      name.replace(/\.png$/, '.jpg'),
      name.toUpperCase(),
      'logo.svg',
      '..%2F..%2Fpackage.json',
    ]) {
      const res = await getImage(bad);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'not-found', message: 'Data tidak ditemukan' });
    }
  });
});
