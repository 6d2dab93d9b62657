import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { HOSTILE_KINDS, sendHostileDatagrams } from '../../../test-support/hostile-datagrams.js';
import { MAX_KINDS_PER_SECOND, OTHER_PIDS } from '../../src/live/finding-coalescer.js';
import { MAX_PIDS_PER_READING } from '../../src/live/pid-rate-meter.js';
import type { LiveFinding, LiveSessionState } from '../../src/live/live-records.js';
import { testServerForSuite, type TestServer } from '../inspection/test-server.js';
import { connectLiveClient } from './live-client.js';

/** Issue 35: the flood that took a service to 856 MB, smaller (the benchmark script sends the full one). */
const FLOOD = { count: 2_500, seed: 35, burst: 50, pauseMs: 2, maxMs: 20_000 };

const kindOf = (f: LiveFinding): string => `${f.checkId}|${f.pid}|${f.type ?? ''}|${f.severity}`;
const sum = (numbers: readonly number[]): number => numbers.reduce((total, n) => total + n, 0);

describe('a live session flooded with hostile datagrams on 127.0.0.1', function () {
  this.timeout(90_000);
  let server: TestServer;
  testServerForSuite((started) => (server = started));

  it('stays up, coalesces repeated findings into records with their counts, and keeps the totals exact through REST and the live channel', async () => {
    const port = await freeUdpPort();
    const client = await connectLiveClient(server.port, server.key);
    try {
      const started = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      const sent = await sendHostileDatagrams(port, FLOOD);
      expect(Object.keys(sent)).to.deep.equal([...HOSTILE_KINDS]);
      expect(sum(Object.values(sent))).to.equal(FLOOD.count);
      // The service answers during the flood's tail, and reads every datagram the socket kept before the stop.
      for (let i = 0; i < 50; i++) {
        const during = await server.call(`/sessions/${started.sessionId}`);
        expect(during.status).to.equal(200);
        const { received } = during.json as LiveSessionState;
        if (received.chunks + received.socketDrops >= FLOOD.count) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const stopped = await server.call('/sessions/active', { method: 'DELETE' });
      const final = stopped.json as LiveSessionState;
      expect(final.status).to.equal('stopped');
      await client.until(() => client.findings.filter((f) => f.sessionId === final.sessionId).length >= final.counts.records, 20_000, `${final.counts.records} records`);
      const records = client.findings.filter((f) => f.sessionId === final.sessionId);

      // Exact totals: every occurrence is counted once, in one record.
      const occurrences = final.counts.findings;
      expect(sum(records.map((f) => f.count))).to.equal(occurrences);
      expect(sum(Object.values(final.counts.byCheck))).to.equal(occurrences);
      expect(sum(Object.values(final.counts.bySeverity))).to.equal(occurrences);
      expect(records.map((f) => f.seq)).to.deep.equal(Array.from({ length: final.counts.records }, (_, i) => i + 1));

      // Coalesced: per kind and second, the first at once and a record for the rest; past the
      // kinds a second follows one by one, one record per check, type and severity for other PIDs.
      const bySeq = new Map(records.map((f) => [f.seq, f]));
      const firsts = new Map<string, number>();
      const kindsPerSecond = new Map<number, number>();
      const repeated = new Set<number>();
      for (const record of records) {
        if (record.repeatOf === null) {
          const second = Math.floor((record.receivedAt ?? record.emittedAt) / 1_000);
          const key = `${kindOf(record)}|${second}`;
          // The coalescer's seconds follow the chunks' arrival, not the clock's: one clock second overlaps two of them at most.
          const seen = (firsts.get(key) ?? 0) + 1;
          expect(seen, `a third first record of ${key}`).to.be.at.most(2);
          firsts.set(key, seen);
          if (record.pid === OTHER_PIDS) continue;
          expect(record.count).to.equal(1);
          kindsPerSecond.set(second, (kindsPerSecond.get(second) ?? 0) + 1);
        } else {
          const first = bySeq.get(record.repeatOf) as LiveFinding;
          expect(kindOf(record)).to.equal(kindOf(first));
          // The rest of the first's second: one record when the second ends, or one more per silence of the feed
          // within it (the idle flush publishes the repeats so far; a loaded machine pauses the sender).
          if (first.receivedAt !== null && record.receivedAt !== null) {
            expect(Math.floor(record.receivedAt / 1_000), `the repeats of ${record.repeatOf} in its second`).to.equal(Math.floor(first.receivedAt / 1_000));
          }
          repeated.add(record.repeatOf);
          expect(record.count).to.be.at.least(1);
        }
      }
      expect(Math.max(...kindsPerSecond.values())).to.equal(MAX_KINDS_PER_SECOND);
      expect(records.some((f) => f.pid === OTHER_PIDS && f.count > 1)).to.equal(true);
      expect(occurrences, 'the flood revealed many findings').to.be.above(2_000);
      expect(final.counts.records, 'records, not occurrences, are kept').to.be.below(occurrences / 2);

      // The same records through REST, from the session's database.
      const rest = (await server.call(`/sessions/${final.sessionId}/findings?limit=100000`)).json as { total: number; findings: LiveFinding[] };
      expect(rest.total).to.equal(final.counts.records);
      expect(rest.findings).to.deep.equal(records);
      expect(rest.findings.some((f) => f.count > 1)).to.equal(true);

      // The statistics, a reading a second: noise reaches every PID, and a reading names the busiest only, the rest in one entry.
      const readings = client.statistics.filter((reading) => reading.sessionId === final.sessionId);
      expect(readings.length).to.be.at.least(1);
      for (const reading of readings) {
        expect(reading.pids.length).to.be.at.most(MAX_PIDS_PER_READING + 1);
      }
      expect(readings.some((reading) => reading.pids.at(-1)?.pid === OTHER_PIDS), 'a reading with more PIDs than it names').to.equal(true);
    } finally {
      await client.close();
    }
  });
});
