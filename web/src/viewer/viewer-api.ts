/**
 * The streaming module's HTTP interface as the page calls it (spec:
 * streaming-module.md), on paths relative to the page, so the page works
 * wherever the module serves it.
 */
import type { RecorderStatus, SourceStatus } from '@klvscope/core/browser';

/** GET /info: the spec's Info object plus the source's state. */
export interface StreamInfo {
  activeConnections: number;
  channelName: string;
  concurrentClients: number;
  demo: boolean;
  demoExpired: boolean;
  missionName: string;
  noKlv: boolean;
  nodeInfo: string;
  poster: string;
  recorderEnabled: boolean;
  url: string;
  useCapture: boolean;
  version: string;
  videoBitrate: number;
  videoPassThrough: boolean;
  videoResolution: string;
  source: SourceStatus;
  streaming: boolean;
}

export type CommandService = 'streamer' | 'recorder';
export type CommandName = 'start' | 'stop' | 'exit';

export interface Credentials {
  user: string;
  password: string;
}

/** An error the module answered with ({"error":{"code","message"}}), or a network failure. */
export class ViewerApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The WebSocket URL of the stream, beside the page. */
export function streamSocketUrl(page: Location): string {
  const url = new URL('stream', page.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

export function fetchInfo(): Promise<StreamInfo> {
  return requestJson<StreamInfo>('info', { method: 'GET' });
}

export function fetchRecorderState(): Promise<RecorderStatus> {
  return requestJson<RecorderStatus>('recorderState', { method: 'GET' });
}

/** POST /command with Basic authentication; resolves with the module's answer (the new state). */
export function sendCommand(service: CommandService, command: CommandName, credentials: Credentials): Promise<unknown> {
  return requestJson<unknown>('command', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      // RFC 7617: user-id ":" password, base64 of its UTF-8 bytes.
      authorization: `Basic ${base64Utf8(`${credentials.user}:${credentials.password}`)}`,
    },
    body: JSON.stringify({ service, command, params: '' }),
  });
}

async function requestJson<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    // credentials 'omit': a 401 with a Basic challenge then comes back to the page (Fetch: HTTP-network-or-cache fetch)
    // instead of opening the browser's own login prompt; the Authorization header the page sets is sent all the same.
    response = await fetch(path, { ...init, cache: 'no-store', credentials: 'omit' });
  } catch (error) {
    throw new ViewerApiError(0, 'NETWORK', `The module did not answer ${path}: ${String(error)}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ViewerApiError(response.status, error?.code ?? `HTTP_${response.status}`, error?.message ?? (text || response.statusText));
  }
  return body as T;
}

function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
