/**
 * The user and password of POST /command: from the configuration, else the
 * environment (KLVSCOPE_STREAM_USER and KLVSCOPE_STREAM_PASSWORD, both), else
 * the data folder's `stream-credentials` file (`user:password` on one line),
 * which the first start creates with the user `operator` and a random
 * password, readable by its owner only, as the inspection service's API key.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createOwnerOnlyFile } from '../owner-only-file.js';
import type { Credentials } from '../http/basic-credentials.js';
import { StreamingError } from './streaming-error.js';

export const STREAM_USER_ENV = 'KLVSCOPE_STREAM_USER';
export const STREAM_PASSWORD_ENV = 'KLVSCOPE_STREAM_PASSWORD';
export const CREDENTIALS_FILE_NAME = 'stream-credentials';
export const DEFAULT_STREAM_USER = 'operator';

export interface ResolvedCredentials extends Credentials {
  source: 'configuration' | 'environment' | 'file';
  /** The file, when they come from it. */
  filePath: string | null;
  /** True when this start created the file. */
  created: boolean;
}

export async function resolveStreamCredentials(dataDir: string, configured: Partial<Credentials>, env: NodeJS.ProcessEnv = process.env): Promise<ResolvedCredentials> {
  if (configured.user !== undefined && configured.password !== undefined) return { ...usable(configured.user, configured.password, 'the configuration'), source: 'configuration', filePath: null, created: false };
  const user = env[STREAM_USER_ENV];
  const password = env[STREAM_PASSWORD_ENV];
  if (user !== undefined && password !== undefined) return { ...usable(user, password, `${STREAM_USER_ENV}/${STREAM_PASSWORD_ENV}`), source: 'environment', filePath: null, created: false };
  const filePath = join(dataDir, CREDENTIALS_FILE_NAME);
  await mkdir(dataDir, { recursive: true });
  const created = await createFile(filePath);
  if (created) return { ...created, source: 'file', filePath, created: true };
  if (process.platform !== 'win32' && ((await stat(filePath)).mode & 0o077) !== 0) {
    throw new StreamingError('ERR_CREDENTIALS_FILE_UNUSABLE', `the credentials file ${filePath} can be read by other users: run 'chmod 600 ${filePath}', or delete it to get new credentials`, { path: filePath });
  }
  const line = (await readFile(filePath, 'utf8')).trim();
  const colon = line.indexOf(':');
  if (colon <= 0) throw new StreamingError('ERR_CREDENTIALS_FILE_UNUSABLE', `the credentials file ${filePath} holds no 'user:password' line: fix it, or delete it to get new credentials`, { path: filePath });
  return { ...usable(line.slice(0, colon), line.slice(colon + 1), `the credentials file ${filePath}`), source: 'file', filePath, created: false };
}

/** Creates the file exclusively, mode 0600, with new credentials; null when it exists already. */
async function createFile(path: string): Promise<Credentials | null> {
  const credentials = { user: DEFAULT_STREAM_USER, password: randomBytes(18).toString('base64url') };
  return (await createOwnerOnlyFile(path, `${credentials.user}:${credentials.password}\n`)) ? credentials : null;
}

/** A user without colon or space and a password without space (the spec's header form separates them by a space), both visible ASCII. */
function usable(user: string, password: string, what: string): Credentials {
  if (!/^[\x21-\x39\x3b-\x7e]{1,128}$/.test(user) || !/^[\x21-\x7e]{1,256}$/.test(password)) {
    throw new StreamingError('ERR_STREAM_CONFIG_INVALID', `${what}: the user needs 1 to 128 visible ASCII characters without ':' and the password 1 to 256, no spaces`);
  }
  return { user, password };
}
