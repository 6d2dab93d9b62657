import { expect } from 'chai';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LICENCE_FILE_NAME,
  LicenceError,
  LicenceState,
  generateNodeId,
  generateVendorKeyPair,
  issueLicence,
  loadNodeId,
  publicKeyFingerprint,
  parseVendorPublicKey,
  BUILT_IN_VENDOR_PUBLIC_KEY_PEM,
  type LicencePayload,
} from '../../src/licence/index.js';

const vendor = generateVendorKeyPair();
const ISSUED = '2026-01-01T00:00:00.000Z';
const EXPIRES = '2026-12-31T23:59:59.999Z';

/** A clock the test moves. */
function testClock(iso: string): { nowMs(): number; set(iso: string): void } {
  let nowMs = Date.parse(iso);
  return { nowMs: () => nowMs, set: (next) => (nowMs = Date.parse(next)) };
}

/**
 * Counts Ed25519 signature checks: node:crypto's `verify` is swapped on its
 * shared exports object, and syncBuiltinESMExports carries the swap to the
 * `import { verify }` binding of licence-token.ts.
 */
function countSignatureChecks(): { readonly count: number; restore(): void } {
  const original = crypto.verify;
  let count = 0;
  crypto.verify = new Proxy(original, {
    apply: (target, thisArg, args: Parameters<typeof original>) => {
      count += 1;
      return Reflect.apply(target, thisArg, args);
    },
  });
  syncBuiltinESMExports();
  return {
    get count() {
      return count;
    },
    restore() {
      crypto.verify = original;
      syncBuiltinESMExports();
    },
  };
}

function tokenFor(nodeId: string, overrides: Partial<LicencePayload> = {}): string {
  return issueLicence({ v: 1, nodeId, licensee: 'ACME', features: ['live'], issuedAt: ISSUED, expiresAt: EXPIRES, ...overrides }, vendor.privateKeyPem);
}

async function refusal(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => null,
    (error: unknown) => error,
  );
}

