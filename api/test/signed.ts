/**
 * Checking signed certificates the way a third party does (docs/rules.md#signed-certificates): with Node's
 * crypto.verify against the published JWK, independently of the signer's code.
 */
import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import {
  canonicalText,
  type Jwks,
  JWKS_PATH,
  type PublicJwk,
  type SignedFields,
} from '@sertifikasi/shared-contracts/credential';

/** Decodes the QR code in a PNG (base64) with Debian's zbarimg (zbar-tools); its text. */
export async function decodeQr(base64: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-'));
  const file = path.join(dir, 'qrcode.png');
  try {
    fs.writeFileSync(file, Buffer.from(base64, 'base64'));
    const { stdout } = await promisify(execFile)('zbarimg', ['--quiet', '--raw', file]);
    return stdout.trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function publishedJwks(app: FastifyInstance): Promise<Jwks> {
  const res = await app.inject({ method: 'GET', url: JWKS_PATH });
  if (res.statusCode !== 200) throw new Error(`${JWKS_PATH}: ${res.statusCode}`);
  return res.json<Jwks>();
}

/** Does `signature` (base64url) sign `data` under the JWK? Node's own Ed25519 verification. */
export function verifiesWith(jwk: PublicJwk, data: string | Buffer, signature: string): boolean {
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return verify(null, bytes, key, Buffer.from(signature, 'base64url'));
}

/** A URL's `vc` checked against `fields` and the published keys: the kid used, or why it fails. */
export async function vcVerdict(
  app: FastifyInstance,
  url: string,
  fields: SignedFields,
): Promise<{ kid: string; valid: boolean }> {
  const vc = new URL(url).searchParams.get('vc');
  if (!vc) throw new Error(`no vc in ${url}`);
  const [kid, signature] = vc.split('.') as [string, string];
  const jwk = (await publishedJwks(app)).keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`kid ${kid} is not published`);
  return { kid, valid: verifiesWith(jwk, canonicalText(fields), signature) };
}

/**
 * The URL a QR code (PNG, base64) encodes, decoded with zbarimg, once its `vc` is checked against
 * `fields` with the published key: the URL without `&vc=...` (throws when the signature fails).
 */
export async function verifiedQrUrl(
  app: FastifyInstance,
  png: string,
  fields: SignedFields,
): Promise<string> {
  const url = await decodeQr(png);
  const { valid } = await vcVerdict(app, url, fields);
  if (!valid) throw new Error(`the signature of ${url} does not match ${canonicalText(fields)}`);
  return url.replace(/&vc=[^&]*$/, '');
}
