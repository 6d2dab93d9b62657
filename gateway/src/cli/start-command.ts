/**
 * `klvscope start` (what `npm start` runs): every service on loopback over one
 * data folder: the inspection service (38180), the streaming module (4000, on
 * the built-in demo unless a source is given) and the channel relay (5173).
 * Prints their URLs; SIGINT or SIGTERM stops them all. The streaming module's
 * `exit` command ends that module only; the others run on until a signal.
 */
import { catalogUrlOption } from './catalog-url.js';
import { defaultDataDir } from '@klvscope/core/store';
import { startInspectionServer } from '../inspection/inspection-server.js';
import { DEFAULT_PORT, PORT_ENV } from '../inspection/service-address.js';
import { DEFAULT_RELAY_PORT, RELAY_PORT_ENV } from '../relay/relay-address.js';
import { startRelayServer } from '../relay/start-relay-server.js';
import { startStreamingServer } from '../streaming/start-streaming-server.js';
import { DEFAULT_STREAMING_PORT, STREAM_PORT_ENV } from '../streaming/streaming-config.js';
import { loadConfiguredChecks } from './cli-checks.js';
import { mapTilesOf } from '../http/map-tile-routes.js';
import { portOption } from './port-option.js';
import { relayBanner } from './relay-command.js';
import { streamBanner, streamConfigOptions, type StreamOptions } from './stream-command.js';
import { untilStopped } from './until-stopped.js';

export interface StartOptions extends StreamOptions {
  /** The fleet's PostgreSQL (docs/fleet.md); default $KLVSCOPE_CATALOG_URL, else none. */
  catalog?: string;
  streamPort?: string;
  relayPort?: string;
  config?: string;
}

export async function runStart(options: StartOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const { checks } = await loadConfiguredChecks(options.config);
  const catalogUrl = catalogUrlOption(options.catalog, env);
  // One copy of the tiles for both maps: the dashboard's and the viewer's.
  const mapTiles = options.tiles === undefined ? null : await mapTilesOf(options.tiles);
  let inspection;
  try {
    inspection = await startInspectionServer({ dataDir, port: portOption(options.port, env[PORT_ENV], DEFAULT_PORT, PORT_ENV), env, checks, catalogUrl, mapTiles });
  } catch (error) {
    mapTiles?.local?.close();
    throw error;
  }
  let streaming;
  let relay;
  try {
    streaming = await startStreamingServer({ dataDir, port: portOption(options.streamPort, env[STREAM_PORT_ENV], DEFAULT_STREAMING_PORT, STREAM_PORT_ENV, '--stream-port'), env, config: streamConfigOptions(options), mapTiles });
    relay = await startRelayServer({ dataDir, port: portOption(options.relayPort, env[RELAY_PORT_ENV], DEFAULT_RELAY_PORT, RELAY_PORT_ENV, '--relay-port'), env });
  } catch (error) {
    await Promise.all([inspection.close(), streaming?.close()]);
    mapTiles?.local?.close();
    throw error;
  }
  // Signals are handled before the banner tells anyone the services run.
  const stopped = untilStopped([streaming, relay, inspection], 'every service');
  const key = inspection.apiKey.filePath ?? `from ${inspection.apiKey.source}`;
  process.stdout.write(
    [`klvscope inspection service on ${inspection.url}`, `  API key    ${key}  (send it in the X-API-Key header)`, `  dashboard  ${inspection.signInUrl}`, `  data       ${inspection.dataDir}`, streamBanner(streaming) + relayBanner(relay, process.stdout.isTTY === true), 'Ctrl+C stops every service.', ''].join('\n'),
  );
  await stopped;
  mapTiles?.local?.close();
  process.stdout.write('klvscope: stopped\n');
}
