// Long file: signed certificates end to end: keys, both credential routes and the QR codes they sign are checked against one set of signed schemes and trainings built once.
/**
 * Signed certificates (docs/rules.md#signed-certificates), checked the way a third party would:
 * signatures verified with Node's crypto.verify against the published JWK (test/signed.ts), QR
 * codes decoded with zbarimg from the PNG (also at the 150 px it is shown at) and from the PDF.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import {
  certificationTypeInputSchema,
  clientCertificateInputSchema,
  schemeInputSchema,
  trainingCertificateInputSchema,
} from '@sertifikasi/shared-contracts';
import { canonicalText, type Jwks, type SignedFields } from '@sertifikasi/shared-contracts/credential';
import { NOT_FOUND_TEXT } from '@sertifikasi/shared-contracts/public';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { signingKeys, schemes } from '../../db/schema';
import type { ServiceContext } from '../../services/context';
import { rotateKey } from '../../services/signing';
import { useTestContext, capturedLogger } from '../../../test/helpers';
import { schemeBody } from '../../../test/forms';
import { decodeQr, publishedJwks, vcVerdict, verifiedQrUrl, verifiesWith } from '../../../test/signed';
import { certificationTypeService } from '../certification-types/certification-types.service';
import { clientCertificateService } from '../client-certificates/client-certificates.service';
import { schemeService } from '../schemes/schemes.service';
import { trainingCertificateService } from '../training-certificates/training-certificates.service';

const BASE = 'https://sertifikat.contoh.id';
const TZ = 'Asia/Jakarta';
const t = useTestContext({ TZ, PUBLIC_BASE_URL: BASE });
let company: string;
let typeId: string;
let bodyId: string;
let address = 0;

beforeAll(async () => {
  company = await t.make.company('PT Sertifikasi Nusantara', { public_certificate_download: 'true' });
  bodyId = await t.make.accreditationBody(company, 'KAN');
  typeId = await t.make.certificationType(company, 'ISO 9001:2015');
});

/** Each request from its own address: the public rate limit is not what these tests are about. */
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    headers,
    remoteAddress: `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`,
  });

/** A write through the services, as a form save, the import or the demo make it. */
const write = <T>(run: (ctx: ServiceContext) => Promise<T>) => t.make.write(run);

const clientInput = (name: string, number: string) =>
  clientCertificateInputSchema.validateSync({
    company_id: company,
    name,
    certificate_number: number,
    region: 'Jakarta',
    address: 'Jl. Rahasia No. 1',
    email: 'rahasia@klien.co.id',
  });
const schemeInput = (client: string, number: string, over: Record<string, unknown> = {}) =>
  schemeInputSchema.validateSync(
    schemeBody(client, typeId, {
      cert_number: number,
      is_accredited: 'true',
      accredited_id: bodyId,
      desc: 'catatan internal',
      ...over,
    }),
  );

/** A client with one scheme whose QR is made (Generate QR). */
async function signedScheme(name: string, number: string, over: Record<string, unknown> = {}) {
  const client = await write((ctx) =>
    clientCertificateService.create(ctx, clientInput(name, `KL-${number}`)),
  );
  const scheme = await write((ctx) => schemeService.create(ctx, schemeInput(client.id, number, over)));
  const withQr = await write((ctx) => schemeService.refreshQr(ctx, scheme.id));
  return { client, scheme: withQr };
}

const decodeJws = (jws: string) => {
  const [h, p, s] = jws.split('.') as [string, string, string];
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>,
    input: `${h}.${p}`,
    signature: s,
  };
};

const jwkOf = (jwks: Jwks, kid: string) => {
  const jwk = jwks.keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`kid ${kid} not published`);
  return jwk;
};

describe('keys', () => {
  it('publishes the signing key at /.well-known/jwks.json: OKP/Ed25519 with a kid, no private part, cacheable', async () => {
    const res = await get('/.well-known/jwks.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.etag).toMatch(/^W\/"/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const { keys } = res.json<Jwks>();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(key.kid).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(key.x, 'base64url')).toHaveLength(32);
    }
    // The private key is in the database (a backup holds it) and nowhere in the answer.
    const stored = await t.database.db.select().from(signingKeys);
    for (const row of stored) expect(res.body).not.toContain(row.private_key);
    expect(res.body).not.toMatch(/"d"/);
    expect((await get('/.well-known/jwks.json', { 'if-none-match': res.headers.etag! })).statusCode).toBe(
      304,
    );
  });
});

