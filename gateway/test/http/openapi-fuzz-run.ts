/**
 * The fuzz run of issue 35, as a script: the three services on 127.0.0.1
 * over fresh data folders, and fast-check requests made from each one's
 * OpenAPI document (test-support/openapi-requests.ts) sent to them over
 * real sockets, one after another. Run inside a private network namespace
 * (openapi-fuzz.test.ts), so that a relay channel a request happened to
 * configure can send nowhere. Prints one JSON summary: per service and
 * operation, the requests and their statuses, and every defect: a 5xx, a
 * 4xx without the JSON error body, a refused change that changed the state
 * read back, a request the service did not answer; each with the request
 * (method, path, query, headers, the body's first bytes), its answer or the
 * error's cause (`err.cause.code`), its place in the run and how long its
 * connection had been idle, so that it can be sent again.
 *
 * Arguments: RUNS_PER_OPERATION (default 20) and SEED (default 35).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { isErrorBody, operationsOf, requestsFor, type FuzzRequest } from '../../../test-support/openapi-requests.js';
import { APP_VERSION } from '../../src/app-version.js';
import { buildOpenApiDocument } from '../../src/inspection/openapi-document.js';
import { inspectionRoutesOf, startInspectionServer } from '../../src/inspection/inspection-server.js';
import { startRelayServer } from '../../src/relay/start-relay-server.js';
import { startStreamingServer } from '../../src/streaming/start-streaming-server.js';

const runsPerOperation = Number(process.argv[2] ?? 20);
const seed = Number(process.argv[3] ?? 35);
/** When given, each service gets this many requests, spread over its operations (the benchmark run: 100,000). */
const requestsPerService = process.argv[4] === undefined ? null : Number(process.argv[4]);
const KEY = 'fuzz-key-0123456789abcdef';

interface ServiceUnderFuzz {
  name: string;
  base: string;
  document: Record<string, unknown>;
  key: { name: string; value: string };
  /** GETs whose answers are the state a refused change must leave as it was. */
  state: string[];
  /** Requests not sent: the ones that end the service or reach outside the test (said in the summary). */
  skip?: (request: FuzzRequest) => boolean;
}

const folders: string[] = [];
const folder = (prefix: string): string => {
  const path = mkdtempSync(join(tmpdir(), prefix));
  folders.push(path);
  return path;
};

const inspection = await startInspectionServer({ port: 0, env: {}, apiKey: KEY, log: { level: 'silent' }, dataDir: folder('klvscope-fuzz-inspection-') });
const relay = await startRelayServer({ port: 0, env: {}, apiKey: KEY, dataDir: folder('klvscope-fuzz-relay-') });
const streaming = await startStreamingServer({ port: 0, env: {}, dataDir: folder('klvscope-fuzz-streaming-'), config: { user: 'fuzz', password: 'fuzz-password' }, onExit: () => undefined });
const basic = `Basic ${Buffer.from('fuzz:fuzz-password').toString('base64')}`;
const relayDocument = (await (await fetch(`${relay.url}/api/openapi.json`)).json()) as Record<string, unknown>;
const streamingDocument = (await (await fetch(`${streaming.url}/openapi.json`)).json()) as Record<string, unknown>;

const services: ServiceUnderFuzz[] = [
  {
    name: 'inspection',
    base: inspection.url,
    document: buildOpenApiDocument(inspectionRoutesOf(inspection.app), APP_VERSION, 'every route'),
    key: { name: 'x-api-key', value: KEY },
    state: ['/config', '/validation-rules', '/analysis/archive', '/sources/recent'],
  },
  { name: 'relay', base: `${relay.url}/api`, document: relayDocument, key: { name: 'x-api-key', value: KEY }, state: ['/platforms', '/serverStatus'] },
  {
    name: 'streaming',
    base: streaming.url,
    document: streamingDocument,
    key: { name: 'authorization', value: basic },
    state: ['/recorderState'],
  },
];

interface OperationCounts {
  requests: number;
  statuses: Record<string, number>;
}

/** A defect, with what it takes to send its request again. */
interface Defect {
  what: '5xx' | '4xx without the JSON error body' | 'refused, yet the state changed' | 'no answer' | 'state read without an answer';
  /** The request's place among the service's requests sent (0-based), and how long its connection had been idle (ms since the previous answer). */
  index: number;
  idleMs: number;
  request: { method: string; path: string; query: string; headers: Record<string, string>; bodyBytes: number; bodyStart: string | undefined };
  answer?: { status: number; bodyStart: string };
  /** A request that failed: fetch's message and its cause's (`err.cause.code`: ECONNRESET, UND_ERR_SOCKET…). */
  error?: { message: string; cause: string | undefined; code: string | undefined };
}

