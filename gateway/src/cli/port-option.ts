/** The port a service command listens on: its --port option, else the environment, else the default. */
import { UsageError } from './usage-error.js';

export function portOption(option: string | undefined, fromEnv: string | undefined, fallback: number, envName: string, optionName = '--port'): number {
  const [text, what] = option !== undefined ? [option, optionName] : fromEnv?.trim() ? [fromEnv.trim(), envName] : [String(fallback), 'port'];
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`${what} must be a port number from 0 to 65535 (0: any free port), got '${text}'`);
  return port;
}