describe('licence state', () => {
  const root = mkdtempSync(join(tmpdir(), 'klvscope-licence-state-'));
  let count = 0;
  const freshFolder = (): string => join(root, `data-${(count += 1)}`);
  const clock = testClock('2026-06-01T00:00:00Z');
  const open = (dataDir: string): Promise<LicenceState> => LicenceState.open({ dataDir, publicKey: vendor.publicKeyPem, clock });

  beforeEach(() => clock.set('2026-06-01T00:00:00Z'));

  it('runs in demo mode with no licence installed, and says so', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    expect(state.nodeId).to.equal(await loadNodeId(dataDir));
    expect(state.licenceStatus()).to.deep.equal({
      mode: 'demo',
      status: 'none',
      licensee: null,
      features: [],
      expiresAt: null,
      nodeId: state.nodeId,
      reason: 'no licence installed; demo mode: every feature works; the service reports that it is unlicensed (docs/licence.md)',
    });
  });

  it('installs a valid token, reports it licensed, and keeps it across a restart', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const token = tokenFor(state.nodeId);
    const expected = { mode: 'licensed', status: 'valid', licensee: 'ACME', features: ['live'], expiresAt: EXPIRES, nodeId: state.nodeId, reason: `licensed to ACME, valid until ${EXPIRES}` };
    expect(await state.install(`${token}\n`)).to.deep.equal(expected);
    expect(state.licenceStatus()).to.deep.equal(expected);
    expect(readFileSync(join(dataDir, LICENCE_FILE_NAME), 'utf8')).to.equal(`${token}\n`);
    const reopened = await open(dataDir);
    expect(reopened.licenceStatus()).to.deep.equal(expected);
  });

  it('writes the token file owner-only and leaves no temporary files', async function () {
    if (process.platform === 'win32') this.skip();
    const dataDir = freshFolder();
    const state = await open(dataDir);
    await state.install(tokenFor(state.nodeId));
    await state.install(tokenFor(state.nodeId, { licensee: 'ACME 2' }));
    expect(statSync(join(dataDir, LICENCE_FILE_NAME)).mode & 0o777).to.equal(0o600);
    expect(readdirSync(dataDir).sort()).to.deep.equal([LICENCE_FILE_NAME, 'node-id']);
  });

  it('refuses a token that is not valid for this node with ERR_LICENCE_INVALID and its reason, keeping the installed one', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const good = tokenFor(state.nodeId);
    await state.install(good);
    const refusals: Array<[string, string]> = [
      [tokenFor(generateNodeId()), 'wrong-node'],
      [tokenFor(state.nodeId, { expiresAt: '2026-02-01T00:00:00.000Z' }), 'expired'],
      [issueLicence({ v: 1, nodeId: state.nodeId, licensee: 'X', features: [], issuedAt: ISSUED, expiresAt: null }, generateVendorKeyPair().privateKeyPem), 'bad-signature'],
      ['klv1.nonsense', 'malformed'],
      ['', 'malformed'],
    ];
    for (const [token, status] of refusals) {
      const error = await refusal(state.install(token));
      expect(error, status).to.be.instanceOf(LicenceError).with.property('code', 'ERR_LICENCE_INVALID');
      expect((error as LicenceError).details).to.have.property('status', status);
      expect((error as LicenceError).message).to.match(new RegExp(`^licence refused \\(${status}\\): `));
    }
    expect(readFileSync(join(dataDir, LICENCE_FILE_NAME), 'utf8')).to.equal(`${good}\n`);
    expect(state.licenceStatus().mode).to.equal('licensed');
  });

  it('removes the licence, back to demo mode, also after a restart', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    await state.install(tokenFor(state.nodeId));
    expect(await state.remove()).to.be.true;
    expect(state.licenceStatus()).to.include({ mode: 'demo', status: 'none' });
    expect(existsSync(join(dataDir, LICENCE_FILE_NAME))).to.be.false;
    expect((await open(dataDir)).licenceStatus()).to.include({ mode: 'demo', status: 'none' });
    expect(await state.remove()).to.be.false;
  });

  it('turns to demo mode when the installed licence expires while the service runs', async () => {
    const state = await open(freshFolder());
    await state.install(tokenFor(state.nodeId));
    clock.set('2027-01-01T00:00:00Z');
    const status = state.licenceStatus();
    expect(status).to.include({ mode: 'demo', status: 'expired', licensee: 'ACME', expiresAt: EXPIRES });
    expect(status.reason).to.equal(`expired at ${EXPIRES}; demo mode: every feature works; the service reports that it is unlicensed (docs/licence.md)`);
  });

  it('verifies the signature once per installed token and judges only the expiry at each status call', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const signatureChecks = countSignatureChecks();
    try {
      await state.install(tokenFor(state.nodeId));
      const statusAt = (iso: string): string => {
        clock.set(iso);
        return state.licenceStatus().status;
      };
      expect([statusAt('2026-06-01T00:00:00Z'), statusAt('2027-01-01T00:00:00Z'), statusAt('2026-07-01T00:00:00Z')]).to.deep.equal(['valid', 'expired', 'valid']);
      expect(state.licenceDetails().status).to.equal('valid');
      expect(signatureChecks.count).to.equal(1);

      // A restart verifies the token read from the file, once.
      const reopened = await open(dataDir);
      expect([reopened.licenceStatus().status, reopened.licenceStatus().status]).to.deep.equal(['valid', 'valid']);
      expect(signatureChecks.count).to.equal(2);
    } finally {
      signatureChecks.restore();
    }
  });

  it('runs in demo mode, naming the node, when the data folder holds another node’s licence', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const foreign = tokenFor(generateNodeId());
    writeFileSync(join(dataDir, LICENCE_FILE_NAME), foreign);
    const status = (await open(dataDir)).licenceStatus();
    expect(status).to.include({ mode: 'demo', status: 'wrong-node', licensee: 'ACME', nodeId: state.nodeId });
  });

  it('starts in demo mode with a damaged token file rather than failing', async () => {
    const dataDir = freshFolder();
    await open(dataDir);
    writeFileSync(join(dataDir, LICENCE_FILE_NAME), Buffer.from([0xff, 0x00, 0x2e, 0x2e]));
    const status = (await open(dataDir)).licenceStatus();
    expect(status).to.include({ mode: 'demo', status: 'malformed', licensee: null });
  });

  it('answers mode() as licenceStatus().mode does: valid, expired, none installed, malformed, another node’s, perpetual', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const modes = (of: LicenceState): [string, string, string] => [of.licenceStatus().status, of.mode(), of.licenceStatus().mode];
    await state.install(tokenFor(state.nodeId));
    expect(modes(state)).to.deep.equal(['valid', 'licensed', 'licensed']);
    clock.set(EXPIRES);
    expect(modes(state)).to.deep.equal(['valid', 'licensed', 'licensed']);
    clock.set('2027-01-01T00:00:00Z');
    expect(modes(state)).to.deep.equal(['expired', 'demo', 'demo']);
    await state.remove();
    expect(modes(state)).to.deep.equal(['none', 'demo', 'demo']);
    writeFileSync(join(dataDir, LICENCE_FILE_NAME), 'klv1.nonsense');
    expect(modes(await open(dataDir))).to.deep.equal(['malformed', 'demo', 'demo']);
    writeFileSync(join(dataDir, LICENCE_FILE_NAME), tokenFor(generateNodeId()));
    expect(modes(await open(dataDir))).to.deep.equal(['wrong-node', 'demo', 'demo']);
    await state.install(tokenFor(state.nodeId, { expiresAt: null }));
    expect(modes(state)).to.deep.equal(['valid', 'licensed', 'licensed']);
  });

  it('reports details: issue time, whether a token is installed and which vendor key verifies', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const fingerprint = publicKeyFingerprint(parseVendorPublicKey(vendor.publicKeyPem));
    expect(state.licenceDetails()).to.deep.include({ installed: false, issuedAt: null, publicKey: { source: 'configured', fingerprint } });
    await state.install(tokenFor(state.nodeId));
    expect(state.licenceDetails()).to.deep.include({ mode: 'licensed', installed: true, issuedAt: ISSUED });
    expect(state.vendorKeyFingerprint).to.equal(fingerprint);
  });

  it('reads the vendor key from a PEM file, relative to the base folder', async () => {
    const dataDir = freshFolder();
    writeFileSync(join(root, 'vendor-public.pem'), vendor.publicKeyPem);
    const state = await LicenceState.open({ dataDir, publicKey: 'vendor-public.pem', baseDir: root, clock });
    await state.install(tokenFor(state.nodeId));
    expect(state.licenceDetails()).to.deep.include({ mode: 'licensed', publicKey: { source: 'configured', fingerprint: state.vendorKeyFingerprint } });
  });

  it('uses the built-in vendor key when none is configured, refusing tokens of other keys', async () => {
    const state = await LicenceState.open({ dataDir: freshFolder(), clock });
    expect(state.licenceDetails().publicKey).to.deep.equal({ source: 'built-in', fingerprint: publicKeyFingerprint(parseVendorPublicKey(BUILT_IN_VENDOR_PUBLIC_KEY_PEM)) });
    expect(await refusal(state.install(tokenFor(state.nodeId)))).to.have.nested.property('details.status', 'bad-signature');
  });

  it('fails to open with a typed error when the configured vendor key is unusable', async () => {
    const missing = await refusal(LicenceState.open({ dataDir: freshFolder(), publicKey: join(root, 'no-such.pem') }));
    expect(missing).to.be.instanceOf(LicenceError).with.property('code', 'ERR_LICENCE_KEY_FILE');
    const privateKey = await refusal(LicenceState.open({ dataDir: freshFolder(), publicKey: vendor.privateKeyPem }));
    expect(privateKey).to.be.instanceOf(LicenceError).with.property('code', 'ERR_LICENCE_KEY_INVALID');
  });

  it('applies concurrent installs and removals one after another', async () => {
    const dataDir = freshFolder();
    const state = await open(dataDir);
    const results = await Promise.allSettled([state.install(tokenFor(state.nodeId)), state.remove(), state.install('bad'), state.install(tokenFor(state.nodeId, { licensee: 'Last' }))]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(state.licenceStatus().licensee).to.equal('Last');
    expect((await open(dataDir)).licenceStatus().licensee).to.equal('Last');
  });
});
