// Long file: every rule of company images (formats, sizes, re-encoding, replacing, serving, limits) runs through the same upload helpers and generated pictures.
import { createHash, randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { companies, images } from '../../db/schema';
import { migrate } from '../../db/migrate';
import { STORED_MAX_SIDE } from '../../services/images';
import { ADMIN_PASSWORD, call, createTestContext, useTestContext, expect422 } from '../../../test/helpers';
import { type Fields, type FilePart, sendForm } from '../../../test/forms';

const ctx = useTestContext();

const NAME = /^[0-9a-f-]{36}\.(png|jpg)$/;

const postForm = (url: string, fields: Fields, token: string = ctx.adminToken, app = ctx.app) =>
  sendForm(app, token, url, fields);

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

  /** A new company's image `field` saved from the JPEG `upload`: as served (200), no larger than the upload. */
  async function storedNoLarger(field: 'logo' | 'logo_cert', name: string, upload: Buffer) {
    const res = await postForm('/api/company', {
      name,
      website: 'https://foto.co.id',
      [`${field}_file`]: jpegFile(upload),
    });
    expect(res.statusCode).toBe(201);
    const served = await getImage(res.json<Record<string, string>>()[field]!);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBeLessThanOrEqual(upload.length);
    return sharp(served.rawPayload).metadata();
  }

  it('re-encoding never grows a noisy JPEG, nor takes it past 2 MiB', async () => {
    // A low-quality noisy photo, as large as images are stored: re-encoded at quality 90 it came
    // out more than twice as large, past 2 MiB.
    const upload = await noise(STORED_MAX_SIDE, STORED_MAX_SIDE).jpeg({ quality: 40 }).toBuffer();
    expect(upload.length).toBeLessThan(2 * 1024 * 1024);
    expect(
      (await noise(STORED_MAX_SIDE, STORED_MAX_SIDE).jpeg({ quality: 90 }).toBuffer()).length,
    ).toBeGreaterThan(2 * 1024 * 1024);
    expect(await storedNoLarger('logo', 'PT Foto Berbintik', upload)).toMatchObject({
      format: 'jpeg',
      width: STORED_MAX_SIDE,
      height: STORED_MAX_SIDE,
      chromaSubsampling: '4:2:0',
    });
  });

  it('accepts a 4096 x 4096 noisy JPEG of 1.9 MB: stored at 2048 x 2048, no larger than the upload', async () => {
    // Within both limits. Re-encoded at 4096 x 4096 even quality 30 came out 2.35 MiB, past the
    // 2 MiB a stored image may have, and the upload used to be refused with 422.
    const upload = await noise(4096, 4096).jpeg({ quality: 14 }).toBuffer();
    expect(upload.length).toBeGreaterThan(1.8 * 1024 * 1024);
    expect(upload.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(await storedNoLarger('logo_cert', 'PT Foto Raksasa', upload)).toMatchObject({
      format: 'jpeg',
      width: STORED_MAX_SIDE,
      height: STORED_MAX_SIDE,
    });
  });

  it('stores a large image at most 2048 pixels on its longest side, upright, in proportion', async () => {
    // 4000 x 1000 stored sideways (EXIF orientation 6): upright it is 1000 x 4000.
    const sideways = await solid(4000, 1000, 'teal').jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const res = await postForm('/api/company', {
      name: 'PT Tanda Tangan Panjang',
      website: 'https://panjang.co.id',
      ttd_cert_file: jpegFile(sideways),
    });
    expect(res.statusCode).toBe(201);
    const meta = await sharp((await getImage(res.json().ttd_cert)).rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 2048 });
    expect(meta.orientation).toBeUndefined();
  });

  it('a PNG within the limits that no encoding keeps under 2 MiB at 2048 pixels is stored smaller, not refused', async () => {
    // Random black and white pixels: 1 bit each in the upload (1 MB); scaled to 2048 x 2048 they
    // turn into grey noise that no PNG encoding keeps under 2 MiB, so the pixel size steps down.
    const side = 2900;
    const pixels = Buffer.from(randomBytes(side * side).map((b) => (b & 1 ? 255 : 0)));
    const upload = await sharp(pixels, { raw: { width: side, height: side, channels: 1 } })
      .png({ palette: true, colours: 2, compressionLevel: 9 })
      .toBuffer();
    expect(upload.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    const res = await postForm('/api/company', {
      name: 'PT Pola Acak',
      website: 'https://acak.co.id',
      logo_file: pngFile(upload),
    });
    expect(res.statusCode).toBe(201);
    const served = await getImage(res.json().logo);
    expect(served.rawPayload.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(meta.height);
    expect(meta.width).toBeLessThan(STORED_MAX_SIDE);
  });

  it('a palette PNG stays a palette PNG: the same pixels, no larger', async () => {
    // 256 colours of noise: as a palette PNG one byte a pixel, as truecolour three.
    const upload = await noise(700, 700).png({ palette: true, colours: 256, dither: 0 }).toBuffer();
    const res = await postForm('/api/company', {
      name: 'PT Palet Warna',
      website: 'https://palet.co.id',
      logo_file: pngFile(upload),
    });
    expect(res.statusCode).toBe(201);
    const served = await getImage(res.json().logo);
    expect(served.rawPayload.length).toBeLessThanOrEqual(upload.length);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', isPalette: true });
    const pixels = (image: Buffer) => sharp(image).removeAlpha().raw().toBuffer();
    expect((await pixels(served.rawPayload)).equals(await pixels(upload))).toBe(true);
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

  it('accepts an image of exactly 4096 x 4096 pixels, stored at 2048 x 2048', async () => {
    const big = await solid(4096, 4096, 'white').png().toBuffer();
    const res = await postForm('/api/company', {
      name: 'PT Gambar Maksimal',
      website: 'https://maksimal.co.id',
      logo_cert_file: pngFile(big),
    });
    expect(res.statusCode).toBe(201);
    expect(await sharp((await getImage(res.json().logo_cert)).rawPayload).metadata()).toMatchObject({
      width: STORED_MAX_SIDE,
      height: STORED_MAX_SIDE,
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
    expect422.errors(unknown, { icon_file: 'Field tidak dikenal' });
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
    await ctx.make.company('PT Sudah Ada');
    const images0 = await imageCount();
    const res = await postForm('/api/company', {
      name: 'pt sudah ada',
      website: 'https://ada.co.id',
      logo_file: pngFile(png),
    });
    expect422.errors(res, { name: 'Nama perusahaan sudah digunakan' });
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
    expect422.errors(bad, {
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
    expect(etag).toBe(`"${createHash('sha256').update(res.rawPayload).digest('hex')}"`);
    const again = await getImage(name, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toMatch(/max-age=31536000/);
    expect((await getImage(name, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers 304 to the weak, list and * forms of If-None-Match', async () => {
    const etag = (await getImage(name)).headers.etag as string;
    for (const header of [`W/${etag}`, `"a", ${etag}`, `"a",W/${etag} , "b"`, '*', ` ${etag} `]) {
      const res = await getImage(name, { 'if-none-match': header });
      expect([header, res.statusCode]).toEqual([header, 304]);
    }
    for (const header of ['"a", "b"', `W/"x${etag.slice(1)}`, etag.slice(1, -1), '']) {
      const res = await getImage(name, { 'if-none-match': header });
      expect([header, res.statusCode]).toEqual([header, 200]);
      expect(res.rawPayload.length).toBeGreaterThan(0);
    }
    // A name that does not exist stays 404, whatever the client sends.
    const missing = await getImage('00000000-0000-4000-8000-000000000000.png', { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
  });

  it('answers 304 without reading the image bytes', async () => {
    const etag = (await getImage(name)).headers.etag as string;
    // Every SQL text the app sends, read at the driver (node-postgres) under drizzle.
    const client = (ctx.app.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const spy = jest.spyOn(client, 'query');
    const texts = () =>
      spy.mock.calls.map(([q]) => (typeof q === 'string' ? q : (q as { text: string }).text));
    try {
      const res = await getImage(name, { 'if-none-match': `W/${etag}` });
      expect(res.statusCode).toBe(304);
      const conditional = texts();
      expect(conditional.some((q) => q.includes('"etag"') && q.includes('"images"'))).toBe(true);
      expect(conditional.filter((q) => q.includes('"data"'))).toEqual([]);
      spy.mockClear();
      // The spy does see the bytes being read when they are sent.
      expect((await getImage(name)).statusCode).toBe(200);
      expect(texts().some((q) => q.includes('"data"'))).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('images stored before ETags were kept get theirs from the migration', async () => {
    const { db } = ctx.database;
    const [before] = await db.select().from(images).where(eq(images.name, name));
    // The state before migrations 0004 and 0005: the column exists, with no value in it.
    await ctx.database.exec(
      `alter table images alter column etag drop not null;
       update images set etag = null where name = '${name}';
       delete from _migrations where name in ('0004_image_etag_fill', '0005_image_etag_required')`,
    );
    expect(await migrate(ctx.database)).toEqual(['0004_image_etag_fill', '0005_image_etag_required']);
    const [after] = await db.select().from(images).where(eq(images.name, name));
    expect(after!.etag).toBe(before!.etag);
    expect(after!.etag).toBe(createHash('sha256').update(after!.data).digest('hex'));
    expect((await getImage(name, { 'if-none-match': `"${after!.etag}"` })).statusCode).toBe(304);
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

describe('the per-address limit of /images/<name>', () => {
  it('answers 429 {code, message} past RATE_LIMIT_PUBLIC requests a minute from one address', async () => {
    const limited = await createTestContext({ RATE_LIMIT_PUBLIC: '3' });
    try {
      const created = await postForm(
        '/api/company',
        { name: 'PT Batas Gambar', website: 'https://batas.co.id', logo_file: pngFile(png) },
        limited.adminToken,
        limited.app,
      );
      const url = `/images/${created.json().logo}`;
      const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
        limited.app.inject({ method: 'GET', url, remoteAddress, headers });
      const first = await get('10.1.1.1');
      expect(first.statusCode).toBe(200);
      // Answers that read nothing count too.
      expect((await get('10.1.1.1', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
      expect((await get('10.1.1.1')).statusCode).toBe(200);
      const over = await get('10.1.1.1');
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ code: 'too-many-requests', message: expect.any(String) });
      expect(over.headers['retry-after']).toBeDefined();
      // Another address has its own count.
      expect((await get('10.1.1.2')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('bounded image work', () => {
  it('re-encodes one image at a time with one libvips thread', () => {
    expect(sharp.concurrency()).toBe(1);
    expect(ctx.app.imageWork.limit).toBe(1);
  });

  it('an upload waits for the image slot while sign-in is still served', async () => {
    let release!: () => void;
    const held = ctx.app.imageWork.run(() => new Promise<void>((resolve) => (release = resolve)));
    let answered = false;
    const upload = postForm('/api/company', {
      name: 'PT Antre Gambar',
      website: 'https://antre.co.id',
      logo_file: pngFile(png),
    }).then((res) => {
      answered = true;
      return res;
    });
    while (ctx.app.imageWork.waiting === 0) await new Promise((resolve) => setImmediate(resolve));
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'admin', password: ADMIN_PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    expect(answered).toBe(false);
    release();
    await held;
    const res = await upload;
    expect(res.statusCode).toBe(201);
    expect((await getImage(res.json().logo)).statusCode).toBe(200);
  });
});
