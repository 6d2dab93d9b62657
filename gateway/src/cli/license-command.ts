/**
 * `klvscope license keygen|issue|verify`: the vendor's side of licensing
 * (docs/licence.md). keygen makes the Ed25519 key pair, issue signs a token
 * for one node, verify judges a token as a service would. Exit codes: 0 done
 * (verify: valid), 1 verify found the token not valid, 2 bad usage or key.
 */
import { open, mkdir, rm, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  LicenceError,
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
import { UsageError } from './usage-error.js';

export const PRIVATE_KEY_FILE_NAME = 'vendor-private.pem';
export const PUBLIC_KEY_FILE_NAME = 'vendor-public.pem';

export interface LicenseKeygenOptions {
  out: string;
}

export interface LicenseIssueOptions {
  key: string;
  nodeId: string;
  licensee: string;
  feature: string[];
  expires?: string;
  days?: string;
}

export interface LicenseVerifyOptions {
  publicKey?: string;
  nodeId: string;
  at?: string;
  json?: boolean;
}

export function registerLicenseCommand(program: Command): Command {
  const license = program.command('license').description('licence keys and tokens: create a vendor key pair, issue a token for a node, verify a token');
  license
    .command('keygen')
    .description(`write a new Ed25519 vendor key pair: ${PRIVATE_KEY_FILE_NAME} (mode 0600, keep it secret) and ${PUBLIC_KEY_FILE_NAME}`)
    .requiredOption('--out <dir>', 'folder for the two PEM files (created; existing keys are never overwritten)')
    .action(async (options: LicenseKeygenOptions) => asUsageErrors(() => runLicenseKeygen(options)));
  license
    .command('issue')
    .description('print a licence token signed with the vendor private key')
    .requiredOption('--key <file>', `the vendor private key (${PRIVATE_KEY_FILE_NAME})`)
    .requiredOption('--node-id <id>', 'the node id the licence is for (GET /api/v1/config/nodeinfo of that service)')
    .requiredOption('--licensee <name>', 'who the licence is for')
    .option('--feature <name>', 'a licensed feature (repeatable, or comma-separated)', collectFeatures, [])
    .option('--expires <date>', 'last valid day (2027-12-31, through its end in UTC) or an ISO 8601 date-time with a zone')
    .option('--days <n>', 'valid for this many days from now')
    .action(async (options: LicenseIssueOptions) => asUsageErrors(() => runLicenseIssue(options)));
  license
    .command('verify')
    .description('print the verdict on a token for a node; exit 0 when valid, 1 otherwise')
    .argument('<token>', 'the licence token (klv1....)')
    .requiredOption('--node-id <id>', 'the node the token must be valid for')
    .option('--public-key <pem-or-file>', 'the vendor public key: a PEM file or PEM text (default: the key built into klvscope)')
    .option('--at <date-time>', 'judge expiry at this ISO 8601 instant instead of now')
    .option('--json', 'print the verdict as JSON')
    .action(async (token: string, options: LicenseVerifyOptions) => asUsageErrors(() => runLicenseVerify(token, options)));
  return license;
}

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
  if (!isNodeId(options.nodeId)) throw new UsageError(`--node-id must be node- and 32 lower-case hex digits, got '${options.nodeId}'`);
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
  if (!isNodeId(options.nodeId)) throw new UsageError(`--node-id must be node- and 32 lower-case hex digits, got '${options.nodeId}'`);
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

function collectFeatures(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((f) => f.trim()).filter((f) => f !== '')];
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

/** Licence errors here are the caller's to fix (a bad key file, a bad expiry): the CLI's usage exit, 2. */
async function asUsageErrors(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof LicenceError) throw new UsageError(error.message);
    throw error;
  }
}
