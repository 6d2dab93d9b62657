/** A real inspection service on 127.0.0.1 (ephemeral port) over a temporary data folder, and fetch with or without its key. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_FILE_NAME } from '../../src/http/api-key.js';
import { startInspectionServer, type InspectionListenOptions, type RunningInspectionServer } from '../../src/inspection/inspection-server.js';

export interface TestServer extends RunningInspectionServer {
  /** The key the server accepts. */
  key: string;
  /** fetch on the base URL (`/health` means /api/v1/health), with the key unless `key` says otherwise. */
  call(path: string, init?: CallInit): Promise<CallResult>;
}

export interface CallInit {
  method?: string;
  /** A value to send as JSON, or a string sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The X-API-Key to send: the server's by default, null for none. */
  key?: string | null;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: unknown;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'klvscope-inspection-'));
}

/** Quiet by default; the environment is empty so the machine's KLVSCOPE_API_KEY cannot interfere. */
export async function startTestServer(options: InspectionListenOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (options.store ? undefined : tempDataDir());
  const running = await startInspectionServer({ port: 0, env: {}, log: { level: 'silent' }, ...options, dataDir });
  const key = options.apiKey ?? options.env?.KLVSCOPE_API_KEY ?? readFileSync(join(running.dataDir, API_KEY_FILE_NAME), 'utf8').trim();
  return { ...running, key, call: (path, init = {}) => call(running.url, key, path, init) };
}

/** Starts a test server before the suite's tests and closes it after them; `use` receives it. */
export function testServerForSuite(use: (server: TestServer) => void, options: InspectionListenOptions = {}): void {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer(options);
    use(server);
  });
  after(async () => {
    await server?.close();
  });
}

export async function call(baseUrl: string, serverKey: string, path: string, init: CallInit = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...init.headers };
  const key = init.key === undefined ? serverKey : init.key;
  if (key !== null) headers['x-api-key'] = key;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method: init.method ?? 'GET', headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
