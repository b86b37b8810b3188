/**
 * The signed link in every reminder to a client that turns its 'Kirim pengingat ke klien' off
 * (docs/rules.md#notifications): `<PUBLIC_BASE_URL>/api/unsubscribe/<client id>/<kid>.<mac>`, sent
 * in the text and as `List-Unsubscribe` (notify/mail.ts). The MAC is an HMAC-SHA256 of the client's
 * id and the address the reminder went to, keyed by a secret derived from the app's signing key
 * (services/signing.ts `derivedSecret`; `kid` names the key, so links made before a rotation keep
 * working). Nobody can make a link for another client or address; a link stops working when the
 * client's email changes (it was made for the old address).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../db';
import { derivedSecret } from '../services/signing';

/** The path of the link's route (modules/notifications/unsubscribe.routes.ts). */
export const UNSUBSCRIBE_PATH = '/api/unsubscribe';

/** HKDF's info for this secret: no other MAC of the app is one of these. */
const PURPOSE = 'sertifikasi unsubscribe-reminders v1';

/** An address as it is compared: trimmed, any case. */
const addressOf = (email: string) => email.trim().toLowerCase();

const macOf = (secret: Buffer, clientId: string, email: string) =>
  createHmac('sha256', secret)
    .update(`${clientId.toLowerCase()}\n${addressOf(email)}`)
    .digest('base64url');

/** Makes the links of a run with one read of the key. */
export interface UnsubscribeLinks {
  /** The link that stops the reminders of `clientId` sent to `email`. */
  link(clientId: string, email: string): string;
}

/** The links of the key that signs now, under `baseUrl` (PUBLIC_BASE_URL). */
export async function unsubscribeLinks(db: Executor, baseUrl: string): Promise<UnsubscribeLinks> {
  const key = (await derivedSecret(db, PURPOSE))!;
  return {
    link: (clientId, email) =>
      `${baseUrl}${UNSUBSCRIBE_PATH}/${clientId}/${key.kid}.${macOf(key.secret, clientId, email)}`,
  };
}

/** `<kid>.<mac>`: a key id and 32 bytes in base64url. */
const SIGNATURE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;

/**
 * Whether `signature` (the link's last segment) was made for `clientId` and `email` by one of the
 * app's keys; false for anything else, an email of null included. Compared in constant time.
 */
export async function isUnsubscribeSignature(
  db: Executor,
  clientId: string,
  email: string | null,
  signature: string,
): Promise<boolean> {
  const parts = SIGNATURE.exec(signature);
  if (!parts || !email?.trim()) return false;
  const key = await derivedSecret(db, PURPOSE, parts[1]);
  if (!key) return false;
  const expected = Buffer.from(macOf(key.secret, clientId, email));
  const given = Buffer.from(parts[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