describe('GET /api/credential/company/{number}', () => {
  it('answers a VC 2.0 as a compact JWS (EdDSA, kid, vc+jwt) that Node verifies against the published JWK', async () => {
    const { scheme } = await signedScheme('PT Maju Jaya', 'QMS/2025/001');
    const res = await get('/api/credential/company/QMS+2025+001');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vc\+jwt/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.etag).toBeTruthy();
    const { header, payload, input, signature } = decodeJws(res.body);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'vc+jwt' });
    const jwks = await publishedJwks(t.app);
    expect(verifiesWith(jwkOf(jwks, header.kid as string), input, signature)).toBe(true);
    expect(payload).toEqual({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: `${BASE}/api/credential/company/QMS+2025+001`,
      type: ['VerifiableCredential', 'CertificationCredential'],
      issuer: { id: BASE, name: 'PT Sertifikasi Nusantara' },
      validFrom: '2025-01-10T00:00:00+07:00',
      validUntil: '2028-01-10T23:59:59+07:00',
      credentialSubject: {
        certificateNumber: 'QMS/2025/001',
        name: 'PT Maju Jaya',
        standard: 'ISO 9001:2015',
        scope: null,
        accreditation: 'KAN',
      },
      credentialStatus: {
        id: `${BASE}/api/check-certificate-company/QMS+2025+001`,
        type: 'PublicCertificateCheck',
      },
    });
    // No private field: not the address, e-mail, internal note, ids or the QR.
    const text = Buffer.from(res.body.split('.')[1]!, 'base64url').toString();
    for (const secret of ['Rahasia', 'rahasia@', 'catatan internal', scheme.id, company, 'qrcode', 'status"'])
      expect(text).not.toContain(secret);
    // Same path rules as the check: %2F, any case, trimmed.
    expect((await get('/api/credential/company/qms%2F2025%2F001')).body).toBe(res.body);
    expect(
      (await get(`/api/credential/company/QMS+2025+001`, { 'if-none-match': res.headers.etag! })).statusCode,
    ).toBe(304);
  });

  it('is tamper-evident: a changed payload or signature no longer verifies', async () => {
    await signedScheme('PT Tamper', 'QMS/2025/002');
    const res = await get('/api/credential/company/QMS+2025+002');
    const { header, payload, input, signature } = decodeJws(res.body);
    const jwk = jwkOf(await publishedJwks(t.app), header.kid as string);
    const forged = {
      ...payload,
      credentialSubject: { ...(payload.credentialSubject as object), name: 'PT Palsu' },
    };
    const forgedInput = `${input.split('.')[0]}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}`;
    expect(verifiesWith(jwk, forgedInput, signature)).toBe(false);
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expect(verifiesWith(jwk, input, flipped)).toBe(false);
  });

  it('never issues a DRAFT, nor an unknown number: 404 NOT FOUND like the check', async () => {
    await signedScheme('PT Draf', 'QMS/2025/003', { status: 'DRAFT' });
    for (const url of [
      '/api/credential/company/QMS+2025+003',
      '/api/credential/company/TIDAK-ADA',
      '/api/credential/training/TIDAK-ADA',
    ]) {
      const res = await get(url);
      expect([res.statusCode, res.body]).toEqual([404, NOT_FOUND_TEXT]);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
    }
  });
});

describe('GET /api/credential/training/{number}', () => {
  it('answers the training credential (training and location, validFrom, no expiry), verified with the JWK', async () => {
    const created = await write((ctx) =>
      trainingCertificateService.create(
        ctx,
        trainingCertificateInputSchema.validateSync({
          company_id: company,
          name: 'Budi Santoso',
          certificate_number: 'PLT/2025/010',
          training: 'Auditor Internal ISO 9001',
          location: 'Bandung',
          date: '2025-03-10',
          desc: 'nilai 91',
        }),
      ),
    );
    const res = await get('/api/credential/training/PLT+2025+010');
    expect(res.statusCode).toBe(200);
    const { header, payload, input, signature } = decodeJws(res.body);
    expect(verifiesWith(jwkOf(await publishedJwks(t.app), header.kid as string), input, signature)).toBe(
      true,
    );
    expect(payload).toMatchObject({
      type: ['VerifiableCredential', 'TrainingCredential'],
      issuer: { id: BASE, name: 'PT Sertifikasi Nusantara' },
      validFrom: '2025-03-10T00:00:00+07:00',
      credentialSubject: {
        certificateNumber: 'PLT/2025/010',
        name: 'Budi Santoso',
        training: 'Auditor Internal ISO 9001',
        location: 'Bandung',
      },
      credentialStatus: { id: `${BASE}/api/check-certificate-training/PLT+2025+010` },
    });
    expect(payload).not.toHaveProperty('validUntil');
    expect(Buffer.from(input.split('.')[1]!, 'base64url').toString()).not.toContain('nilai 91');
    // The training QR is signed over number|name|training|date| (empty expiry).
    expect(
      await verifiedQrUrl(t.app, created.qrcode!, {
        number: 'PLT/2025/010',
        name: 'Budi Santoso',
        standard: 'Auditor Internal ISO 9001',
        issue: '2025-03-10',
        expiry: '',
      }),
    ).toBe(`${BASE}/check-certification-training?cert=PLT%2F2025%2F010`);
  });
});

