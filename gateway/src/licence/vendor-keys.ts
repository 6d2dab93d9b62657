/**
 * The vendor's Ed25519 key pair, as PEM: the private key (PKCS8) signs
 * licences and stays with the vendor; the public key (SPKI) ships with, or
 * is configured into, every service that verifies them.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { LicenceError } from './licence-error.js';

export interface VendorKeyPairPem {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateVendorKeyPair(): VendorKeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/** An Ed25519 public key from SPKI PEM; throws ERR_LICENCE_KEY_INVALID otherwise. */
export function parseVendorPublicKey(pem: string | KeyObject): KeyObject {
  if (typeof pem !== 'string') return checkedKey(pem, 'public');
  let key: KeyObject;
  try {
    // createPublicKey also accepts a private PEM (deriving its public half); a
    // private key handed in where a public one belongs is a mistake worth naming.
    if (pem.includes('PRIVATE KEY')) throw new Error('this is a private key; give the public key');
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new LicenceError('ERR_LICENCE_KEY_INVALID', `not an Ed25519 public key in PEM: ${(cause as Error).message}`, undefined, { cause });
  }
  return checkedKey(key, 'public');
}

/** An Ed25519 private key from PKCS8 PEM; throws ERR_LICENCE_KEY_INVALID otherwise. */
export function parseVendorPrivateKey(pem: string | KeyObject): KeyObject {
  if (typeof pem !== 'string') return checkedKey(pem, 'private');
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new LicenceError('ERR_LICENCE_KEY_INVALID', `not an Ed25519 private key in PEM: ${(cause as Error).message}`, undefined, { cause });
  }
  return checkedKey(key, 'private');
}

/** `sha256:<hex>` of the public key's SPKI DER: names which vendor key a service trusts without showing it whole. */
export function publicKeyFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return `sha256:${createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex')}`;
}

function checkedKey(key: KeyObject, type: 'public' | 'private'): KeyObject {
  if (key.type !== type || key.asymmetricKeyType !== 'ed25519') {
    throw new LicenceError('ERR_LICENCE_KEY_INVALID', `expected an Ed25519 ${type} key, got a ${key.asymmetricKeyType ?? 'symmetric'} ${key.type} key`);
  }
  return key;
}
