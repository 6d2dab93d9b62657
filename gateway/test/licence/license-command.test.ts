import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateNodeId, verifyLicence, type LicenceVerdict } from '../../src/licence/index.js';

const entry = fileURLToPath(new URL('./license-cli-entry.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');

function license(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--conditions=source', '--import', tsx, entry, 'license', ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('klvscope license', function () {
  this.timeout(60_000);
  const root = mkdtempSync(join(tmpdir(), 'klvscope-license-cli-'));
  const keys = join(root, 'keys');
  const privateKey = join(keys, 'vendor-private.pem');
  const publicKey = join(keys, 'vendor-public.pem');
  const node = generateNodeId();

  before(() => {
    const result = license('keygen', '--out', keys);
    expect(result.status, result.stderr).to.equal(0);
  });

  it('keygen writes a private key only its owner can read and a public key', function () {
    if (process.platform === 'win32') this.skip();
    expect(statSync(privateKey).mode & 0o777).to.equal(0o600);
    expect(statSync(publicKey).mode & 0o777).to.equal(0o644);
    expect(readFileSync(publicKey, 'utf8')).to.match(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  it('keygen refuses to overwrite an existing key, leaving both files as they were', () => {
    const before = [readFileSync(privateKey, 'utf8'), readFileSync(publicKey, 'utf8')];
    const again = license('keygen', '--out', keys);
    expect(again.status).to.equal(2);
    expect(again.stderr).to.match(/vendor-private\.pem exists; keygen never overwrites a key/);
    expect([readFileSync(privateKey, 'utf8'), readFileSync(publicKey, 'utf8')]).to.deep.equal(before);
  });

  it('keygen writes no private key when only the public one is in the way', () => {
    const folder = join(root, 'half');
    expect(license('keygen', '--out', folder).status).to.equal(0);
    const kept = readFileSync(join(folder, 'vendor-public.pem'), 'utf8');
    rmSync(join(folder, 'vendor-private.pem'));
    expect(license('keygen', '--out', folder).status).to.equal(2);
    expect(existsSync(join(folder, 'vendor-private.pem'))).to.be.false;
    expect(readFileSync(join(folder, 'vendor-public.pem'), 'utf8')).to.equal(kept);
  });

  it('issue prints a token that verify accepts for that node, exit 0', () => {
    const issued = license('issue', '--key', privateKey, '--node-id', node, '--licensee', 'ACME Ltd', '--feature', 'live', '--feature', 'export,archive', '--expires', '2999-12-31');
    expect(issued.status, issued.stderr).to.equal(0);
    const token = issued.stdout.trim();
    expect(issued.stdout).to.equal(`${token}\n`);
    expect(issued.stderr).to.equal(`licence for ACME Ltd on ${node}, valid until 2999-12-31T23:59:59.999Z, features: live, export, archive\n`);
    const checked = verifyLicence(token, readFileSync(publicKey, 'utf8'), { nodeId: node });
    expect(checked.status).to.equal('valid');
    expect(checked.payload).to.deep.include({ licensee: 'ACME Ltd', features: ['live', 'export', 'archive'], expiresAt: '2999-12-31T23:59:59.999Z' });

    const verified = license('verify', token, '--public-key', publicKey, '--node-id', node);
    expect(verified.status).to.equal(0);
    expect(verified.stdout).to.match(/^valid: licensed to ACME Ltd, valid until 2999-12-31T23:59:59\.999Z\n {2}licensee {2}ACME Ltd\n/);
  });

  it('verify exits with 1 and says why for another node, an expired token and another key', () => {
    const token = license('issue', '--key', privateKey, '--node-id', node, '--licensee', 'ACME', '--days', '30').stdout.trim();
    const other = generateNodeId();
    const wrongNode = license('verify', token, '--public-key', publicKey, '--node-id', other);
    expect(wrongNode.status).to.equal(1);
    expect(wrongNode.stdout).to.match(new RegExp(`^wrong-node: issued for node ${node}, this is node ${other}\n`));

    const expired = license('verify', token, '--public-key', publicKey, '--node-id', node, '--at', '2999-01-01T00:00:00Z', '--json');
    expect(expired.status).to.equal(1);
    expect((JSON.parse(expired.stdout) as LicenceVerdict).status).to.equal('expired');

    const builtIn = license('verify', token, '--node-id', node);
    expect(builtIn.status).to.equal(1);
    expect(builtIn.stdout).to.match(/^bad-signature: /);

    const garbage = license('verify', 'klv1.garbage', '--public-key', publicKey, '--node-id', node);
    expect(garbage.status).to.equal(1);
    expect(garbage.stdout).to.match(/^malformed: /);
  });

  it('issue without an expiry makes a perpetual licence', () => {
    const issued = license('issue', '--key', privateKey, '--node-id', node, '--licensee', 'ACME');
    expect(issued.status).to.equal(0);
    expect(verifyLicence(issued.stdout, readFileSync(publicKey, 'utf8'), { nodeId: node }).payload?.expiresAt).to.equal(null);
  });

  it('exits with 2 for bad usage: a missing key file, a public key to sign with, a bad node id, an expiry and days together', () => {
    const cases: Array<[string[], RegExp]> = [
      [['issue', '--key', join(root, 'none.pem'), '--node-id', node, '--licensee', 'A'], /key file .*none\.pem cannot be read/],
      [['issue', '--key', publicKey, '--node-id', node, '--licensee', 'A'], /not an Ed25519 private key/],
      [['issue', '--key', privateKey, '--node-id', 'my-laptop', '--licensee', 'A'], /--node-id must be node- and 32 lower-case hex digits/],
      [['issue', '--key', privateKey, '--node-id', node, '--licensee', 'A', '--expires', '2999-01-01', '--days', '3'], /give --expires or --days, not both/],
      [['issue', '--key', privateKey, '--node-id', node, '--licensee', 'A', '--expires', '2001-01-01'], /is not after the issue time/],
      [['issue', '--key', privateKey, '--node-id', node, '--licensee', 'A', '--days', 'ten'], /--days must be a positive whole number/],
      [['issue', '--key', privateKey, '--node-id', node, '--licensee', 'A', '--feature', 'Bad Feature'], /features\.0: must be lower-case/],
      [['issue', '--key', privateKey, '--node-id', node], /required option '--licensee <name>' not specified/],
      [['verify', 'klv1.a.b', '--node-id', node, '--public-key', privateKey], /this is a private key/],
      [['verify', 'klv1.a.b', '--node-id', node, '--at', 'soon'], /--at must be an ISO 8601 date/],
    ];
    for (const [args, message] of cases) {
      const result = license(...args);
      expect(result.status, args.join(' ')).to.equal(2);
      expect(result.stderr, args.join(' ')).to.match(message);
      expect(result.stdout, args.join(' ')).to.equal('');
    }
  });
});
