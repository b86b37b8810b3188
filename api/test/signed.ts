/**
 * Checking signed certificates the way a third party does (docs/rules.md#signed-certificates): with Node's
 * crypto.verify against the published JWK, independently of the signer's code.
 */
import { createPublicKey, verify } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  canonicalText,
  type Jwks,
  JWKS_PATH,
  type PublicJwk,
  type SignedFields,
} from '@sertifikasi/shared-contracts/credential';
import { decodeQr } from '../src/modules/schemes/scheme-fixtures';

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
