import { expect } from 'chai';
import { createSocket } from 'node:dgram';
import { parseFaultSpec, type GeneratorOptions, type InjectedFault } from '@klvscope/core';
import { wrapRtp } from '@klvscope/adapters';
import { readFileSync } from 'node:fs';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { LIVE_SOURCE_CHECK_ID, type LiveFinding, type LiveSessionState } from '../../src/live/live-records.js';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from '../inspection/file-test-server.js';
import { connectLiveClient, fileFindings, findingKey, sortedKeys } from './live-client.js';
import { inspectLive } from './live-inspection.js';

const faults = (...specs: string[]): GeneratorOptions['faults'] => specs.map((spec) => parseFaultSpec(spec));

/** A stream with transport and KLV faults, each found by some check at its packet (core/src/gen/README.md). */
const FAULTY: GeneratorOptions = {
  bitrate: 3_000_000,
  seed: 11,
  durationSeconds: 6,
  audio: true,
  klv: { carriage: 'sync' },
  faults: faults('drop-packet@1', 'pat-gap@1.5', 'pcr-gap@2.5', 'pts-gap@3.5', 'klv-checksum@4', 'klv-unknown-tag@4.5', 'klv-missing-version@5'),
};

const liveKeys = (findings: readonly LiveFinding[]) => sortedKeys(findings.filter((f) => f.checkId !== LIVE_SOURCE_CHECK_ID).map((f) => findingKey(f.checkId, f)));

