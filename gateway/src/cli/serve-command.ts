/**
 * `klvscope serve`: the inspection service over a data folder, until SIGINT
 * or SIGTERM. Then it stops accepting, lets requests in flight end, stops the
 * services and closes the store (the catalog flushed, the folder's lock
 * released), and exits 0. A second signal exits at once.
 */
import { defaultDataDir } from '@klvscope/core/store';
import { API_KEY_ENV } from '../http/api-key.js';
import { startInspectionServer, type RunningInspectionServer } from '../inspection/inspection-server.js';
import { DEFAULT_PORT, PORT_ENV } from '../inspection/service-address.js';
import { loadConfiguredChecks } from './cli-checks.js';
import { mapTilesOf, type ServedMapTiles } from '../http/map-tile-routes.js';
import { portOption } from './port-option.js';
import { untilStopped, type StoppableService } from './until-stopped.js';
import { catalogUrlOption } from './catalog-url.js';
import { UsageError } from './usage-error.js';
import { join } from 'node:path';

export interface ServeOptions {
  dataDir?: string;
  port?: string;
  host?: string;
  /** The configuration file naming extra check modules (default ./klvscope.config.json when present). */
  config?: string;
  /** The fleet's PostgreSQL (docs/fleet.md); default $KLVSCOPE_CATALOG_URL, else none. */
  catalog?: string;
  /** With a fleet: run a worker in this process too. */
  worker?: boolean;
  /** A tile folder, an .mbtiles file or a tile URL for the dashboard's maps (map-tile-routes.ts). */
  tiles?: string;
}

export async function runServe(options: ServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const port = portOption(options.port, env[PORT_ENV], DEFAULT_PORT, PORT_ENV);
  const dataDir = options.dataDir ?? defaultDataDir(env);
  // The configured check modules join the built-in checks, as for `inspect`.
  const { checks } = await loadConfiguredChecks(options.config);
  const catalogUrl = catalogUrlOption(options.catalog, env);
  if (options.worker && catalogUrl === undefined) throw new UsageError('--worker runs a worker of a fleet: it needs --catalog postgres://… (or KLVSCOPE_CATALOG_URL)');
  const mapTiles = options.tiles === undefined ? null : await mapTilesOf(options.tiles);
  const server = await startInspectionServer({ dataDir, host: options.host, port, env, checks, catalogUrl, mapTiles }).catch((error: unknown) => {
    mapTiles?.local?.close();
    throw error;
  });
  const services: StoppableService[] = [server];
  if (options.worker && catalogUrl !== undefined) {
    const { FleetWorker } = await import('../fleet/fleet-worker.js');
    const worker = await FleetWorker.start({ catalogUrl, workDir: join(server.dataDir, 'worker'), checks: { checks: [...checks], rules: {} } });
    // Stopped before the server, so its jobs in progress are published first.
    services.unshift({ close: () => worker.stop() });
  }
  // Signals are handled before the banner tells anyone the service runs.
  const stopped = untilStopped(services, 'the inspection service');
  process.stdout.write(banner(server, mapTiles));
  await stopped;
  mapTiles?.local?.close();
  process.stdout.write('klvscope: stopped\n');
}

function banner(server: RunningInspectionServer, mapTiles: ServedMapTiles | null): string {
  const { filePath, source, created } = server.apiKey;
  const key = filePath !== null ? `${filePath}${created ? ' (new)' : ''}` : source === 'environment' ? `from ${API_KEY_ENV}` : 'given by the configuration';
  return [
    `klvscope inspection service on ${server.url}${server.urls.length > 1 ? `  (also ${server.urls.slice(1).join(', ')})` : ''}`,
    `  API key    ${key}  (send it in the X-API-Key header)`,
    `  dashboard  ${server.signInUrl}`,
    `  data       ${server.dataDir}`,
    ...(mapTiles === null ? [] : [`  map tiles  ${mapTiles.local?.path ?? mapTiles.url}`]),
    ...(server.fleet === null ? [] : [`  fleet      ${server.fleet}  (inspections run on its workers)`]),
    '  Ctrl+C stops it.',
    '',
  ].join('\n');
}
