import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../test-support/fixtures.js';
import {
  BUILT_IN_VENDOR_PUBLIC_KEY_PEM,
  LicenceError,
  generateVendorKeyPair,
  loadVendorPublicKey,
  parseVendorPrivateKey,
  parseVendorPublicKey,
  publicKeyFingerprint,
} from '../../src/licence/index.js';

/** Spelled in pieces so this file is not itself a hit. */
const PRIVATE_PEM_MARKER = new RegExp(['-----BEGIN', '( [A-Z0-9]+)? PRIVATE', ' KEY-----'].join(''));
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'data', '.bench-cache']);

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* sourceFiles(join(folder, entry.name));
    } else if (/\.(ts|mts|js|mjs|cjs|json|md|pem|key|txt)$/.test(entry.name) && statSync(join(folder, entry.name)).size < 1_000_000) {
      yield join(folder, entry.name);
    }
  }
}

describe('vendor keys', () => {
  it('makes Ed25519 key pairs as PKCS8 and SPKI PEM that parse back', () => {
    const pair = generateVendorKeyPair();
    expect(PRIVATE_PEM_MARKER.test(pair.privateKeyPem)).to.be.true;
    expect(pair.publicKeyPem).to.match(/^-----BEGIN PUBLIC KEY-----\n/);
    const fingerprint = publicKeyFingerprint(parseVendorPublicKey(pair.publicKeyPem));
    expect(fingerprint).to.match(/^sha256:[0-9a-f]{64}$/);
    // Either half names the same vendor.
    expect(publicKeyFingerprint(parseVendorPrivateKey(pair.privateKeyPem))).to.equal(fingerprint);
  });

  it('refuses a private key given as the public key, naming the mistake', () => {
    expect(() => parseVendorPublicKey(generateVendorKeyPair().privateKeyPem)).to.throw(LicenceError, /this is a private key; give the public key/);
  });

  it('builds in a parseable Ed25519 public key', async () => {
    const key = parseVendorPublicKey(BUILT_IN_VENDOR_PUBLIC_KEY_PEM);
    expect(key.asymmetricKeyType).to.equal('ed25519');
    const loaded = await loadVendorPublicKey(undefined);
    expect(loaded).to.deep.include({ source: 'built-in', path: null, fingerprint: 'sha256:edfa749ccd74f38919140d35d0f4986ab1b697768b9d6e4c8fa9c9a45f776f3a' });
    expect((await loadVendorPublicKey('  ')).source).to.equal('built-in');
  });

  it('takes a configured key as PEM text', async () => {
    const pair = generateVendorKeyPair();
    expect(await loadVendorPublicKey(pair.publicKeyPem)).to.deep.include({ source: 'configured', path: null, fingerprint: publicKeyFingerprint(parseVendorPublicKey(pair.publicKeyPem)) });
  });

  it('keeps no private key anywhere in the repository', () => {
    const hits = [...sourceFiles(repoRoot)].filter((path) => PRIVATE_PEM_MARKER.test(readFileSync(path, 'utf8')));
    expect(hits).to.deep.equal([]);
  });
});
