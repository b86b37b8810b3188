import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Algorithm.Argon2id (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2 as Algorithm;

export const newId = (): string => randomUUID();

/** An opaque bearer token (not a JWT); only its hash is stored. */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A readable random password for the first administrator and reset-admin. */
export const randomPassword = (): string => randomBytes(15).toString('base64url');

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const hashPassword = (password: string, cost: Argon2Cost): Promise<string> =>
  hash(password, { algorithm: ARGON2ID, ...cost });

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the username is unknown, so both cases cost the same time. */
export const dummyHash = (cost: Argon2Cost): Promise<string> => hashPassword(randomPassword(), cost);
