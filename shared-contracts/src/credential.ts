/**
 * Signed certificates (docs/rules.md#signed-certificates) as the signer (api/src/services/signing.ts) and the
 * public page (mf-public-check's verify.ts) agree on them: the canonical text a QR code's signature
 * covers, the `vc` parameter that carries it, and the paths of the published keys and credentials.
 * Plain string code: no yup, nothing from npm (the public page imports it), no crypto (each side
 * uses its own: Node's on the server, Web Crypto in the browser).
 */
import { checkPathNumber } from './public';

/** The fields a QR code's signature covers, in their order (dates `YYYY-MM-DD`). */
export interface SignedFields {
  /** The certificate number, as stored. */
  number: string;
  /** The certified client's (scheme) or the person's (training) name. */
  name: string;
  /** The certification type's name (scheme) or the training. */
  standard: string;
  /** The issue date (scheme) or the training's date. */
  issue: string;
  /** The expiry date (scheme); empty for a training certificate. */
  expiry: string;
}

/**
 * One field of the canonical text: a `\` or `|` inside it is written `\\` or `\|`, so no two
 * different records share a text (a name holding a `|` cannot pass for two fields).
 */
const field = (value: string): string => value.replace(/[\\|]/g, (c) => `\\${c}`);

/** The UTF-8 text a QR code's signature covers: `number|name|standard|issue|expiry`. */
export const canonicalText = (f: SignedFields): string =>
  [f.number, f.name, f.standard, f.issue, f.expiry].map(field).join('|');

/** A scheme's signed fields, from its public check answer (or anything with those names). */
export const schemeSignedFields = (s: {
  cert_number: string;
  name: string;
  standard: string;
  issue_date: string;
  expired_date: string;
}): SignedFields => ({
  number: s.cert_number,
  name: s.name,
  standard: s.standard,
  issue: s.issue_date,
  expiry: s.expired_date,
});

/** A training certificate's signed fields (no expiry), from its public check answer or its row. */
export const trainingSignedFields = (t: {
  certificate_number: string;
  name: string;
  training: string;
  date: string;
}): SignedFields => ({
  number: t.certificate_number,
  name: t.name,
  standard: t.training,
  issue: t.date,
  expiry: '',
});

/** The query parameter of the public page's URL that carries `<kid>.<signature>`. */
export const VC_PARAM = 'vc';

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** A key id: base64url characters, no dot (it is the part before the dot of `vc`). */
export const isKeyId = (kid: string): boolean => kid.length > 0 && kid.length <= 64 && BASE64URL.test(kid);

/** An Ed25519 signature is 64 bytes: 86 base64url characters without padding. */
export const SIGNATURE_LENGTH = 86;

/** `<kid>.<signature>` of a `vc` parameter, or null when it is not one. */
export function parseVcParam(value: string | null | undefined): { kid: string; signature: string } | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (dot < 0) return null;
  const kid = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (!isKeyId(kid) || signature.length !== SIGNATURE_LENGTH || !BASE64URL.test(signature)) return null;
  return { kid, signature };
}

/** The bytes of a base64url text (no padding needed); null when it holds other characters. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Where the public keys are published (public, cacheable), retired ones included. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** A published key: an Ed25519 public key as a JWK (RFC 8037). */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  /** The public key, base64url. */
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface Jwks {
  keys: PublicJwk[];
}

/** The media type of a credential (a VC 2.0 secured as a compact JWS). */
export const VC_JWT_TYPE = 'application/vc+jwt';

/** The two kinds of certificate a credential can be of. */
export type CredentialKind = 'company' | 'training';

/** `GET /api/credential/{kind}/{number}`: the path of a certificate's credential (each `/` written `+`). */
export const credentialPath = (kind: CredentialKind, number: string): string =>
  `/api/credential/${kind}/${checkPathNumber(number)}`;
