/**
 * Builds and starts the streaming module over a data folder: the
 * configuration, the credentials of POST /command, the licence state (for
 * /info), the source (the configured URL, else the built-in demo), the
 * recorder, the viewer's files, and the HTTP server. The composition root
 * of the module: `klvscope stream` and `klvscope start` call it.
 */
import type { ConnectionLimits } from '../http/connection-limits.js';
import { defaultDataDir } from '@klvscope/core/store';
import { openCaptureSource, openLiveSource, Transcoder, TsRecorder, type LiveSource } from '@klvscope/adapters';
import { LicenceState } from '../licence/index.js';
import { closeOnce, listenOrExplain, serviceUrl } from '../service-lifecycle.js';
import { DEFAULT_HOST } from '../http/loopback-host.js';
import { openDemoSource } from './demo-source.js';
import { webAppFiles } from '../http/web-app-files.js';
import type { ServedMapTiles } from '../http/map-tile-routes.js';
import { resolveStreamCredentials, type ResolvedCredentials } from './stream-credentials.js';
import { disabledRecorder, type StreamRecorder } from './stream-recorder.js';
import { assertStreamingConfig, defaultStreamingConfig, DEFAULT_STREAMING_PORT, type StreamingConfig } from './streaming-config.js';
import { StreamingError } from './streaming-error.js';
import { StreamingModule } from './streaming-module.js';
import { createStreamingApp } from './streaming-server.js';

export interface StartStreamingOptions {
  /** Default KLVSCOPE_DATA_DIR or ./data. */
  dataDir?: string;
  /** Default 127.0.0.1 (with ::1 where it can be bound is not attempted: one address). */
  host?: string;
  /** Default 4000; 0 picks a free port. */
  port?: number;
  /** Settings over the defaults of streaming-config.ts. */
  config?: Partial<StreamingConfig>;
  env?: NodeJS.ProcessEnv;
  /** Opens the configured source URL (default: the adapters' UDP, serial and file sources). */
  openSource?: (url: string) => Promise<LiveSource>;
  /** Told how long after its arrival each chunk went to the viewers, in ms (benchmarks). */
  onViewerSend?: (latencyMs: number) => void;
  /** Timeouts and caps of its connections (connection-limits.ts); tests make them small. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Map imagery for the viewer (`--tiles`), at GET /tiles: its URL becomes the viewer's `mapTileUrl`; the caller closes local tiles. */
  mapTiles?: ServedMapTiles | null;
  /** `streamer exit` (default: close the server). */
  onExit?: (server: RunningStreamingServer) => void;
}

export interface RunningStreamingServer {
  /** `http://127.0.0.1:4000` */
  url: string;
  port: number;
  dataDir: string;
  config: StreamingConfig;
  credentials: ResolvedCredentials;
  module: StreamingModule;
  /** Stops the source and the recorder, closes every viewer and the server. Idempotent. */
  close(): Promise<void>;
  /** Settles once closed (by close(), or by `streamer exit`). */
  closed: Promise<void>;
}

export async function startStreamingServer(options: StartStreamingOptions = {}): Promise<RunningStreamingServer> {
  const env = options.env ?? process.env;
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const config: StreamingConfig = { ...defaultStreamingConfig(dataDir), ...options.config };
  if (options.mapTiles) config.mapTileUrl = options.mapTiles.url;
  assertStreamingConfig(config);
  const credentials = await resolveStreamCredentials(dataDir, { user: config.user, password: config.password }, env);
  const licence = await LicenceState.open({ dataDir });
  const openSource = options.openSource ?? openLiveSource;
  let module: StreamingModule | null = null;
  const recorder: StreamRecorder = config.recorderEnabled
    ? new TsRecorder({
        folder: config.recordingsDir,
        channelName: config.channelName,
        missionName: () => module?.missionName() || null,
        rotateBytes: config.recordingMaxBytes,
        rotateSeconds: config.recordingMaxSeconds ?? Infinity,
        keepBytes: config.recordingsKeepBytes ?? Infinity,
      })
    : disabledRecorder();
  module = new StreamingModule({
    config,
    recorder,
    onViewerSend: options.onViewerSend,
    openTranscoder: ({ videoBitrate, size }) => new Transcoder({ videoBitrate, size }),
    openSource: () => {
      if (config.captureDevice !== null) return openCaptureSource({ device: config.captureDevice, format: config.captureFormat, videoBitrate: config.videoBitrate });
      return config.source === null ? openDemoSource() : openSource(config.source);
    },
  });
  const host = options.host ?? DEFAULT_HOST;
  let running: RunningStreamingServer | null = null;
  const app = createStreamingApp(
    {
      config,
      module,
      recorder,
      licence,
      credentials,
      viewer: await webAppFiles('viewer'),
      mapTiles: options.mapTiles ?? null,
      onExit: () => (options.onExit ?? ((server) => void server.close()))(running as RunningStreamingServer),
    },
    { host, port: options.port ?? DEFAULT_STREAMING_PORT, connectionLimits: options.connectionLimits },
  );
  const port = await listenOrExplain(app, host, options.port ?? DEFAULT_STREAMING_PORT, 'klvscope stream', (message, details) => new StreamingError('ERR_LISTEN_FAILED', message, details));
  module.startStreaming();
  const { close, closed } = closeOnce(() => app.close());
  running = { url: serviceUrl(host, port), port, dataDir, config, credentials, module, close, closed };
  return running;
}
