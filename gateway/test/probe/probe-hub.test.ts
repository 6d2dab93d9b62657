import { mkdtempSync, rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { openLiveSource, replayFile } from '@klvscope/adapters';
import { parseFaultSpec } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { resolveRuleSet } from '@klvscope/rules';
import { runWatch } from '../../src/cli/watch-command.js';
import { ProbeNode } from '../../src/probe/probe-node.js';
import type { ProbeSessionView, ProbeView } from '../../src/probe/probe-records.js';
import { freeTcpPort, PostgresCluster, requirePostgres } from '../../../test-support/postgres-cluster.js';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { startTestServer, type TestServer } from '../inspection/test-server.js';
import { writeGenerated } from '../inspection/file-test-server.js';
import { connectFleetClient, type FleetClient } from './fleet-client.js';

describe('a live probe and its hub on one machine (probe --catalog, serve --catalog)', function () {
  this.timeout(120_000);
  let cluster: PostgresCluster | undefined;
  let hub: TestServer | undefined;
  let probe: ProbeNode | undefined;
  let client: FleetClient | undefined;
  let folder: string;
  let url: string;
  let firstPort: number;
  let hubPort: number;
  let hubDataDir: string;

  const startProbe = (sources: string[]): Promise<ProbeNode> => {
    const rules = resolveRuleSet(BUILT_IN_CHECKS, {});
    const enabled = new Set(rules.enabledCheckIds);
    return ProbeNode.start({
      catalogUrl: url,
      name: 'lab-1',
      sources,
      openSource: (source) => openLiveSource(source),
      checks: BUILT_IN_CHECKS.filter((check) => enabled.has(check.id)),
      rules: rules.slices,
      noDataSeconds: 5,
      bufferLimitBytes: 8 * 1024 * 1024,
      log: () => undefined,
    });
  };
  const probeView = async (): Promise<ProbeView> => {
    const answer = await hub!.call('/probes/lab-1');
    expect(answer.status, answer.text).to.equal(200);
    return answer.json as ProbeView;
  };

  before(async function () {
    requirePostgres(this);
    cluster = await PostgresCluster.start();
    url = cluster.createDatabase('probes');
    folder = mkdtempSync(join(tmpdir(), 'klvscope-probe-'));
    // A fixed port, so that the client finds the hub again after its restart (the last test).
    hubPort = await freeTcpPort();
    hubDataDir = join(folder, 'hub');
    hub = await startTestServer({ catalogUrl: url, port: hubPort, dataDir: hubDataDir });
    firstPort = await freeUdpPort();
    probe = await startProbe([`udp://127.0.0.1:${firstPort}`]);
    client = await connectFleetClient(hub.url, hub.key);
  });
  after(async function () {
    await client?.close();
    await probe?.stop();
    await hub?.close();
    cluster?.remove();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('lists the probe online with its session, and hands its injected faults to a tRPC client of the hub, named with probe and session', async function () {
    const view = await probeView();
    expect(view).to.include({ name: 'lab-1', online: true, stoppedAt: null });
    expect(view.sessions).to.have.length(1);
    const session = view.sessions[0];
    expect(session.source).to.equal(`udp://127.0.0.1:${firstPort}`);
    const { path } = writeGenerated(folder, 'faulty.ts', { durationSeconds: 4, bitrate: 2_000_000, klv: {}, seed: 7, faults: [parseFaultSpec('klv-checksum@1.5'), parseFaultSpec('pcr-gap@2.5')] });
    await replayFile(path, `udp://127.0.0.1:${firstPort}`, { speed: 4 });
    await client!.until(() => client!.findings.some((f) => f.checkId !== 'live-source' && f.severity === 'error'), 10_000, 'an error finding');
    await client!.until(() => client!.statistics.some((s) => s.sessionId === session.sessionId && s.bitsPerSecond > 0), 10_000, 'statistics of the session');
    for (const finding of client!.findings) expect(finding).to.include({ probe: 'lab-1', sessionId: session.sessionId, run: 1 });
    const ids = client!.findings.map((f) => f.id);
    expect(new Set(ids).size, 'no finding twice').to.equal(ids.length);
    // The same findings are in the catalog, readable over REST.
    const stored = await hub!.call(`/sessions/${session.sessionId}/findings`);
    expect(stored.status, stored.text).to.equal(200);
    const storedIds = (stored.json as { findings: { id: number }[] }).findings.map((f) => f.id);
    expect(storedIds).to.include.members(ids);
    const after = (await probeView()).sessions[0];
    expect(after.light).to.equal('error');
    expect(after.lastFinding).to.not.equal(null);
    expect(after.sparkline.length).to.be.greaterThan(0);
  });

  it('prints each probe finding with `klvscope watch --fleet`, its line naming probe and session', async function () {
    const lines: string[] = [];
    const out = new PassThrough();
    out.setEncoding('utf8').on('data', (text: string) => lines.push(...text.split('\n').filter(Boolean)));
    const watching = runWatch({ port: String(hubPort), apiKey: hub!.key, fleet: true, check: ['klv-checksum-errors'], max: 1 }, {}, out);
    const session = (await probeView()).sessions.find((s) => s.source === `udp://127.0.0.1:${firstPort}`)!;
    const { path } = writeGenerated(folder, 'watched.ts', { durationSeconds: 3, bitrate: 1_000_000, klv: {}, seed: 13, faults: [parseFaultSpec('klv-checksum@1.5')] });
    // Sent until the watcher has its finding (it subscribes once connected: a first send may come before).
    for (let attempt = 0; attempt < 5 && lines.length === 0; attempt++) await replayFile(path, `udp://127.0.0.1:${firstPort}`, { speed: 4 });
    expect(await watching).to.equal(0);
    expect(lines[0]).to.match(new RegExp(`^\\[lab-1 ${session.sessionId.slice(0, 8)}\\]  \\d\\d:\\d\\d:\\d\\d\\.\\d{3}  error +klv-checksum-errors`));
  });

  it('starts a session on the probe through the catalog, stops it, and keeps its findings readable after it ended', async function () {
    const port = await freeUdpPort();
    const started = await hub!.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}`, probe: 'lab-1' } });
    expect(started.status, started.text).to.equal(201);
    const session = started.json as ProbeSessionView;
    expect(session).to.include({ probe: 'lab-1', source: `udp://127.0.0.1:${port}` });
    expect((await probeView()).sessions.map((s) => s.sessionId)).to.include(session.sessionId);
    const { path } = writeGenerated(folder, 'second.ts', { durationSeconds: 2, bitrate: 1_000_000, klv: {}, seed: 9, faults: [parseFaultSpec('klv-checksum@1')] });
    await replayFile(path, `udp://127.0.0.1:${port}`, { speed: 4 });
    await client!.until(() => client!.findings.some((f) => f.sessionId === session.sessionId && f.checkId !== 'live-source'), 10_000, 'a finding of the new session');
    const stopped = await hub!.call(`/probes/lab-1/sessions/${session.sessionId}`, { method: 'DELETE' });
    expect(stopped.status, stopped.text).to.equal(200);
    expect((stopped.json as ProbeSessionView).status).to.equal('stopped');
    const read = await hub!.call(`/sessions/${session.sessionId}`);
    expect(read.status).to.equal(200);
    expect((read.json as ProbeSessionView).light).to.equal('ended');
    const findings = await hub!.call(`/sessions/${session.sessionId}/findings`);
    expect((findings.json as { total: number }).total).to.be.greaterThan(0);
  });

  it('answers a bad probe request with the error body: unknown probe 404, a source the probe cannot open 400, a service without a fleet 409', async function () {
    const unknown = await hub!.call('/sessions/live', { method: 'POST', body: { source: 'udp://127.0.0.1:9', probe: 'nobody' } });
    expect(unknown.status).to.equal(404);
    expect((unknown.json as { error: { code: string } }).error.code).to.equal('ERR_PROBE_NOT_FOUND');
    const bad = await hub!.call('/sessions/live', { method: 'POST', body: { source: 'http://example.invalid/', probe: 'lab-1' } });
    expect(bad.status, bad.text).to.equal(400);
    expect((bad.json as { error: { code: string } }).error.code).to.equal('ERR_SOURCE_URL_INVALID');
    const single = await startTestServer();
    try {
      const answer = await single.call('/probes');
      expect(answer.status).to.equal(409);
      expect((answer.json as { error: { code: string } }).error.code).to.equal('ERR_FLEET_DISABLED');
    } finally {
      await single.close();
    }
  });

  it('shows the probe offline once it stops, its sessions interrupted, and resumes them in their next run when it starts again', async function () {
    const before = (await probeView()).sessions.find((s) => s.source === `udp://127.0.0.1:${firstPort}`)!;
    await probe!.stop();
    probe = undefined;
    const offline = await probeView();
    expect(offline.online).to.equal(false);
    const interrupted = offline.sessions.find((s) => s.sessionId === before.sessionId)!;
    expect(interrupted.status).to.equal('interrupted');
    // Its last state was written after its last finding: the counts agree with what the catalog holds.
    const stored = await hub!.call(`/sessions/${before.sessionId}/findings?limit=100000`);
    expect(interrupted.state!.counts.records).to.equal((stored.json as { total: number }).total);
    probe = await startProbe([]);
    const back = await probeView();
    expect(back.online).to.equal(true);
    const resumed = back.sessions.find((s) => s.sessionId === before.sessionId)!;
    expect(resumed.run).to.equal(2);
    expect(['waiting', 'receiving']).to.include(resumed.status);
  });

  it('loses nothing when the hub restarts: the client reconnects and resumes after its last record, with what the probe found meanwhile read from the tables', async function () {
    const session = (await probeView()).sessions.find((s) => s.source === `udp://127.0.0.1:${firstPort}`)!;
    const before = client!.findings.length;
    await hub!.close();
    hub = undefined;
    // While the hub is away: a feed with faults reaches the probe, which writes its findings to the catalog.
    const { path } = writeGenerated(folder, 'while-away.ts', { durationSeconds: 3, bitrate: 1_000_000, klv: {}, seed: 11, faults: [parseFaultSpec('klv-checksum@1'), parseFaultSpec('tei@2')] });
    await replayFile(path, `udp://127.0.0.1:${firstPort}`, { speed: 2 });
    hub = await startTestServer({ catalogUrl: url, port: hubPort, dataDir: hubDataDir });
    await client!.until(() => client!.findings.slice(before).some((f) => f.sessionId === session.sessionId && f.run === 2 && f.checkId !== 'live-source'), 20_000, 'the findings made while the hub was away');
    const ids = client!.findings.map((f) => f.id);
    expect(new Set(ids).size, 'no finding twice').to.equal(ids.length);
    const run2 = client!.findings.filter((f) => f.sessionId === session.sessionId && f.run === 2).map((f) => f.seq);
    expect(run2, 'every finding of the resumed run, in order, from the first').to.deep.equal(run2.map((_, i) => i + 1));
  });
});
