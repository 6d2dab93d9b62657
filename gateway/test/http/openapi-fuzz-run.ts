/**
 * The fuzz run of issue 35, as a script: the three services on 127.0.0.1
 * over fresh data folders, and fast-check requests made from each one's
 * OpenAPI document (test-support/openapi-requests.ts) sent to them over
 * real sockets, one after another. Run inside a private network namespace
 * (openapi-fuzz.test.ts), so that a relay channel a request happened to
 * configure can send nowhere. Prints one JSON summary: per service and
 * operation, the requests and their statuses, and every defect: a 5xx, a
 * 4xx without the JSON error body, a refused change that changed the state
 * read back, a request the service did not answer.
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

interface ServiceResult {
  operations: Record<string, OperationCounts>;
  requests: number;
  defects: string[];
  /** State reads that had to be sent again (a reset kept-alive connection). */
  stateReadsRetried?: number;
}

const summary: Record<string, ServiceResult> = {};
try {
  // FUZZ_SERVICES=relay,streaming: only those (a long run split over processes).
  const only = process.env.FUZZ_SERVICES?.split(',') ?? null;
  for (const service of services.filter((candidate) => only === null || only.includes(candidate.name))) {
    const result: ServiceResult = (summary[service.name] = { operations: {}, requests: 0, defects: [] });
    const readOnce = async (path: string): Promise<string> => (await fetch(`${service.base}${path}`, { headers: { [service.key.name]: service.key.value } })).text();
    // A kept-alive connection the server closes as the read goes out resets (ECONNRESET): a GET is read again, once, and counted.
    const readAgain = async (path: string): Promise<string> =>
      readOnce(path).catch(async (error: unknown) => {
        result.stateReadsRetried = (result.stateReadsRetried ?? 0) + 1;
        process.stderr.write(`${service.name}: GET ${path} read again after ${(error as Error).message} (${String((error as Error).cause)})\n`);
        return readOnce(path);
      });
    const readState = async (): Promise<string> => (await Promise.all(service.state.map(readAgain))).join('\n');
    const operations = operationsOf(service.document);
    const runs = requestsPerService === null ? runsPerOperation : Math.ceil(requestsPerService / operations.length);
    for (const operation of operations) {
      const counts: OperationCounts = (result.operations[`${operation.method} ${operation.path}`] = { requests: 0, statuses: {} });
      const requests = fc.sample(requestsFor(operation, service.key), { seed: seed + operation.operationId.length, numRuns: runs });
      for (const request of requests) {
        if (service.skip?.(request)) continue;
        const changes = request.method !== 'GET';
        const before = changes ? await readState() : '';
        let status: number;
        let text: string;
        try {
          // fetch sends no body with a GET (nor does any client of ours).
          const body = request.method === 'GET' ? undefined : request.body;
          const response = await fetch(`${service.base}${request.target}`, { method: request.method, headers: request.headers, body, signal: AbortSignal.timeout(20_000) });
          status = response.status;
          // A feed of server-sent events (the relay's GET /events) never ends: its status and type are the answer.
          if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream') === true) {
            await response.body?.cancel();
            text = '';
          } else text = await response.text();
        } catch (error) {
          result.defects.push(`${request.method} ${request.target.slice(0, 200)}: no answer (${(error as Error).message})`);
          continue;
        }
        counts.requests++;
        result.requests++;
        if (requestsPerService !== null && result.requests % 5_000 === 0) process.stderr.write(`${service.name}: ${result.requests} requests, ${result.defects.length} defects\n`);
        counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
        const what = `${request.method} ${request.target.slice(0, 200)} body ${JSON.stringify(request.body?.slice(0, 200))}`;
        if (status >= 500) result.defects.push(`${what}: ${status} ${text.slice(0, 300)}`);
        else if (status >= 400 && !isErrorBody(text)) result.defects.push(`${what}: ${status} without the JSON error body: ${text.slice(0, 200)}`);
        if (changes && status >= 400 && (await readState()) !== before) result.defects.push(`${what}: refused with ${status}, yet the state changed`);
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
