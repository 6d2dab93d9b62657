/**
 * The files of the data folder that hold the service's own secrets: the API
 * key, the streaming module's credentials, the licence and a vendor key.
 * A data folder made a browse root (or lying inside one) must not offer them
 * to the file browser: a page that can list them can be led to show them.
 */
import { join } from 'node:path';
import { API_KEY_FILE_NAME } from '../http/api-key.js';
import { LICENCE_FILE_NAME } from '../licence/licence-state.js';
import { CREDENTIALS_FILE_NAME } from '../streaming/stream-credentials.js';
import { PRIVATE_KEY_FILE_NAME } from '../cli/license-command.js';

export function serviceSecretPaths(dataDir: string): ReadonlySet<string> {
  return new Set([API_KEY_FILE_NAME, CREDENTIALS_FILE_NAME, LICENCE_FILE_NAME, PRIVATE_KEY_FILE_NAME].map((name) => join(dataDir, name)));
}
