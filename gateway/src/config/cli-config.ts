/**
 * The command line's configuration file: `--config FILE`, or
 * `klvscope.config.json` in the working directory when present. It names
 * extra check modules, the profile and rule overrides. Paths in it are
 * relative to the file.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as z from 'zod/mini';
import { ensureEnglishZodMessages } from '@klvscope/core';
import { GatewayError } from '../gateway-error.js';

export const DEFAULT_CONFIG_FILE = 'klvscope.config.json';

const configSchema = z.strictObject({
  /** Check modules by path (relative to this file) or package name. */
  plugins: z._default(z.array(z.string().check(z.minLength(1))), []),
  /** Rule profile: 'stanag4609' (default) or 'tr101290'. */
  profile: z.optional(z.string().check(z.minLength(1))),
  /** Rule overrides, as in a --rules file. */
  rules: z.optional(z.record(z.string(), z.unknown())),
});

export type CliConfigFile = z.output<typeof configSchema>;

export interface CliConfig extends CliConfigFile {
  /** Where relative paths in the configuration are resolved from. */
  baseDir: string;
  /** The file read, or null when none was. */
  path: string | null;
}

export async function loadCliConfig(explicitPath: string | undefined, cwd = process.cwd()): Promise<CliConfig> {
  const path = explicitPath ? resolve(cwd, explicitPath) : resolve(cwd, DEFAULT_CONFIG_FILE);
  if (!explicitPath && !existsSync(path)) return { plugins: [], baseDir: cwd, path: null };
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new GatewayError('ERR_CONFIG_UNREADABLE', `configuration ${path} cannot be read: ${(cause as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new GatewayError('ERR_CONFIG_INVALID', `configuration ${path} is not valid JSON: ${(cause as Error).message}`);
  }
  ensureEnglishZodMessages();
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new GatewayError('ERR_CONFIG_INVALID', `configuration ${path}: ${problems.join('; ')}`);
  }
  return { ...parsed.data, baseDir: dirname(path), path };
}