describe('signed QR codes', () => {
  const fieldsOf = (number: string, name: string, standard = 'ISO 9001:2015'): SignedFields => ({
    number,
    name,
    standard,
    issue: '2025-01-10',
    expiry: '2028-01-10',
  });

  it('carry &vc=<kid>.<signature> over number|name|standard|issue|expiry, and scan at 150 px', async () => {
    const { scheme } = await signedScheme('PT Sinar Terang', 'QMS/2025/020');
    const url = await verifiedQrUrl(t.app, scheme.qrcode!, fieldsOf('QMS/2025/020', 'PT Sinar Terang'));
    expect(url).toBe(`${BASE}/check-certification-company?cert=QMS%2F2025%2F020`);
    // A changed field does not verify (a look-alike page cannot reuse the signature for other data).
    const decoded = await decodeQr(scheme.qrcode!);
    expect((await vcVerdict(t.app, decoded, fieldsOf('QMS/2025/020', 'PT Sinar Terang Palsu'))).valid).toBe(
      false,
    );
    // As shown on screen: 150 px.
    const small = await sharp(Buffer.from(scheme.qrcode!, 'base64')).resize(150, 150).png().toBuffer();
    expect(await decodeQr(small.toString('base64'))).toBe(decoded);
  });

  it('are made again however a signed field changes: the scheme, the client name, the type name', async () => {
    const { client, scheme } = await signedScheme('PT Lama', 'QMS/2025/030');
    const qrOf = async () =>
      (await t.database.db.select().from(schemes).where(eq(schemes.id, scheme.id)))[0]!.qrcode!;
    const first = await decodeQr(await qrOf());
    /** The certification type saved from its own form under another name. */
    const renameType = (name: string) =>
      write((ctx) =>
        certificationTypeService.update(
          ctx,
          typeId,
          certificationTypeInputSchema.validateSync({
            company_id: company,
            name,
            category: 'Mutu',
            code: 'QMS',
            position: 1,
          }),
        ),
      );
    /** The scheme saved from its own form with `number`, issued on `issue`. */
    const redate = (number: string, issue: string) =>
      write((ctx) =>
        schemeService.update(ctx, scheme.id, schemeInput(client.id, number, { issue_date: issue })),
      );

    // Client renamed (from the client's own form): its scheme's QR signs the new name.
    await write((ctx) =>
      clientCertificateService.update(ctx, client.id, clientInput('PT Baru', `KL-QMS/2025/030`)),
    );
    const renamed = await decodeQr(await qrOf());
    expect(renamed).not.toBe(first);
    expect((await vcVerdict(t.app, renamed, fieldsOf('QMS/2025/030', 'PT Baru'))).valid).toBe(true);
    // The printed QR made before the change no longer matches the certificate's data.
    expect((await vcVerdict(t.app, first, fieldsOf('QMS/2025/030', 'PT Baru'))).valid).toBe(false);

    // The certification type renamed.
    await renameType('ISO 9001:2015 (Rev)');
    const retyped = await decodeQr(await qrOf());
    expect(
      (await vcVerdict(t.app, retyped, fieldsOf('QMS/2025/030', 'PT Baru', 'ISO 9001:2015 (Rev)'))).valid,
    ).toBe(true);

    // The scheme's own date: the answer of the write already carries the new QR.
    const moved = await redate('QMS/2025/030', '2025-02-01');
    expect(moved.qrcode).toBe(await qrOf());
    const redated = await decodeQr(moved.qrcode!);
    expect(
      (
        await vcVerdict(t.app, redated, {
          ...fieldsOf('QMS/2025/030', 'PT Baru', 'ISO 9001:2015 (Rev)'),
          issue: '2025-02-01',
          expiry: '2028-02-01',
        })
      ).valid,
    ).toBe(true);

    // A new number (the scheme's own form).
    const renumbered = await redate('QMS/2025/032', '2025-02-01');
    expect(
      await verifiedQrUrl(t.app, renumbered.qrcode!, {
        ...fieldsOf('QMS/2025/032', 'PT Baru', 'ISO 9001:2015 (Rev)'),
        issue: '2025-02-01',
        expiry: '2028-02-01',
      }),
    ).toBe(`${BASE}/check-certification-company?cert=QMS%2F2025%2F032`);

    // A scheme without a QR stays without one.
    const bare = await write((ctx) => schemeService.create(ctx, schemeInput(client.id, 'QMS/2025/031')));
    await write((ctx) =>
      clientCertificateService.update(ctx, client.id, clientInput('PT Baru Lagi', 'KL-QMS/2025/030')),
    );
    expect((await t.database.db.select().from(schemes).where(eq(schemes.id, bare.id)))[0]!.qrcode).toBeNull();
    await renameType('ISO 9001:2015');
  });

  it('the PDF carries the signed QR (decoded with zbarimg from the rendered page)', async () => {
    const { scheme } = await signedScheme('PT Cetak', 'QMS/2025/040');
    const res = await get(`/api/download-certificate/${scheme.id}`);
    expect(res.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-qr-'));
    try {
      fs.writeFileSync(path.join(dir, 'c.pdf'), res.rawPayload);
      execFileSync('pdftoppm', ['-r', '150', '-png', path.join(dir, 'c.pdf'), path.join(dir, 'page')]);
      const page = fs.readdirSync(dir).find((f) => f.startsWith('page'))!;
      const decoded = execFileSync('zbarimg', ['--quiet', '--raw', path.join(dir, page)])
        .toString()
        .trim();
      expect(decoded).toMatch(
        /^https:\/\/sertifikat\.contoh\.id\/check-certification-company\?cert=QMS%2F2025%2F040&vc=/,
      );
      expect((await vcVerdict(t.app, decoded, fieldsOf('QMS/2025/040', 'PT Cetak'))).valid).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rotation: a new key signs from then on; a QR signed before still verifies with the retired key', async () => {
    const { scheme } = await signedScheme('PT Rotasi', 'QMS/2025/050');
    const before = await decodeQr(scheme.qrcode!);
    const old = await vcVerdict(t.app, before, fieldsOf('QMS/2025/050', 'PT Rotasi'));
    expect(old.valid).toBe(true);

    const { kid, retired } = await rotateKey(t.database.db, t.app.clock.now());
    expect(retired).toEqual([old.kid]);
    expect(kid).not.toBe(old.kid);
    const kids = (await publishedJwks(t.app)).keys.map((k) => k.kid);
    expect(kids).toEqual(expect.arrayContaining([old.kid, kid]));

    // The old QR still verifies (with the retired, still published key).
    expect(await vcVerdict(t.app, before, fieldsOf('QMS/2025/050', 'PT Rotasi'))).toEqual({
      kid: old.kid,
      valid: true,
    });
    // New signatures use the new key: a fresh QR and the credential.
    const again = await write((ctx) => schemeService.refreshQr(ctx, scheme.id));
    expect(
      await vcVerdict(t.app, await decodeQr(again.qrcode!), fieldsOf('QMS/2025/050', 'PT Rotasi')),
    ).toEqual({
      kid,
      valid: true,
    });
    const credential = decodeJws((await get('/api/credential/company/QMS+2025+050')).body);
    expect(credential.header.kid).toBe(kid);
    // Exactly one key signs.
    const active = (await t.database.db.select().from(signingKeys)).filter((k) => k.retired_at === null);
    expect(active.map((k) => k.kid)).toEqual([kid]);
  });

  it('the canonical text escapes | and \\ so two records never share a text', () => {
    const a = canonicalText({ number: 'A|B', name: 'C', standard: 'S', issue: '2025-01-01', expiry: '' });
    const b = canonicalText({ number: 'A', name: 'B|C', standard: 'S', issue: '2025-01-01', expiry: '' });
    expect(a).not.toBe(b);
    expect(
      canonicalText({
        number: 'N1',
        name: 'PT X',
        standard: 'ISO',
        issue: '2025-01-01',
        expiry: '2028-01-01',
      }),
    ).toBe('N1|PT X|ISO|2025-01-01|2028-01-01');
  });
});

describe('the private key', () => {
  it('never appears in a log, even at trace level, while keys are made, published and used', async () => {
    const { logger, lines } = capturedLogger();
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', PUBLIC_BASE_URL: BASE, TZ }),
      db: t.database.db,
      logger,
    });
    try {
      await app.ready();
      await rotateKey(t.database.db, app.clock.now());
      await signedScheme('PT Log', 'QMS/2025/060');
      for (const url of ['/.well-known/jwks.json', '/api/credential/company/QMS+2025+060'])
        expect((await app.inject({ url, remoteAddress: '10.99.0.1' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
    const all = lines.join('');
    expect(all).toContain('/api/credential/company/QMS+2025+060');
    for (const { private_key } of await t.database.db.select().from(signingKeys)) {
      expect(all).not.toContain(private_key);
      expect(all).not.toContain(Buffer.from(private_key, 'base64').toString('base64url'));
    }
  });
});
