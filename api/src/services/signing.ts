/**
 * Signing certificates (docs/rules.md#signed-certificates) with Node's own Ed25519 (no JOSE library: one
 * algorithm needs none). The keys live in the database (db/schema.ts `signing_keys`, so a backup
 * holds them): one signs, retired ones stay published so what they signed still verifies. The
 * private key is read here only, as a KeyObject, and never returned, answered or logged.
 *
 * - `vc` of a QR code: `<kid>.<signature>`, the signature base64url (no padding) over the UTF-8
 *   canonical text of the record (shared-contracts/credential.ts);
 * - credentials: a compact JWS (`alg: EdDSA`, `kid`, `typ: vc+jwt`) over a VC 2.0 payload;
 * - the published keys: a JWKS of OKP/Ed25519 JWKs.
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { asc, eq, isNull } from 'drizzle-orm';
import {
  canonicalText,
  type Jwks,
  type PublicJwk,
  type SignedFields,
  VC_PARAM,
} from '@sertifikasi/shared-contracts/credential';
import type { Db, Executor } from '../db';
import { signingKeys } from '../db/schema';
import { type CheckKind, publicCheckUrl } from './qr';

/** The key that signs now: its id and private key (never leaves this module's callers' memory). */
export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** Length of a key id: the first characters of the key's RFC 7638 thumbprint (48 bits). */
const KID_LENGTH = 8;

/** A JWK's RFC 7638 thumbprint (SHA-256 of its required members in order), base64url. */
export function jwkThumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

/** A new Ed25519 key pair as stored: kid, public key (base64url `x`), private key (PKCS #8 DER, base64). */
export function newKeyRow(): typeof signingKeys.$inferInsert {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x!;
  return {
    kid: jwkThumbprint(x).slice(0, KID_LENGTH),
    public_key: x,
    private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

const toKey = (row: { kid: string; private_key: string }): SigningKey => ({
  kid: row.kid,
  privateKey: createPrivateKey({ key: Buffer.from(row.private_key, 'base64'), format: 'der', type: 'pkcs8' }),
});

async function readActive(db: Executor): Promise<SigningKey | null> {
  const [row] = await db
    .select({ kid: signingKeys.kid, private_key: signingKeys.private_key })
    .from(signingKeys)
    .where(isNull(signingKeys.retired_at))
    .limit(1);
  return row ? toKey(row) : null;
}

/**
 * The key that signs now, created when there is none yet (first start; a concurrent creator wins
 * through the one-active-key index and its key is used).
 */
export async function activeKey(db: Executor): Promise<SigningKey> {
  const found = await readActive(db);
  if (found) return found;
  await db.insert(signingKeys).values(newKeyRow()).onConflictDoNothing();
  const created = await readActive(db);
  if (!created) throw new Error('No signing key could be created');
  return created;
}

/** At start: makes sure a signing key exists; answers its id (safe to log). */
export async function ensureSigningKey(db: Executor): Promise<string> {
  return (await activeKey(db)).kid;
}

/**
 * `npm run rotate-key`: retires the signing key and adds a new one, in one transaction. The retired
 * key stays published and keeps verifying what it signed.
 */
export async function rotateKey(db: Db, now: Date): Promise<{ kid: string; retired: string[] }> {
  return db.transaction(async (tx) => {
    const retired = await tx
      .update(signingKeys)
      .set({ retired_at: now })
      .where(isNull(signingKeys.retired_at))
      .returning({ kid: signingKeys.kid });
    const row = newKeyRow();
    await tx.insert(signingKeys).values({ ...row, created_at: now });
    return { kid: row.kid, retired: retired.map((r) => r.kid) };
  });
}

/** Every public key, retired ones included, oldest first, as a JWKS (no private part: never selected). */
export async function publishedKeys(db: Executor): Promise<Jwks> {
  const rows = await db
    .select({ kid: signingKeys.kid, x: signingKeys.public_key })
    .from(signingKeys)
    .orderBy(asc(signingKeys.created_at), asc(signingKeys.kid));
  return {
    keys: rows.map((r): PublicJwk => ({
      kty: 'OKP',
      crv: 'Ed25519',
      x: r.x,
      kid: r.kid,
      alg: 'EdDSA',
      use: 'sig',
    })),
  };
}

/** An Ed25519 signature of the UTF-8 bytes of `text` (or of bytes), base64url without padding. */
export function signBytes(key: SigningKey, data: string | Buffer): string {
  return sign(null, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, key.privateKey).toString(
    'base64url',
  );
}

/** A QR code's `vc`: `<kid>.<signature>` over the record's canonical text. */
export function vcParam(key: SigningKey, fields: SignedFields): string {
  return `${key.kid}.${signBytes(key, canonicalText(fields))}`;
}

/** The public check URL of a record with its signature: `...?cert=<number>&vc=<kid>.<signature>`. */
export function signedCheckUrl(
  baseUrl: string,
  kind: CheckKind,
  key: SigningKey,
  fields: SignedFields,
): string {
  return `${publicCheckUrl(baseUrl, kind, fields.number)}&${VC_PARAM}=${vcParam(key, fields)}`;
}

/** The JWS header of a credential (VC-JOSE-COSE: `typ: vc+jwt`, `cty: vc`). */
export const credentialHeader = (kid: string) => ({ alg: 'EdDSA', kid, typ: 'vc+jwt', cty: 'vc' }) as const;

/** A compact JWS (`header.payload.signature`, base64url) of `payload`, signed with `key`. */
export function compactJws(key: SigningKey, payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  const input = `${encode(credentialHeader(key.kid))}.${encode(payload)}`;
  return `${input}.${signBytes(key, input)}`;
}

/** A secret of one purpose, derived from a signing key, and that key's id. */
export interface DerivedSecret {
  kid: string;
  secret: Buffer;
}

/**
 * A 32-byte secret for the HMACs of `purpose` (the unsubscribe links, notify/unsubscribe.ts):
 * HKDF-SHA256 of the private key of the key that signs now, or of the key `kid` (retired ones
 * too, so what was made with it still checks after a rotation); null for an unknown `kid`. One
 * private key serves several purposes without one's MAC being another's (the purpose is HKDF's
 * info), and a backup holds the secret as it holds the key.
 */
export async function derivedSecret(
  db: Executor,
  purpose: string,
  kid?: string,
): Promise<DerivedSecret | null> {
  let key: SigningKey | null;
  if (kid === undefined) key = await activeKey(db);
  else {
    const [row] = await db
      .select({ kid: signingKeys.kid, private_key: signingKeys.private_key })
      .from(signingKeys)
      .where(eq(signingKeys.kid, kid))
      .limit(1);
    key = row ? toKey(row) : null;
  }
  if (!key) return null;
  const der = key.privateKey.export({ format: 'der', type: 'pkcs8' });
  return { kid: key.kid, secret: Buffer.from(hkdfSync('sha256', der, Buffer.alloc(0), purpose, 32)) };
}
