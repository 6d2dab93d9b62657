/**
 * The work of `klvscope license keygen|issue|verify`, declared in
 * license-command.ts. Kept apart so that only these subcommands load the
 * licence modules (Ed25519 keys, the payload schema).
 */
import { open, mkdir, rm, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  expiryAfterDays,
  expiryFromText,
  generateVendorKeyPair,
  isNodeId,
  issueLicence,
  loadVendorPublicKey,
  parseVendorPrivateKey,
  publicKeyFingerprint,
  readKeyFile,
  verifyLicence,
  LICENCE_FORMAT_VERSION,
  type LicencePayload,
  type LicenceVerdict,
} from '../licence/index.js';
import { PRIVATE_KEY_FILE_NAME, PUBLIC_KEY_FILE_NAME, type LicenseIssueOptions, type LicenseKeygenOptions, type LicenseVerifyOptions } from './license-command.js';
import { UsageError } from './usage-error.js';

export async function runLicenseKeygen(options: LicenseKeygenOptions): Promise<void> {
  const folder = resolve(options.out);
  const privatePath = join(folder, PRIVATE_KEY_FILE_NAME);
  const publicPath = join(folder, PUBLIC_KEY_FILE_NAME);
  const pair = generateVendorKeyPair();
  await mkdir(folder, { recursive: true });
  await writeNewFile(privatePath, pair.privateKeyPem, 0o600);
  try {
    await writeNewFile(publicPath, pair.publicKeyPem, 0o644);
  } catch (error) {
    // Half a pair is no use and a stray private key is a risk.
    await rm(privatePath, { force: true });
    throw error;
  }
  process.stdout.write(
    `wrote ${privatePath} (private: keep it secret, never in a repository)\n` +
      `wrote ${publicPath} (public: configure it into the services that verify licences)\n` +
      `fingerprint ${publicKeyFingerprint(parseVendorPrivateKey(pair.privateKeyPem))}\n`,
  );
}

export async function runLicenseIssue(options: LicenseIssueOptions): Promise<void> {
  assertNodeId(options.nodeId);
  if (options.expires !== undefined && options.days !== undefined) throw new UsageError('give --expires or --days, not both');
  const privateKey = parseVendorPrivateKey(await readKeyFile(resolve(options.key)));
  const issuedAt = new Date();
  const payload: LicencePayload = {
    v: LICENCE_FORMAT_VERSION,
    nodeId: options.nodeId,
    licensee: options.licensee,
    features: options.feature,
    issuedAt: issuedAt.toISOString(),
    expiresAt: expiryOf(options, issuedAt),
  };
  const token = issueLicence(payload, privateKey);
  // The token alone on stdout, so it can be piped or redirected; the summary goes to stderr.
  process.stdout.write(`${token}\n`);
  process.stderr.write(`licence for ${payload.licensee} on ${payload.nodeId}, ${payload.expiresAt === null ? 'perpetual' : `valid until ${payload.expiresAt}`}, features: ${payload.features.join(', ') || '(none)'}\n`);
}

export async function runLicenseVerify(token: string, options: LicenseVerifyOptions): Promise<void> {
  assertNodeId(options.nodeId);
  const now = options.at === undefined ? new Date() : instantOf(options.at);
  const vendorKey = await loadVendorPublicKey(options.publicKey);
  const verdict = verifyLicence(token, vendorKey.key, { nodeId: options.nodeId, now });
  process.stdout.write(options.json ? `${JSON.stringify(verdict, null, 2)}\n` : verdictText(verdict));
  process.exitCode = verdict.status === 'valid' ? 0 : 1;
}

function verdictText(verdict: LicenceVerdict): string {
  const lines = [`${verdict.status}: ${verdict.reason}`];
  const payload = verdict.payload;
  if (payload) {
    lines.push(
      `  licensee  ${payload.licensee}`,
      `  node      ${payload.nodeId}`,
      `  features  ${payload.features.join(', ') || '(none)'}`,
      `  issued    ${payload.issuedAt}`,
      `  expires   ${payload.expiresAt ?? 'never (perpetual)'}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function expiryOf(options: LicenseIssueOptions, issuedAt: Date): string | null {
  if (options.expires !== undefined) return expiryFromText(options.expires, issuedAt);
  if (options.days === undefined) return null;
  if (!/^\d+$/.test(options.days)) throw new UsageError(`--days must be a positive whole number, got '${options.days}'`);
  return expiryAfterDays(Number(options.days), issuedAt);
}

function instantOf(text: string): Date {
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}(T.*)?$/.test(text) || !Number.isFinite(ms)) throw new UsageError(`--at must be an ISO 8601 date or date-time, got '${text}'`);
  return new Date(ms);
}

/** Creates `path` with `mode`, failing when it exists: keygen never replaces a key. */
async function writeNewFile(path: string, text: string, mode: number): Promise<void> {
  let file: FileHandle;
  try {
    file = await open(path, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UsageError(`${path} exists; keygen never overwrites a key (choose another --out)`);
    throw error;
  }
  try {
    await file.chmod(mode); // exactly this mode, whatever the umask
    await file.writeFile(text, 'utf8');
  } finally {
    await file.close();
  }
}

function assertNodeId(nodeId: string): void {
  if (!isNodeId(nodeId)) throw new UsageError(`--node-id must be node- and 32 lower-case hex digits, got '${nodeId}'`);
}
