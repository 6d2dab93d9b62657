/**
 * The service's API key: given by the embedding program (option), by the
 * environment (KLVSCOPE_API_KEY), or else kept in the data folder's `api-key`
 * file, which the first start creates with 256 random bits, readable by its
 * owner only. Resolve it under the data folder's lock (Store.open), so no
 * other process creates or rewrites the file meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { open, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOwnerOnlyFile } from '../owner-only-file.js';
import { InspectionError } from '../inspection/inspection-error.js';

export const API_KEY_ENV = 'KLVSCOPE_API_KEY';
export const API_KEY_FILE_NAME = 'api-key';
/** Node lowercases header names. */
export const API_KEY_HEADER = 'x-api-key';

export type ApiKeySource = 'option' | 'environment' | 'file';

export interface ApiKey {
  readonly value: string;
  readonly source: ApiKeySource;
  /** The key file, when the key comes from it. */
  readonly filePath: string | null;
  /** True when this start created the file. */
  readonly created: boolean;
}

export interface ApiKeyOptions {
  dataDir: string;
  /** A key given by the embedding program: wins over the environment and the file. */
  key?: string;
  env?: NodeJS.ProcessEnv;
}

// Visible ASCII only (a header value carries nothing else safely), and long enough not to be guessed.
const USABLE_KEY = /^[\x21-\x7e]{16,512}$/;

export async function resolveApiKey(options: ApiKeyOptions): Promise<ApiKey> {
  if (options.key !== undefined) return { value: usableKey(options.key, 'the configured API key'), source: 'option', filePath: null, created: false };
  const fromEnv = (options.env ?? process.env)[API_KEY_ENV]?.trim();
  if (fromEnv) return { value: usableKey(fromEnv, API_KEY_ENV), source: 'environment', filePath: null, created: false };
  return keyFromFile(join(options.dataDir, API_KEY_FILE_NAME));
}

/** 256 bits from the system's CSPRNG, as base64url (43 characters, header-safe). */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

async function keyFromFile(path: string): Promise<ApiKey> {
  const created = await createKeyFile(path);
  if (created) return { value: created, source: 'file', filePath: path, created: true };
  await assertOwnerOnly(path);
  const text = (await readText(path)).trim();
  if (text === '') {
    // A start killed between creating the file and writing it: the file never held a key anyone uses.
    const key = generateApiKey();
    await writeFile(path, `${key}\n`, { mode: 0o600 });
    return { value: key, source: 'file', filePath: path, created: true };
  }
  return { value: usableKey(text, `the key file ${path}`), source: 'file', filePath: path, created: false };
}

/** Creates the file exclusively with mode 0600 and a new key; null when it exists already. */
async function createKeyFile(path: string): Promise<string | null> {
  const key = generateApiKey();
  return (await createOwnerOnlyFile(path, `${key}\n`)) ? key : null;
}

async function readText(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** As ssh does with its keys: a key file others can read is no secret any more, so refuse it rather than use it. */
async function assertOwnerOnly(path: string): Promise<void> {
  if (process.platform === 'win32') return; // POSIX mode bits mean nothing there
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) {
    throw new InspectionError('ERR_API_KEY_FILE_INSECURE', `the API key file ${path} can be read by other users (mode ${(mode & 0o777).toString(8)}): run 'chmod 600 ${path}', or delete it to get a new key`, {
      path,
      mode: (mode & 0o777).toString(8),
    });
  }
}

function usableKey(key: string, what: string): string {
  if (!USABLE_KEY.test(key)) {
    throw new InspectionError('ERR_API_KEY_UNUSABLE', `${what} is not a usable API key: it needs 16 to 512 visible ASCII characters, no spaces`, { source: what });
  }
  return key;
}