describe('live sessions over UDP on 127.0.0.1, watched through the tRPC live channel', function () {
  this.timeout(60_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));
  let file: { path: string; faults: InjectedFault[] };
  before(() => {
    file = writeGenerated(server.root, 'faulty.ts', FAULTY);
  });

  it('finds every injected fault at its packet, as the client receives it, and exactly what an inspection of the file finds', async () => {
    const port = await freeUdpPort();
    const live = await inspectLive(server, { source: `udp://127.0.0.1:${port}`, destination: `udp://127.0.0.1:${port}`, file: file.path });
    try {
      const findings = live.client.findings.filter((f) => f.sessionId === live.final.sessionId);
      expect(liveKeys(findings)).to.deep.equal(sortedKeys(await fileFindings(file.path)));
      const faultPackets = [...new Set(file.faults.map((fault) => fault.packetIndex))].sort((a, b) => a - b);
      const foundPackets = [...new Set(liveKeys(findings).map((key) => key.packetIndex))].sort((a, b) => a - b);
      expect(foundPackets).to.deep.equal(faultPackets);
      expect(findings.filter((f) => f.checkId === LIVE_SOURCE_CHECK_ID)).to.deep.equal([]);
      // Each finding carries the arrival time of the bytes that revealed it, and was published after them.
      for (const finding of findings) expect(finding.emittedAt).to.be.at.least(finding.receivedAt ?? 0);
      expect(live.final).to.include({ status: 'stopped' });
      expect(live.final.counts.findings).to.equal(findings.length);
      expect(live.final.received.bytes).to.equal(readFileSync(file.path).length);
      expect(live.client.metadata.filter((p) => p.sessionId === live.final.sessionId)).to.have.length(live.final.counts.metadataPackets).and.length.above(100);
      const reading = live.client.statistics.find((s) => s.sessionId === live.final.sessionId && s.packetsPerSecond > 0);
      expect(reading?.pids.map((p) => p.pid)).to.include.members([0, 0x100]);
      expect(reading?.bytesPerSecond, 'the bytes delivered in that second').to.be.above(0);

      // The REST view of the same session: its state, findings and metadata, from its database.
      const rest = (await server.call(`/sessions/${live.final.sessionId}/findings?limit=100000`)).json as { total: number; findings: LiveFinding[] };
      expect(rest.total).to.equal(findings.length);
      expect(liveKeys(rest.findings)).to.deep.equal(liveKeys(findings));
      const metadata = (await server.call(`/sessions/${live.final.sessionId}/metadata?limit=5&offset=2`)).json as { total: number; items: Array<{ seq: number }> };
      expect([metadata.total, metadata.items.map((item) => item.seq)]).to.deep.equal([live.final.counts.metadataPackets, [3, 4, 5, 6, 7]]);
    } finally {
      await live.client.close();
    }
  });

  it('gives the same findings for the stream wrapped in RTP as for plain UDP', async () => {
    const port = await freeUdpPort();
    const live = await inspectLive(server, { source: `udp://127.0.0.1:${port}`, destination: `udp://127.0.0.1:${port}`, file: file.path, rtp: true });
    try {
      const findings = live.client.findings.filter((f) => f.sessionId === live.final.sessionId);
      expect(live.final.received.rtp).to.equal(true);
      expect(liveKeys(findings)).to.deep.equal(sortedKeys(await fileFindings(file.path)));
      expect(findings.filter((f) => f.checkId === LIVE_SOURCE_CHECK_ID)).to.deep.equal([]);
    } finally {
      await live.client.close();
    }
  });

  it('reports a gap in RTP sequence numbers as a source finding, beside the continuity errors it causes', async () => {
    const clean = writeGenerated(server.root, 'clean.ts', { bitrate: 2_000_000, seed: 3, durationSeconds: 2 });
    const bytes = readFileSync(clean.path);
    const port = await freeUdpPort();
    const client = await connectLiveClient(server.port, server.key);
    const sender = createSocket('udp4');
    try {
      const started = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      const datagrams = Math.floor(bytes.length / 1316);
      for (let i = 0, sequence = 100; i < datagrams; i++, sequence++) {
        // Datagrams 40 to 42 are lost on the way: three sequence numbers never arrive.
        if (i >= 40 && i < 43) continue;
        const payload = bytes.subarray(i * 1316, (i + 1) * 1316);
        await new Promise<void>((resolve, reject) => sender.send(wrapRtp(payload, { sequenceNumber: sequence & 0xffff, timestamp: i * 90, ssrc: 7 }), port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      }
      await client.until(() => client.findings.some((f) => f.sessionId === started.sessionId && f.type === 'rtp-gap'), 10_000, 'the RTP gap');
      const gap = client.findings.find((f) => f.type === 'rtp-gap') as LiveFinding;
      expect(gap).to.include({ checkId: LIVE_SOURCE_CHECK_ID, value: 3, unit: 'packets', severity: 'error' });
      await client.until(() => client.findings.some((f) => f.sessionId === started.sessionId && f.type === 'continuity-error'), 10_000, 'a continuity error');
      const state = (await server.call('/sessions/active', { method: 'DELETE' })).json as LiveSessionState;
      expect(state.received).to.include({ rtp: true, rtpGaps: 1, rtpLost: 3 });
    } finally {
      sender.close();
      await client.close();
    }
  });

  it('reports a source that sends nothing, instead of hanging, and says when data comes again', async () => {
    await server.call('/settings', { method: 'PATCH', body: { live: { noDataSeconds: 1.5 } }, headers: { 'content-type': 'application/merge-patch+json' } });
    const port = await freeUdpPort();
    const client = await connectLiveClient(server.port, server.key, { checkIds: [LIVE_SOURCE_CHECK_ID] });
    try {
      const started = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      expect(started.status).to.equal('waiting');
      await client.until(() => client.findings.some((f) => f.sessionId === started.sessionId && f.type === 'no-data'), 5_000, 'the no-data finding');
      expect(((await server.call('/sessions/active')).json as { active: LiveSessionState }).active.status).to.equal('no-data');
      const sender = createSocket('udp4');
      const packets = readFileSync(file.path).subarray(0, 1316);
      await new Promise<void>((resolve, reject) => sender.send(packets, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      sender.close();
      // The next reading (every second) comes before the next silence is long enough to report.
      await client.until(() => client.statistics.some((s) => s.sessionId === started.sessionId && s.status === 'receiving'), 5_000, 'status receiving');
      // Silent again: a second report, one per silence.
      await client.until(() => client.findings.filter((f) => f.sessionId === started.sessionId && f.type === 'no-data').length === 2, 5_000, 'the second no-data finding');
      expect((await server.call('/sessions/active', { method: 'DELETE' })).status).to.equal(200);
      expect(client.findings.every((f) => f.checkId === LIVE_SOURCE_CHECK_ID)).to.equal(true);
    } finally {
      await server.call('/settings', { method: 'PATCH', body: { live: { noDataSeconds: null } }, headers: { 'content-type': 'application/merge-patch+json' } });
      await client.close();
    }
  });

  it('refuses a port in use with 422 and leaves the active session running', async () => {
    const port = await freeUdpPort();
    const first = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
    const taken = createSocket({ type: 'udp4', reuseAddr: false });
    await new Promise<void>((resolve) => taken.bind(0, '127.0.0.1', resolve));
    try {
      const refused = await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${taken.address().port}` } });
      expect(refused.status, refused.text).to.equal(422);
      expect(((await server.call('/sessions/active')).json as { active: LiveSessionState }).active.sessionId).to.equal(first.sessionId);
    } finally {
      taken.close();
      await server.call('/sessions/active', { method: 'DELETE' });
    }
  });
});
