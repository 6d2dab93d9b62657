/**
 * HTTP Basic authentication of POST /command (spec "Authentication"). Two
 * header forms are accepted: RFC 7617's `Basic base64(user:password)`, and
 * the literal `Basic USER PASSWORD` the spec shows. Both are compared in
 * constant time, on digests, so that neither the length nor the first
 * differing byte of a guess shows in the response time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export interface Credentials {
  user: string;
  password: string;
}

/** The user and password of an Authorization header, or null when it is not of the Basic scheme. */
export function credentialsOfHeader(header: string | undefined): Credentials | null {
  if (header === undefined) return null;
  const match = /^\s*basic\s+(.+?)\s*$/is.exec(header);
  if (!match) return null;
  const rest = match[1];
  // Spec form: two words. RFC 7617's token68 has no space in it.
  const words = rest.split(/\s+/);
  if (words.length === 2) return { user: words[0], password: words[1] };
  if (words.length !== 1 || !/^[A-Za-z0-9+/]+=*$/.test(rest)) return null;
  const decoded = Buffer.from(rest, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // RFC 7617 2: the user id cannot contain a colon; the password may.
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** True when both match, taking the same time whatever the guess. */
export function credentialsMatch(given: Credentials, expected: Credentials): boolean {
  const user = timingSafeEqual(digest(given.user), digest(expected.user));
  const password = timingSafeEqual(digest(given.password), digest(expected.password));
  return user && password;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
