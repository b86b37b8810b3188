/**
 * Checks a QR code's signature in the browser (docs/rules.md#signed-certificates): the `vc` of the address
 * (`<kid>.<signature>`) against the record the page shows (its canonical text, written once in
 * shared-contracts/credential.ts, the signer's too) and the published key of that kid.
 *
 * The browser's own Web Crypto Ed25519 does it (Chrome 137+, Firefox 129+, Safari 17+): no
 * library is added to the page's budget. Where a browser lacks it, the page says the signature
 * cannot be checked there, and the credential download stays (any JOSE library verifies it).
 */
import {
  base64UrlBytes,
  canonicalText,
  type Jwks,
  JWKS_PATH,
  parseVcParam,
  type PublicJwk,
  type SignedFields,
  VC_PARAM,
} from '@sertifikasi/shared-contracts/credential';

/**
 * What the check came to: the signature matches; it does not (a forged QR, or one made before the
 * certificate's data changed); or it could not be checked (no network, no Ed25519 in this browser).
 */
export type Verdict = 'valid' | 'mismatch' | 'unchecked';

/** The `cert` and `vc` of the page's address when it was opened (a scanned QR code carries them). */
export function signedAddress(): { cert: string; vc: string } | null {
  try {
    const params = new URLSearchParams(window.location.search);
    const vc = params.get(VC_PARAM);
    return vc ? { cert: params.get('cert') ?? '', vc } : null;
  } catch {
    return null;
  }
}

/**
 * The published keys (the page is served by the API's origin, docs/rules.md#running-system); `fresh`
 * passes by the browser's cache (a key added by a rotation within the last minute).
 */
export async function fetchKeys(fresh = false): Promise<PublicJwk[]> {
  const res = await fetch(JWKS_PATH, {
    headers: { accept: 'application/json' },
    ...(fresh ? { cache: 'no-cache' as const } : {}),
  });
  if (!res.ok) throw new Error(`keys: ${res.status}`);
  return ((await res.json()) as Jwks).keys;
}

/** Web Crypto's Ed25519 verification; throws where the browser has none. */
async function ed25519Verify(
  jwk: PublicJwk,
  signature: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
) {
  const { subtle } = globalThis.crypto;
  const key = await subtle.importKey(
    'jwk',
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    { name: 'Ed25519' },
    false,
    ['verify'],
  );
  return subtle.verify({ name: 'Ed25519' }, key, signature, data);
}

/** Checks `vc` against the record's fields and the published keys. */
export async function verifySignature(
  vc: string,
  fields: SignedFields,
  keys: (fresh: boolean) => Promise<PublicJwk[]> = fetchKeys,
): Promise<Verdict> {
  const parsed = parseVcParam(vc);
  const signature = parsed && base64UrlBytes(parsed.signature);
  if (!parsed || !signature) return 'mismatch';
  const find = (published: PublicJwk[]) =>
    published.find((k) => k.kid === parsed.kid && k.kty === 'OKP' && k.crv === 'Ed25519');
  let jwk: PublicJwk | undefined;
  try {
    // A kid not among the cached keys: asked once more past the cache (a key rotated in since).
    jwk = find(await keys(false)) ?? find(await keys(true));
  } catch {
    return 'unchecked';
  }
  // A key this issuer never published: not its signature.
  if (!jwk) return 'mismatch';
  try {
    const data = new TextEncoder().encode(canonicalText(fields));
    return (await ed25519Verify(jwk, signature, data)) ? 'valid' : 'mismatch';
  } catch {
    return 'unchecked';
  }
}
