/**
 * `klvscope license keygen|issue|verify`: the vendor's side of licensing
 * (docs/licence.md). keygen makes the Ed25519 key pair, issue signs a token
 * for one node, verify judges a token as a service would. Exit codes: 0 done
 * (verify: valid), 1 verify found the token not valid, 2 bad usage or key.
 * This file declares the subcommands; their work (license-actions.ts) is
 * loaded only when one of them runs.
 */
import type { Command } from 'commander';
// The error class alone, not the licence entry: that loads the crypto and schema modules this file defers.
import { LicenceError } from '../licence/licence-error.js';
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

// Loaded on demand, like serve: key handling, crypto and the payload schema cost the other commands nothing at start-up.
const loadActions = () => import('./license-actions.js');

export function registerLicenseCommand(program: Command): Command {
  const license = program.command('license').description('licence keys and tokens: create a vendor key pair, issue a token for a node, verify a token');
  license
    .command('keygen')
    .description(`write a new Ed25519 vendor key pair: ${PRIVATE_KEY_FILE_NAME} (mode 0600, keep it secret) and ${PUBLIC_KEY_FILE_NAME}`)
    .requiredOption('--out <dir>', 'folder for the two PEM files (created; existing keys are never overwritten)')
    .action(async (options: LicenseKeygenOptions) => asUsageErrors(async () => (await loadActions()).runLicenseKeygen(options)));
  license
    .command('issue')
    .description('print a licence token signed with the vendor private key')
    .requiredOption('--key <file>', `the vendor private key (${PRIVATE_KEY_FILE_NAME})`)
    .requiredOption('--node-id <id>', 'the node id the licence is for (GET /api/v1/config/nodeinfo of that service)')
    .requiredOption('--licensee <name>', 'who the licence is for')
    .option('--feature <name>', 'a licensed feature (repeatable, or comma-separated)', collectFeatures, [])
    .option('--expires <date>', 'last valid day (2027-12-31, through its end in UTC) or an ISO 8601 date-time with a zone')
    .option('--days <n>', 'valid for this many days from now')
    .action(async (options: LicenseIssueOptions) => asUsageErrors(async () => (await loadActions()).runLicenseIssue(options)));
  license
    .command('verify')
    .description('print the verdict on a token for a node; exit 0 when valid, 1 otherwise')
    .argument('<token>', 'the licence token (klv1....)')
    .requiredOption('--node-id <id>', 'the node the token must be valid for')
    .option('--public-key <pem-or-file>', 'the vendor public key: a PEM file or PEM text (default: the key built into klvscope)')
    .option('--at <date-time>', 'judge expiry at this ISO 8601 instant instead of now')
    .option('--json', 'print the verdict as JSON')
    .action(async (token: string, options: LicenseVerifyOptions) => asUsageErrors(async () => (await loadActions()).runLicenseVerify(token, options)));
  return license;
}

function collectFeatures(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((f) => f.trim()).filter((f) => f !== '')];
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
