/** Where the store keeps its files when the caller does not say. */
import { resolve } from 'node:path';

export const DATA_DIR_ENV = 'KLVSCOPE_DATA_DIR';

/** `KLVSCOPE_DATA_DIR` when set (relative to `cwd`), else `./data` in `cwd`; always absolute. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const configured = env[DATA_DIR_ENV]?.trim();
  return resolve(cwd, configured ? configured : 'data');
}
