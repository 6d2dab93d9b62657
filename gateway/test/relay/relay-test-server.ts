/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are read loosely: the assertions check their values */
/** A relay on a real socket over a fresh data folder, and a small JSON client for it. */
import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRelayServer, type RunningRelayServer, type StartRelayOptions } from '../../src/relay/start-relay-server.js';

export const TEST_KEY = 'relay-test-key-0123456789';

export interface RelayResponse {
  status: number;
  headers: Headers;
  body: any;
}

export class RelayClient {
  constructor(readonly base: string) {}

  async request(method: string, path: string, body?: unknown, key: string | null = TEST_KEY): Promise<RelayResponse> {
    const headers: Record<string, string> = {};
    if (key !== null) headers['x-api-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}/api${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get(path: string): Promise<RelayResponse> {
    return this.request('GET', path, undefined, null);
  }
}

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'klvscope-relay-'));
}

export async function startTestRelay(dataDir: string, options: StartRelayOptions = {}): Promise<{ server: RunningRelayServer; client: RelayClient }> {
  const server = await startRelayServer({ dataDir, port: 0, apiKey: TEST_KEY, noSignalMs: 500, ...options });
  return { server, client: new RelayClient(server.url) };
}

export async function removeDataDir(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `probe` returns a value that is not undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000, what = 'the condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A relay over a fresh data folder for the whole `describe` (started before its tests, closed and removed after). */
export function relayForSuite(options: StartRelayOptions = {}): { readonly server: RunningRelayServer; readonly client: RelayClient } {
  let dataDir = '';
  const running: { server?: RunningRelayServer; client?: RelayClient } = {};
  before(async () => {
    dataDir = await makeDataDir();
    Object.assign(running, await startTestRelay(dataDir, options));
  });
  after(async () => {
    await running.server?.close();
    await removeDataDir(dataDir);
  });
  return {
    get server() {
      return running.server as RunningRelayServer;
    },
    get client() {
      return running.client as RelayClient;
    },
  };
}

/** A receiver on 127.0.0.1 that keeps every datagram. */
export async function receiver(): Promise<{ port: number; datagrams: Buffer[]; socket: Socket }> {
  const socket = createSocket('udp4');
  const datagrams: Buffer[] = [];
  socket.on('message', (message) => datagrams.push(message));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, datagrams, socket };
}
