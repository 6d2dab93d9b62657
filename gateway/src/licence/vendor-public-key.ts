/**
 * The public key a service verifies licences against: the one configured
 * (PEM text, or the path of a PEM file), else the key built into klvscope.
 * Only the public half is in the repository; the matching private key is
 * kept by the vendor outside it (docs/licence.md).
 */
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LicenceError } from './licence-error.js';
import { parseVendorPublicKey, publicKeyFingerprint } from './vendor-keys.js';

/** klvscope's default vendor key (Ed25519, SPKI); fingerprint in docs/licence.md. */
export const BUILT_IN_VENDOR_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEADYN1nAtiQ2UHc4xyjDEThf+BNOzz7NqoVU98zzgofcQ=
-----END PUBLIC KEY-----
`;

export interface VendorPublicKey {
  key: KeyObject;
  /** Where it came from: the built-in constant, or configuration (with the file when it was a path). */
  source: 'built-in' | 'configured';
  path: string | null;
  fingerprint: string;
}

/**
 * `setting` is PEM text or a path (relative to `baseDir`); empty or absent
 * means the built-in key. Throws ERR_LICENCE_KEY_FILE or ERR_LICENCE_KEY_INVALID:
 * a service told to trust a key it cannot use must not start as if it had none.
 */
export async function loadVendorPublicKey(setting?: string | null, baseDir: string = process.cwd()): Promise<VendorPublicKey> {
  const text = setting?.trim() ?? '';
  if (text === '') return described(parseVendorPublicKey(BUILT_IN_VENDOR_PUBLIC_KEY_PEM), 'built-in', null);
  if (text.startsWith('-----BEGIN')) return described(parseVendorPublicKey(text), 'configured', null);
  const path = resolve(baseDir, text);
  return described(parseVendorPublicKey(await readKeyFile(path)), 'configured', path);
}

/** A PEM key file's text; ERR_LICENCE_KEY_FILE when it cannot be read. */
export async function readKeyFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new LicenceError('ERR_LICENCE_KEY_FILE', `key file ${path} cannot be read: ${(cause as Error).message}`, { path }, { cause });
  }
}

function described(key: KeyObject, source: VendorPublicKey['source'], path: string | null): VendorPublicKey {
  return { key, source, path, fingerprint: publicKeyFingerprint(key) };
}
