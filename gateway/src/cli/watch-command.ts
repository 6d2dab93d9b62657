/**
 * `klvscope watch`: a terminal client of the live-findings channel. It
 * subscribes over WebSocket (tRPC) and prints each finding as it arrives,
 * one line each (or NDJSON with --json), until Ctrl+C. A dropped connection
 * is retried, and the subscription resumes after the last finding printed,
 * so nothing is printed twice and nothing kept by the service is missed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultDataDir } from '@klvscope/core/store';
import { createTRPCClient, createWSClient, wsLink, type TRPCClientError } from '@trpc/client';
import WebSocket from 'ws';
import { API_KEY_ENV, API_KEY_FILE_NAME, API_KEY_HEADER } from '../http/api-key.js';
import { API_PREFIX, DEFAULT_PORT, LIVE_CHANNEL_PATH, PORT_ENV } from '../inspection/service-address.js';
import { OTHER_PIDS } from '../live/finding-coalescer.js';
import type { LiveFinding, LiveStatistics } from '../live/live-records.js';
import type { LiveRouter } from '../live/live-router.js';
import { statisticsLine } from './live-statistics-line.js';
import { UsageError } from './usage-error.js';

export interface WatchOptions {
  url?: string;
  port?: string;
  apiKey?: string;
  dataDir?: string;
  check: string[];
  severity?: string;
  statistics?: boolean;
  json?: boolean;
  /** Exit after this many findings (scripts, tests): occurrences, a record counting as many as it stands for. */
  max?: number;
  /** On a hub: every probe's findings (docs/fleet.md "Probes"). */
  fleet?: boolean;
  /** On a hub: only these probes' (implies fleet). */
  probe?: string[];
}

const SEVERITIES = ['info', 'warning', 'error'] as const;
type MinSeverity = (typeof SEVERITIES)[number];

/** Runs until Ctrl+C (or --max findings); resolves with the exit code. */
export async function runWatch(options: WatchOptions, env: NodeJS.ProcessEnv = process.env, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const url = channelUrl(options, env);
  const apiKey = await apiKeyFor(options, env);
  const minSeverity = parseSeverity(options.severity);
  await assertKeyAccepted(url, apiKey);
  const wsClient = createWSClient({
    url,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: { apiKey },
    retryDelayMs: (attempt) => Math.min(5_000, 250 * 2 ** attempt),
    onOpen: () => process.stderr.write(`klvscope watch: connected to ${url}\n`),
    onClose: (cause) => process.stderr.write(`klvscope watch: connection closed${cause?.code ? ` (${cause.code})` : ''}; reconnecting\n`),
  });
  const client = createTRPCClient<LiveRouter>({ links: [wsLink({ client: wsClient })] });
  let printed = 0;
  return new Promise<number>((resolve) => {
    const subscriptions: Array<{ unsubscribe(): void }> = [];
    const finish = (code: number): void => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      void wsClient.close().finally(() => resolve(code));
    };
    const onSignal = (): void => finish(0);
    const onError = (error: TRPCClientError<LiveRouter>): void => {
      const unauthorized = error.data?.code === 'UNAUTHORIZED';
      process.stderr.write(`klvscope watch: ${error.message}\n`);
      finish(unauthorized ? 2 : 1);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const onFinding = (data: LiveFinding & { probe?: string }): void => {
      out.write(options.json ? `${JSON.stringify(data)}\n` : `${probePrefix(data)}${findingLine(data)}\n`);
      printed += data.count;
      if (options.max !== undefined && printed >= options.max) finish(0);
    };
    const onStatistics = (data: LiveStatistics & { probe?: string }): void => {
      out.write(options.json ? `${JSON.stringify({ statistics: data })}\n` : `${probePrefix(data)}${statisticsLine(data)}\n`);
    };
    const checkIds = options.check.length > 0 ? options.check : undefined;
    const probes = options.probe !== undefined && options.probe.length > 0 ? options.probe : undefined;
    if (options.fleet || probes) {
      subscriptions.push(client.fleetFindings.subscribe({ probes, checkIds, minSeverity }, { onData: ({ data }) => onFinding(data), onError }));
      if (options.statistics) subscriptions.push(client.fleetStatistics.subscribe({ probes }, { onData: ({ data }) => onStatistics(data), onError }));
    } else {
      subscriptions.push(client.findings.subscribe({ checkIds, minSeverity }, { onData: ({ data }) => onFinding(data), onError }));
      if (options.statistics) subscriptions.push(client.statistics.subscribe(undefined, { onData: ({ data }) => onStatistics(data), onError }));
    }
  });
}

