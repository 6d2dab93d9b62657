/**
 * A licence token: `klv1.<base64url(JSON payload)>.<base64url(Ed25519
 * signature)>`. The signature covers the ASCII text `klv1.<payload part>`,
 * so the prefix (the format's version) is signed too, and the payload is
 * verified as the exact bytes the vendor signed, before any JSON parsing.
 * Verifying never throws for a bad token: every input gets a verdict.
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import { LicenceError } from './licence-error.js';
import { checkLicencePayload, type LicencePayload } from './licence-payload.js';
import { parseVendorPrivateKey, parseVendorPublicKey } from './vendor-keys.js';

const TOKEN_PREFIX = 'klv1';

/** Far above a real token (~300 characters for a few features); keeps a hostile body from costing anything. */
export const MAX_TOKEN_LENGTH = 8192;

const ED25519_SIGNATURE_BYTES = 64;

export type LicenceStatus = 'valid' | 'expired' | 'wrong-node' | 'bad-signature' | 'malformed';

export interface LicenceVerdict {
  status: LicenceStatus;
  /** Present once the signature is verified and the payload well-formed: valid, expired, wrong-node. */
  payload?: LicencePayload;
  /** One sentence for people. */
  reason: string;
}

export interface LicenceExpectation {
  /** This node's id (see node-identity.ts). */
  nodeId: string;
  /** The instant to judge expiry at; the clock when absent. */
  now?: Date;
}

/** Signs `payload` into a token; throws ERR_LICENCE_PAYLOAD_INVALID or ERR_LICENCE_KEY_INVALID. */
export function issueLicence(payload: LicencePayload, privateKeyPem: string | KeyObject): string {
  const checked = checkLicencePayload(payload);
  if (!checked.ok) throw new LicenceError('ERR_LICENCE_PAYLOAD_INVALID', `licence payload: ${checked.reason}`);
  const key = parseVendorPrivateKey(privateKeyPem);
  // The parsed payload, not the caller's object: known fields only, in a fixed order.
  const signedText = `${TOKEN_PREFIX}.${Buffer.from(JSON.stringify(checked.payload), 'utf8').toString('base64url')}`;
  const signature = sign(null, Buffer.from(signedText, 'ascii'), key);
  return `${signedText}.${signature.toString('base64url')}`;
}

/**
 * What a token says apart from the clock: refused whatever the time
 * (malformed, bad signature, another node), or signed for this node with
 * only its expiry left to judge. A service keeps it per installed token, so
 * the signature is verified once rather than at every status call.
 */
export type TokenCheck = { refused: LicenceVerdict } | { payload: LicencePayload };

/**
 * The verdict on `token` for this node at `now`. Checks in order: shape,
 * signature, payload, node, expiry; the first failure decides. Throws only
 * for a bad public key (ERR_LICENCE_KEY_INVALID), a fault of the service's
 * configuration rather than of the token.
 */
export function verifyLicence(token: unknown, publicKeyPem: string | KeyObject, expected: LicenceExpectation): LicenceVerdict {
  return licenceVerdictAt(checkLicenceToken(token, publicKeyPem, expected.nodeId), expected.now ?? new Date());
}

/** Every check of verifyLicence but expiry; throws as verifyLicence does. */
export function checkLicenceToken(token: unknown, publicKeyPem: string | KeyObject, nodeId: string): TokenCheck {
  const key = parseVendorPublicKey(publicKeyPem);
  if (typeof token !== 'string') return malformed(`a token is a string, got ${token === null ? 'null' : typeof token}`);
  // Outer white space only: tokens arrive from files and clipboards with a newline.
  const text = token.trim();
  if (text.length === 0) return malformed('the token is empty');
  if (text.length > MAX_TOKEN_LENGTH) return malformed(`the token is longer than ${MAX_TOKEN_LENGTH} characters`);
  const parts = text.split('.');
  if (parts.length !== 3) return malformed(`expected ${TOKEN_PREFIX}.<payload>.<signature>, got ${parts.length} dot-separated parts`);
  const [prefix, payloadPart, signaturePart] = parts;
  if (prefix !== TOKEN_PREFIX) return malformed(`unknown token format ${JSON.stringify(prefix.slice(0, 16))}, expected ${TOKEN_PREFIX}`);
  const payloadBytes = decodeBase64Url(payloadPart);
  if (payloadBytes === null || payloadBytes.length === 0) return malformed('the payload part is not base64url');
  const signature = decodeBase64Url(signaturePart);
  if (signature === null || signature.length !== ED25519_SIGNATURE_BYTES) return malformed(`the signature part is not ${ED25519_SIGNATURE_BYTES} bytes of base64url`);

  if (!signatureMatches(`${prefix}.${payloadPart}`, key, signature)) {
    return { refused: { status: 'bad-signature', reason: 'the signature does not match the payload under the vendor public key (tampered, or signed with another key)' } };
  }

  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payloadBytes));
  } catch {
    return malformed('the signed payload is not UTF-8 JSON');
  }
  const checked = checkLicencePayload(json);
  if (!checked.ok) return malformed(`the signed payload is not a version-1 licence: ${checked.reason}`);
  const payload = checked.payload;

  if (payload.nodeId !== nodeId) {
    return { refused: { status: 'wrong-node', payload, reason: `issued for node ${payload.nodeId}, this is node ${nodeId}` } };
  }
  return { payload };
}

/** The verdict at `now` on a checked token: a refusal stands; a signed payload is valid until its expiry. */
export function licenceVerdictAt(check: TokenCheck, now: Date): LicenceVerdict {
  if ('refused' in check) return check.refused;
  const payload = check.payload;
  if (hasExpired(payload, now)) return { status: 'expired', payload, reason: `expired at ${payload.expiresAt}` };
  const until = payload.expiresAt === null ? 'perpetual' : `valid until ${payload.expiresAt}`;
  return { status: 'valid', payload, reason: `licensed to ${payload.licensee}, ${until}` };
}

/** Whether a signed licence has run out at `now`; expiresAt is the last instant it is valid. */
export function hasExpired(payload: LicencePayload, now: Date): payload is LicencePayload & { expiresAt: string } {
  return payload.expiresAt !== null && now.getTime() > Date.parse(payload.expiresAt);
}

function malformed(reason: string): TokenCheck {
  return { refused: { status: 'malformed', reason } };
}

/** Strict base64url (RFC 4648 §5, no padding): Buffer.from skips bad characters, so check the alphabet and that it round-trips. */
function decodeBase64Url(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, 'base64url');
  // Unused trailing bits must be zero, so each token has one spelling.
  return bytes.toString('base64url') === text ? bytes : null;
}

function signatureMatches(signedText: string, key: KeyObject, signature: Buffer): boolean {
  try {
    return verify(null, Buffer.from(signedText, 'ascii'), key, signature);
  } catch {
    return false;
  }
}
