/**
 * Builds and starts the channel relay over a data folder: its database
 * (relay/relay.sqlite, under the relay folder's own lock), the API key
 * shared with the inspection service, the licence state, the service that
 * runs the channels, and the HTTP server. A server status record is written
 * at start and at stop; the channels running at the last stop start again.
 * The composition root of the relay: `klvscope relay` calls it.
 */
import type { ConnectionLimits } from '../http/connection-limits.js';
import { defaultDataDir, openRelayDatabase } from '@klvscope/core/store';
import { openUdpSource, type LiveSource } from '@klvscope/adapters';
import { LicenceState } from '../licence/index.js';
import { closeOnce, listenOrExplain, serviceUrl } from '../service-lifecycle.js';
import { resolveApiKey, type ApiKey } from '../http/api-key.js';
import { DEFAULT_HOST } from '../http/loopback-host.js';
import { webAppFiles } from '../http/web-app-files.js';
import { loadDocsFiles } from './docs-page.js';
import { DEFAULT_RELAY_PORT } from './relay-address.js';
import { RelayError } from './relay-error.js';
import { createRelayApp } from './relay-server.js';
import { RelayService } from './relay-service.js';
import { StreamDetector } from './stream-detector.js';

/** An input silent this long is reported as without signal. */
export const DEFAULT_NO_SIGNAL_MS = 2000;

export interface StartRelayOptions {
  /** Default KLVSCOPE_DATA_DIR or ./data. */
  dataDir?: string;
  /** Default 127.0.0.1. Another address makes the relay reachable from the network: then reads need the key too. */
  host?: string;
  /** Default 5173; 0 picks a free port. */
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** The API key (wins over KLVSCOPE_API_KEY and the data folder's api-key file). */
  apiKey?: string;
  /** Timeouts and caps of its connections (connection-limits.ts); tests make them small. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Silence before a channel reports no signal (default 2000 ms). */
  noSignalMs?: number;
  /** Opens a channel's input (default: the adapters' UDP source). */
  openSource?: (url: string) => Promise<LiveSource>;
  /** Told, for each datagram relayed, when it arrived (benchmarks). */
  onRelayed?: (receivedAt: number) => void;
  /** An input that cannot be opened is tried again this often (default 2 s). */
  inputRetryMs?: number;
  /** A failing input is reported again after this, then at doubling intervals up to an hour (default 60 s). */
  errorRepeatMs?: number;
  /** Log messages kept at most (default 10 000). */
  logMaxMessages?: number;
  /** Log messages older than this are deleted (default 30 days). */
  logMaxAgeMs?: number;
}

export interface RunningRelayServer {
  /** `http://127.0.0.1:5173` (the API is under /api). */
  url: string;
  port: number;
  dataDir: string;
  apiKey: ApiKey;
  service: RelayService;
  /** Channels started again at start (they were running at the last stop). */
  resumed: string[];
  /** Stops every channel (they stay marked as running for the next start), writes the stop record, closes the server and the database. Idempotent. */
  close(): Promise<void>;
  closed: Promise<void>;
}

export async function startRelayServer(options: StartRelayOptions = {}): Promise<RunningRelayServer> {
  const env = options.env ?? process.env;
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const host = options.host ?? DEFAULT_HOST;
  const database = await openRelayDatabase(dataDir);
  let service: RelayService | null = null;
  try {
    const apiKey = await resolveApiKey({ dataDir, key: options.apiKey, env });
    const licence = await LicenceState.open({ dataDir });
    const openSource = options.openSource ?? ((url: string) => openUdpSource(url));
    const { onRelayed, inputRetryMs, errorRepeatMs, logMaxMessages, logMaxAgeMs } = options;
    service = new RelayService({ database, openSource, noSignalMs: options.noSignalMs ?? DEFAULT_NO_SIGNAL_MS, onRelayed, inputRetryMs, errorRepeatMs, logMaxMessages, logMaxAgeMs });
    const detector = new StreamDetector(service, openSource);
    const { app } = createRelayApp({ service, detector, licence, apiKey }, { host, apiKey: apiKey.value, docs: await loadDocsFiles(), console: await webAppFiles('relay-console'), connectionLimits: options.connectionLimits });
    const port = await listenOrExplain(app, host, options.port ?? DEFAULT_RELAY_PORT, 'klvscope relay', (message, details) => new RelayError('ERR_LISTEN_FAILED', message, details));
    const running = service;
    running.recordServerStatus('running');
    const resumed = await running.resume();
    const { close, closed } = closeOnce(async () => {
      try {
        await app.close();
        await running.close();
      } finally {
        await database.close();
      }
    });
    return { url: serviceUrl(host, port), port, dataDir, apiKey, service: running, resumed, close, closed };
  } catch (error) {
    // A start that failed is a server status record too, with its reason.
    if (service !== null) {
      service.recordServerStatus('error', (error as Error).message);
      await service.save().catch(() => undefined);
    }
    await database.close();
    throw error;
  }
}
