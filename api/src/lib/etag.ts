import { createHash } from 'node:crypto';

/**
 * Whether an `If-None-Match` header matches an entity tag (RFC 9110 section 13.1.2): `*`, or a
 * comma-separated list of tags compared weakly (`W/"x"` matches `"x"`). `etag` is the quoted tag.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  // An entity tag is an optional W/ and a quoted string without inner quotes (which may hold commas).
  for (const match of value.matchAll(/(?:W\/)?("[^"]*")/g)) {
    if (match[1] === opaque) return true;
  }
  return false;
}

/** A weak entity tag of a body: the first 27 characters of its SHA-256 in base64url. */
export function weakEtag(body: string | Buffer): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
