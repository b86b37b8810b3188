/**
 * A signed certificate (docs/rules.md#signed-certificates), end to end. Staff make a scheme and its QR code through the API;
 * the QR (decoded with zbarimg, as a phone's camera would) opens the public page, which checks the
 * signature in the browser against the record it shows and the published key: 'valid'. A forged
 * QR (the same number, another signature) and a genuine signature reused for another certificate
 * are told apart. 'Unduh Kredensial' downloads the VC-JWT, which Node's crypto verifies against the
 * published JWK.
 */
import { createPublicKey, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import {
  collectPageErrors,
  launchBrowser,
  newPage,
  runSuffix,
  screenshot,
  systemUnderTest,
  visible,
} from './support/browser';
import { makeRegister } from './support/register';
import { apiCaller, day } from './support/api';

const suffix = runSuffix();
const stamp = Date.now().toString(36).toUpperCase();
const CERT_NUMBER = `QMS/SIG/${stamp}`;
const OTHER_NUMBER = `QMS/SIG2/${stamp}`;
const CLIENT = `PT Tanda Tangan Digital${suffix}`;

let browser: Browser;
let token: string;
let schemeQr: string;
let otherQr: string;

const api = apiCaller(() => token);

/** The text of a QR code (PNG, base64), read with zbarimg. */
function decodeQr(base64: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-qr-'));
  try {
    const file = path.join(dir, 'qr.png');
    fs.writeFileSync(file, Buffer.from(base64, 'base64'));
    return execFileSync('zbarimg', ['--quiet', '--raw', file], { encoding: 'utf8' }).trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The page address a QR code holds, on the system under test (path and query). */
const pageOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

beforeAll(async () => {
  browser = await launchBrowser();
  token = String(
    (await api('POST', '/api/login', { username: 'admin', password: systemUnderTest().adminPassword })).token,
  );
  const { schemeIds } = await makeRegister(api, {
    company: { name: `PT Lembaga Bertanda Tangan${suffix} ${stamp}`, website: 'https://lstt.co.id' },
    type: { code: `ISMS-${stamp}`, name: 'ISO 27001:2022' },
    client: { name: CLIENT, certificate_number: `KL-SIG-${stamp}`, region: 'DKI Jakarta' },
    schemes: [CERT_NUMBER, OTHER_NUMBER],
    issue_date: day(-5),
  });
  const qrOf = async (schemeId: string) =>
    decodeQr(String((await api('GET', `/api/generate-qr-scheme/${schemeId}`)).qrcode));
  [schemeQr, otherQr] = [await qrOf(schemeIds[0]!), await qrOf(schemeIds[1]!)];
});

afterAll(async () => {
  await browser?.close();
});

describe('a signed QR code', () => {
  it('is verified by the public page in the browser; a forged or reused signature is not', async () => {
    expect(schemeQr).toMatch(/\?cert=QMS%2FSIG%2F[A-Z0-9]+&vc=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const { context, page } = await newPage(browser);
    const errors = collectPageErrors(page);
    try {
      await page.goto(pageOf(schemeQr));
      await visible(page.getByText('This certificate is valid.'));
      await visible(page.getByText('Digital signature valid'));
      await page.getByRole('button', { name: 'Bahasa Indonesia' }).click();
      await visible(page.getByText('Tanda tangan digital valid'));
      await screenshot(page, 'signed-qr-valid');

      // The credential: a VC-JWT that Node verifies against the published key.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Unduh Kredensial' }).click(),
      ]);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-vc-')), 'c.jwt');
      await download.saveAs(file);
      const [h, p, s] = fs.readFileSync(file, 'utf8').trim().split('.') as [string, string, string];
      const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as {
        alg: string;
        kid: string;
        typ: string;
      };
      expect(header).toMatchObject({ alg: 'EdDSA', typ: 'vc+jwt' });
      const jwks = (await (await fetch(`${systemUnderTest().baseUrl}/.well-known/jwks.json`)).json()) as {
        keys: { kid: string; x: string }[];
      };
      const jwk = jwks.keys.find((k) => k.kid === header.kid)!;
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
      expect(verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))).toBe(true);
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
        credentialSubject: { certificateNumber: string; name: string };
      };
      expect(payload.credentialSubject).toMatchObject({ certificateNumber: CERT_NUMBER, name: CLIENT });

      // A forged QR: the same number, a signature nobody made.
      const vc = new URL(schemeQr).searchParams.get('vc')!;
      const [kid, signature] = vc.split('.') as [string, string];
      const forged = `${kid}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      await page.goto(`/check-certification-company?cert=${encodeURIComponent(CERT_NUMBER)}&vc=${forged}`);
      await visible(page.getByText('Sertifikat ini berlaku.'));
      await visible(page.getByText('Tanda tangan digital tidak cocok dengan data sertifikat'));
      expect(await page.getByText('Tanda tangan digital valid').count()).toBe(0);
      await screenshot(page, 'signed-qr-forged');

      // A genuine signature copied onto another certificate's page does not match it either.
      const otherVc = new URL(otherQr).searchParams.get('vc')!;
      await page.goto(`/check-certification-company?cert=${encodeURIComponent(CERT_NUMBER)}&vc=${otherVc}`);
      await visible(page.getByText('Tanda tangan digital tidak cocok dengan data sertifikat'));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
