/**
 * A real tRPC WebSocket client of a test server's live channel, collecting
 * what its subscriptions receive, and the findings of the same checks over
 * a file, for comparison with what a live session found.
 */
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { createKlvAwareTsDemuxer, runPipeline, type Point } from '@klvscope/core';
import { epochNow, readFileChunks } from '@klvscope/adapters';
import { resolveRuleSet } from '@klvscope/rules';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import { LIVE_CHANNEL_PATH } from '../../src/inspection/service-address.js';
import type { LiveFinding, LiveMetadataPacket, LiveStatistics } from '../../src/live/live-records.js';
import type { LiveRouter } from '../../src/live/live-router.js';

export interface LiveClient {
  findings: LiveFinding[];
  /** epochNow() when each finding arrived, same index. */
  arrivals: number[];
  metadata: LiveMetadataPacket[];
  statistics: LiveStatistics[];
  errors: Error[];
  /** Resolves when `predicate` holds, checked on each arrival; rejects after `timeoutMs`. */
  until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function connectLiveClient(port: number, apiKey: string, input: { checkIds?: string[] } = {}): Promise<LiveClient> {
  const wsClient = createWSClient({
    url: `ws://127.0.0.1:${port}${LIVE_CHANNEL_PATH}`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: { apiKey },
  });
  const trpc = createTRPCClient<LiveRouter>({ links: [wsLink({ client: wsClient })] });
  const waiters: Array<() => void> = [];
  const arrived = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  const client: LiveClient = {
    findings: [],
    arrivals: [],
    metadata: [],
    statistics: [],
    errors: [],
    until(predicate, timeoutMs, what) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (client.errors.length > 0) finish(client.errors[0]);
          else if (predicate()) finish();
        };
        const finish = (error?: Error): void => {
          clearTimeout(timer);
          waiters.splice(waiters.indexOf(check), 1);
          if (error) reject(error);
          else resolve();
        };
        const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
        waiters.push(check);
        check();
      });
    },
    async close() {
      for (const subscription of subscriptions) subscription.unsubscribe();
      await wsClient.close();
    },
  };
  const onError = (error: Error): void => {
    client.errors.push(error);
    arrived();
  };
  const subscriptions = [
    trpc.findings.subscribe(input, {
      onData: ({ data }) => {
        client.arrivals.push(epochNow());
        client.findings.push(data);
        arrived();
      },
      onError,
    }),
    trpc.metadata.subscribe(undefined, {
      onData: ({ data }) => {
        // tRPC's inferred output makes `unknown` members optional; the packet is what the service sent.
        client.metadata.push(data as LiveMetadataPacket);
        arrived();
      },
      onError,
    }),
    trpc.statistics.subscribe(undefined, {
      onData: ({ data }) => {
        client.statistics.push(data);
        arrived();
      },
      onError,
    }),
  ];
  // The subscriptions are registered once the server has the connection parameters: a query round trip says so.
  await trpc.activeSession.query();
  return client;
}

/** A finding reduced to what must agree between a live session and a file: which check, what, where. */
export interface FindingKey {
  checkId: string;
  type: string | null;
  packetIndex: number;
  offset: number;
  pid: number;
  severity: string;
}

export function findingKey(checkId: string, point: Point): FindingKey {
  return { checkId, type: point.type ?? null, packetIndex: point.packetIndex, offset: point.offset, pid: point.pid, severity: point.severity };
}

/** What a live inspection in a private network namespace reports back to its test (scenarios/). */
export interface LiveOutcome {
  name: string;
  /** Finding records of the checks received by the tRPC client (sorted keys: a record's is its first finding's). */
  live: FindingKey[];
  /** Findings of the same checks over the bytes sent. */
  file: FindingKey[];
  /** Findings by kind (check, type, PID, severity): the records' counts added, and the file's findings counted. */
  liveKinds: Record<string, number>;
  fileKinds: Record<string, number>;
  /** The source's own findings (`type: message`). */
  sourceFindings: string[];
  metadataPackets: number;
  statistics: number;
  bytes: number;
}

/** The violations the service's checks (built-in, default rules) find in a file, in emission order. */
export async function fileFindings(path: string): Promise<FindingKey[]> {
  const resolved = resolveRuleSet(BUILT_IN_CHECKS, {});
  const enabled = new Set(resolved.enabledCheckIds);
  const found: FindingKey[] = [];
  await runPipeline(readFileChunks(path), {
    checks: BUILT_IN_CHECKS.filter((check) => enabled.has(check.id)),
    rules: resolved.slices,
    keepPoints: false,
    demuxerFactory: createKlvAwareTsDemuxer,
    pointSinks: [(point, checkId) => point.violation && found.push(findingKey(checkId, point))],
  });
  return found;
}

/** Findings by kind (check, type, PID, severity), each key standing for `count` of them (a live record's count, 1 for a file's finding). */
export function kindCounts(keys: ReadonlyArray<FindingKey & { count?: number }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) {
    const kind = `${key.checkId}|${key.type}|${key.pid}|${key.severity}`;
    counts[kind] = (counts[kind] ?? 0) + (key.count ?? 1);
  }
  return counts;
}

/** Sorted, so that findings compare as sets with repetitions (checks interleave differently only at finish). */
export function sortedKeys(keys: readonly FindingKey[]): FindingKey[] {
  const text = (key: FindingKey): string => `${key.checkId}|${key.type}|${String(key.packetIndex).padStart(12, '0')}|${key.offset}|${key.pid}`;
  return [...keys].sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}
