/**
 * `klvscope relay`: the channel relay alone, until SIGINT or SIGTERM; then
 * it stops every channel (marked to start again at the next start), writes
 * the stop record, and exits 0. A second signal exits at once.
 */
import { defaultDataDir } from '@klvscope/core/store';
import { DEFAULT_RELAY_PORT, RELAY_API_PREFIX, RELAY_PORT_ENV } from '../relay/relay-address.js';
import { startRelayServer, type RunningRelayServer } from '../relay/start-relay-server.js';
import { portOption } from './port-option.js';
import { UsageError } from './usage-error.js';
import { untilStopped } from './until-stopped.js';

export interface RelayOptions {
  port?: string;
  host?: string;
  dataDir?: string;
  logMaxMessages?: string;
  logMaxAgeDays?: string;
}

export async function runRelay(options: RelayOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const logMaxMessages = positiveOption(options.logMaxMessages, '--log-max-messages');
  const logMaxAgeDays = positiveOption(options.logMaxAgeDays, '--log-max-age-days');
  const logMaxAgeMs = logMaxAgeDays === undefined ? undefined : logMaxAgeDays * 24 * 3600 * 1000;
  const server = await startRelayServer({ dataDir, host: options.host, port: portOption(options.port, env[RELAY_PORT_ENV], DEFAULT_RELAY_PORT, RELAY_PORT_ENV), env, logMaxMessages, logMaxAgeMs });
  const stopped = untilStopped([server], 'the channel relay');
  process.stdout.write(relayBanner(server, process.stdout.isTTY === true));
  await stopped;
  process.stdout.write('klvscope: stopped\n');
}

/**
 * What the relay prints at start. The sign-in address holds the key: it is printed only to a terminal, never
 * where service logs (journald, docker logs) would keep it; elsewhere the console's address and the key file.
 */
function positiveOption(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text)) throw new UsageError(`${flag} must be a positive whole number, got '${text}'`);
  return Number(text);
}

export function relayBanner(server: RunningRelayServer, terminal: boolean): string {
  const key = server.apiKey.filePath !== null ? `${server.apiKey.filePath}${server.apiKey.created ? ' (new)' : ''}` : `from the ${server.apiKey.source}`;
  const console = terminal ? `${consoleSignInUrl(server)}  (opens the console signed in; the page then drops the key from the address bar)` : `${server.url}/  (sign in with the API key)`;
  return [
    `klvscope channel relay on ${server.url}${RELAY_API_PREFIX}  (docs: ${server.url}${RELAY_API_PREFIX}/docs/)`,
    `  console    ${console}`,
    `  API key    ${key}  (send it in the X-API-Key header to change anything)`,
    `  data       ${server.dataDir}`,
    `  channels   ${server.resumed.length === 0 ? 'none running' : `${server.resumed.length} started again: ${server.resumed.join(', ')}`}`,
    '',
  ].join('\n');
}

/** The console with the key in the fragment, which browsers never send to a server. */
export function consoleSignInUrl(server: Pick<RunningRelayServer, 'url' | 'apiKey'>): string {
  return `${server.url}/#key=${encodeURIComponent(server.apiKey.value)}`;
}