/** A probe's record begins with `[probe session]` (the session's id shortened to its first 8 characters). */
function probePrefix(record: { probe?: string; sessionId: string }): string {
  return record.probe === undefined ? '' : `[${record.probe} ${record.sessionId.slice(0, 8)}]  `;
}

/** `12:03:04.567  error    mpegts-errors  pid 0x0100  packet 1234  t 12.345 s  continuity error ...`, with `x12` before the message for a record of 12. */
function findingLine(finding: LiveFinding): string {
  const time = new Date(finding.receivedAt ?? finding.emittedAt).toISOString().slice(11, 23);
  const where = [
    finding.pid >= 0 ? `pid 0x${finding.pid.toString(16).padStart(4, '0')}` : finding.pid === OTHER_PIDS ? 'other pids' : null,
    finding.packetIndex >= 0 ? `packet ${finding.packetIndex}` : `offset ${finding.offset}`,
    finding.t !== null ? `t ${finding.t.toFixed(3)} s` : null,
  ].filter((part) => part !== null);
  const count = finding.count > 1 ? `x${finding.count}  ` : '';
  return `${time}  ${finding.severity.padEnd(7)}  ${finding.checkId}  ${where.join('  ')}  ${count}${finding.message}`;
}

function channelUrl(options: WatchOptions, env: NodeJS.ProcessEnv): string {
  if (options.url !== undefined) {
    if (!/^wss?:\/\//.test(options.url)) throw new UsageError(`--url must be a ws:// URL such as ws://127.0.0.1:${DEFAULT_PORT}${LIVE_CHANNEL_PATH}, got '${options.url}'`);
    return options.url;
  }
  const text = options.port ?? env[PORT_ENV]?.trim() ?? String(DEFAULT_PORT);
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65_535) throw new UsageError(`--port must be a port number from 1 to 65535, got '${text}'`);
  return `ws://127.0.0.1:${port}${LIVE_CHANNEL_PATH}`;
}

/**
 * Asks the service's REST surface whether it takes the key, before
 * subscribing: the channel refuses a wrong key too, but only by closing
 * the connection, which a client cannot tell from a network failure.
 */
async function assertKeyAccepted(channel: string, apiKey: string): Promise<void> {
  const url = channel.replace(/^ws/, 'http').replace(new RegExp(`${LIVE_CHANNEL_PATH}$`), `${API_PREFIX}/auth/status`);
  let status: number;
  try {
    status = (await fetch(url, { headers: { [API_KEY_HEADER]: apiKey } })).status;
  } catch (error) {
    throw new UsageError(`cannot reach the inspection service at ${url}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message} (is klvscope serve running?)`);
  }
  if (status === 401) throw new UsageError(`the inspection service refuses this API key (${url} answered 401): give the key of its data folder`);
}

/** --api-key, else KLVSCOPE_API_KEY, else the data folder's key file (read, never created). */
async function apiKeyFor(options: WatchOptions, env: NodeJS.ProcessEnv): Promise<string> {
  if (options.apiKey) return options.apiKey;
  const fromEnv = env[API_KEY_ENV]?.trim();
  if (fromEnv) return fromEnv;
  const path = join(options.dataDir ?? defaultDataDir(env), API_KEY_FILE_NAME);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    throw new UsageError(`no API key: give --api-key, set ${API_KEY_ENV}, or point --data-dir at the service's data folder (no ${path})`);
  }
}

function parseSeverity(text: string | undefined): MinSeverity | undefined {
  if (text === undefined) return undefined;
  const severity = text === 'warn' ? 'warning' : text;
  if (!(SEVERITIES as readonly string[]).includes(severity)) throw new UsageError(`--severity must be info, warning or error, got '${text}'`);
  return severity as MinSeverity;
}
