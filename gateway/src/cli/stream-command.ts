/**
 * `klvscope stream`: the streaming module alone, until SIGINT, SIGTERM or the
 * `streamer exit` command; then it stops the source and the recorder, closes
 * every viewer and its sockets, and exits 0. A second signal exits at once.
 */
import { defaultDataDir } from '@klvscope/core/store';
import { startStreamingServer, type RunningStreamingServer } from '../streaming/start-streaming-server.js';
import { DEFAULT_STREAMING_PORT, STREAM_PORT_ENV, type StreamingConfig } from '../streaming/streaming-config.js';
import { mapTilesOf } from '../http/map-tile-routes.js';
import { portOption } from './port-option.js';
import { untilStopped } from './until-stopped.js';
import { UsageError } from './usage-error.js';

export interface StreamOptions {
  source?: string;
  capture?: string;
  captureFormat?: string;
  port?: string;
  host?: string;
  dataDir?: string;
  channel?: string;
  mission?: string;
  maxViewers?: string;
  passThrough?: boolean;
  videoBitrate?: string;
  videoResolution?: string;
  recordings?: string;
  recorder?: boolean;
  recordingsKeepGb?: string;
  mapTiles?: string;
  /** A tile folder, an .mbtiles file or a tile URL (map-tile-routes.ts). */
  tiles?: string;
}

export async function runStream(options: StreamOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const mapTiles = options.tiles === undefined ? null : await mapTilesOf(options.tiles);
  const server = await startStreamingServer({ dataDir, host: options.host, port: portOption(options.port, env[STREAM_PORT_ENV], DEFAULT_STREAMING_PORT, STREAM_PORT_ENV), env, config: streamConfigOptions(options), mapTiles }).catch((error: unknown) => {
    mapTiles?.local?.close();
    throw error;
  });
  // Signals are handled before the banner tells anyone the module runs.
  const stopped = untilStopped([server], 'the streaming module');
  process.stdout.write(streamBanner(server));
  await stopped;
  mapTiles?.local?.close();
  process.stdout.write('klvscope: stopped\n');
}

/** The configuration the command line sets (the rest keeps its defaults). */
export function streamConfigOptions(options: StreamOptions): Partial<StreamingConfig> {
  const config: Partial<StreamingConfig> = {};
  if (options.source !== undefined) config.source = options.source;
  if (options.capture !== undefined) config.captureDevice = options.capture;
  if (options.captureFormat !== undefined) config.captureFormat = options.captureFormat;
  if (options.channel !== undefined) config.channelName = options.channel;
  if (options.mission !== undefined) config.missionName = options.mission;
  if (options.maxViewers !== undefined) config.concurrentClients = wholeNumber(options.maxViewers, '--max-viewers');
  if (options.passThrough === false) config.videoPassThrough = false;
  if (options.videoBitrate !== undefined) config.videoBitrate = wholeNumber(options.videoBitrate, '--video-bitrate');
  if (options.videoResolution !== undefined) config.videoResolution = options.videoResolution;
  if (options.recordings !== undefined) config.recordingsDir = options.recordings;
  if (options.recorder === false) config.recorderEnabled = false;
  if (options.recordingsKeepGb !== undefined) config.recordingsKeepBytes = gigabytes(options.recordingsKeepGb, '--recordings-keep-gb');
  if (options.mapTiles !== undefined) config.mapTileUrl = options.mapTiles;
  return config;
}

export function streamBanner(server: RunningStreamingServer): string {
  const { credentials } = server;
  const who = credentials.filePath !== null ? `${credentials.filePath}${credentials.created ? ' (new)' : ''}` : `from the ${credentials.source}`;
  return [
    `klvscope streaming module on ${server.url}  (viewer: ${server.url}/)`,
    `  source     ${server.config.captureDevice !== null ? `capture device ${server.config.captureDevice} (${server.config.captureFormat}, through ffmpeg)` : (server.config.source ?? 'the built-in demo')}`,
    `  commands   POST ${server.url}/command, user and password: ${who}`,
    `  recordings ${server.config.recordingsDir}`,
    ...(server.config.mapTileUrl === null ? [] : [`  map tiles  ${server.config.mapTileUrl}`]),
    '',
  ].join('\n');
}

/** A size in GB (10^9 bytes, as disks are sold), decimals allowed: 0.5 is 500 MB. */
function gigabytes(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw new UsageError(`${what} must be a number of GB above 0, e.g. 500 or 0.5, got '${text}'`);
  return Math.round(n * 1e9);
}

function wholeNumber(text: string, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) throw new UsageError(`${what} must be a whole number, got '${text}'`);
  return n;
}