interface ServiceResult {
  operations: Record<string, OperationCounts>;
  requests: number;
  defects: Defect[];
  /** The longest a connection sat idle before a request (ms): past the keep-alive bound (6 s), the request raced the idle close. */
  longestIdleMs: number;
}

function requestOf(method: string, target: string, headers: Record<string, string>, body: string | undefined): Defect['request'] {
  const queryAt = target.indexOf('?');
  return {
    method,
    path: (queryAt < 0 ? target : target.slice(0, queryAt)).slice(0, 300),
    query: queryAt < 0 ? '' : target.slice(queryAt + 1, queryAt + 301),
    headers,
    bodyBytes: body === undefined ? 0 : Buffer.byteLength(body),
    bodyStart: body?.slice(0, 200),
  };
}

function errorOf(error: unknown): Defect['error'] {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  return { message: (error as Error).message, cause: cause?.message, code: cause?.code };
}

const summary: Record<string, ServiceResult> = {};
try {
  // FUZZ_SERVICES=relay,streaming: only those (a long run split over processes).
  const only = process.env.FUZZ_SERVICES?.split(',') ?? null;
  for (const service of services.filter((candidate) => only === null || only.includes(candidate.name))) {
    const result: ServiceResult = (summary[service.name] = { operations: {}, requests: 0, defects: [], longestIdleMs: 0 });
    let sent = 0;
    let lastAnswer = performance.now();
    const idleMs = (): number => {
      const idle = Math.round(performance.now() - lastAnswer);
      result.longestIdleMs = Math.max(result.longestIdleMs, idle);
      return idle;
    };
    const stateHeaders = { [service.key.name]: service.key.value };
    const readOnce = async (path: string): Promise<string> => {
      const idle = idleMs();
      try {
        const text = await (await fetch(`${service.base}${path}`, { headers: stateHeaders })).text();
        lastAnswer = performance.now();
        return text;
      } catch (error) {
        result.defects.push({ what: 'state read without an answer', index: sent, idleMs: idle, request: requestOf('GET', path, stateHeaders, undefined), error: errorOf(error) });
        return `(no answer: ${(error as Error).message})`;
      }
    };
    const readState = async (): Promise<string> => (await Promise.all(service.state.map(readOnce))).join('\n');
    const operations = operationsOf(service.document);
    const runs = requestsPerService === null ? runsPerOperation : Math.ceil(requestsPerService / operations.length);
    for (const operation of operations) {
      const counts: OperationCounts = (result.operations[`${operation.method} ${operation.path}`] = { requests: 0, statuses: {} });
      // Blocks the loop, the services' too, for seconds at 100,000 requests: the services must still answer what arrives meanwhile (idle-connection-close.test.ts).
      const requests = fc.sample(requestsFor(operation, service.key), { seed: seed + operation.operationId.length, numRuns: runs });
      for (const request of requests) {
        if (service.skip?.(request)) continue;
        const changes = request.method !== 'GET';
        const before = changes ? await readState() : '';
        // fetch sends no body with a GET (nor does any client of ours).
        const body = request.method === 'GET' ? undefined : request.body;
        const index = sent++;
        const idle = idleMs();
        const defect = (what: Defect['what'], extra: Partial<Defect>): void => {
          result.defects.push({ what, index, idleMs: idle, request: requestOf(request.method, request.target, request.headers, body), ...extra });
        };
        let status: number;
        let text: string;
        try {
          const response = await fetch(`${service.base}${request.target}`, { method: request.method, headers: request.headers, body, signal: AbortSignal.timeout(20_000) });
          status = response.status;
          // A feed of server-sent events (the relay's GET /events) never ends: its status and type are the answer.
          if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
            await response.body?.cancel();
            text = '';
          } else text = await response.text();
          lastAnswer = performance.now();
        } catch (error) {
          defect('no answer', { error: errorOf(error) });
          continue;
        }
        counts.requests++;
        result.requests++;
        if (requestsPerService !== null && result.requests % 5_000 === 0) process.stderr.write(`${service.name}: ${result.requests} requests, ${result.defects.length} defects\n`);
        counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
        const answer = { status, bodyStart: text.slice(0, 300) };
        if (status >= 500) defect('5xx', { answer });
        else if (status >= 400 && !isErrorBody(text)) defect('4xx without the JSON error body', { answer });
        if (changes && status >= 400 && (await readState()) !== before) defect('refused, yet the state changed', { answer });
      }
    }
    process.stderr.write(`${service.name}: ${result.requests} requests over ${operations.length} operations, ${result.defects.length} defects\n`);
  }
} finally {
  // The streaming command may have stopped what it starts: closing is idempotent whatever the fuzz did.
  await Promise.allSettled([inspection.close(), relay.close(), streaming.close()]);
  for (const path of folders) rmSync(path, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ runsPerOperation, seed, summary })}\n`);
process.exit(0);
