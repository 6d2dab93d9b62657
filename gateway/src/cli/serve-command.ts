/**
 * `klvscope serve`: the inspection service over a data folder, until SIGINT
 * or SIGTERM. Then it stops accepting, lets requests in flight end, stops the
 * services and closes the store (the catalog flushed, the folder's lock
 * released), and exits 0. A second signal exits at once.
 */
import { defaultDataDir } from '@klvscope/core/store';
import { API_KEY_ENV } from '../inspection/api-key.js';
import { startInspectionServer, type RunningInspectionServer } from '../inspection/inspection-server.js';
import { DEFAULT_PORT, PORT_ENV } from '../inspection/service-address.js';
import { loadConfiguredChecks } from './cli-checks.js';
import { UsageError } from './usage-error.js';

export interface ServeOptions {
  dataDir?: string;
  port?: string;
  host?: string;
  /** The configuration file naming extra check modules (default ./klvscope.config.json when present). */
  config?: string;
}

export async function runServe(options: ServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const port = parsePort(options.port, env);
  const dataDir = options.dataDir ?? defaultDataDir(env);
  // The configured check modules join the built-in checks, as for `inspect`.
  const { checks } = await loadConfiguredChecks(options.config);
  const server = await startInspectionServer({ dataDir, host: options.host, port, env, checks });
  process.stdout.write(banner(server));
  await untilStopped(server);
  process.stdout.write('klvscope: stopped\n');
}

function parsePort(option: string | undefined, env: NodeJS.ProcessEnv): number {
  const fromEnv = env[PORT_ENV]?.trim();
  const [text, what] = option !== undefined ? [option, '--port'] : fromEnv ? [fromEnv, PORT_ENV] : [String(DEFAULT_PORT), 'port'];
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`${what} must be a port number from 0 to 65535 (0: any free port), got '${text}'`);
  return port;
}

function banner(server: RunningInspectionServer): string {
  const { filePath, source, created } = server.apiKey;
  const key = filePath !== null ? `${filePath}${created ? ' (new)' : ''}` : source === 'environment' ? `from ${API_KEY_ENV}` : 'given by the configuration';
  return [
    `klvscope inspection service on ${server.url}${server.urls.length > 1 ? `  (also ${server.urls.slice(1).join(', ')})` : ''}`,
    `  API key    ${key}  (send it in the X-API-Key header)`,
    `  data       ${server.dataDir}`,
    '  Ctrl+C stops it.',
    '',
  ].join('\n');
}

function untilStopped(server: RunningInspectionServer): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        process.stderr.write(`klvscope: ${signal} again: exiting without waiting\n`);
        process.exit(1);
      }
      stopping = true;
      process.stderr.write(`klvscope: ${signal}: stopping the inspection service\n`);
      server.close().then(
        () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        },
        reject,
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
