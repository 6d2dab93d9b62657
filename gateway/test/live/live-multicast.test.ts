import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { privateNetworkUnavailableReason, runInPrivateNetwork } from '../../../test-support/private-network.js';
import type { LiveOutcome as Outcome } from './live-client.js';

const SCENARIO = 'gateway/test/live/scenarios/multicast-inspection.ts';

function outcomesOf(run: { exitCode: number | null; stdout: string; stderr: string }): Outcome[] {
  if (run.exitCode !== 0) throw new Error(`the scenario failed (exit ${run.exitCode}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as Outcome[];
}

describe('live sessions on multicast groups, inside a private network namespace', function () {
  this.timeout(120_000);
  before(function () {
    const reason = privateNetworkUnavailableReason();
    if (reason) this.skip();
  });

  it('finds the injected faults of a replayed stream live (plain, RTP, source-specific), as the inspection of the file does', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'klvscope-multicast-test-'));
    try {
      const faults = ['drop-packet@1', 'pcr-gap@2', 'klv-checksum@3', 'klv-duplicate-tag@3.5'].map((spec) => parseFaultSpec(spec));
      const { bytes, faults: injected } = generateTransportStream({ bitrate: 3_000_000, seed: 5, durationSeconds: 4, klv: { carriage: 'sync' }, faults });
      const file = join(folder, 'faulty.ts');
      writeFileSync(file, bytes);
      const outcomes = outcomesOf(await runInPrivateNetwork(SCENARIO, ['replay', file], { timeoutMs: 100_000 }));
      expect(outcomes.map((o) => o.name)).to.deep.equal(['multicast', 'multicast RTP', 'source-specific multicast']);
      const faultPackets = [...new Set(injected.map((fault) => fault.packetIndex))].sort((a, b) => a - b);
      for (const outcome of outcomes) {
        expect(outcome.bytes, outcome.name).to.equal(bytes.length);
        expect(outcome.live, outcome.name).to.deep.equal(outcome.file);
        expect([...new Set(outcome.live.map((key) => key.packetIndex))].sort((a, b) => a - b), outcome.name).to.deep.equal(faultPackets);
        expect(outcome.sourceFindings, outcome.name).to.deep.equal([]);
        expect(outcome.metadataPackets, outcome.name).to.be.above(100);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('inspects a fixture sent to the group by ffmpeg with no finding the sent stream does not have', async function () {
    if (spawnSync('ffmpeg', ['-version']).status !== 0) this.skip();
    const fixture = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const [outcome] = outcomesOf(await runInPrivateNetwork(SCENARIO, ['ffmpeg', fixture], { timeoutMs: 100_000 }));
    expect(outcome.bytes).to.be.above(2_000_000);
    // The recording repeats its findings within a second: records count them, each kind as often as the file has it,
    // and each record is at a finding of the file.
    expect(outcome.liveKinds).to.deep.equal(outcome.fileKinds);
    expect(outcome.live.filter((key) => !outcome.file.some((one) => JSON.stringify(one) === JSON.stringify(key)))).to.deep.equal([]);
    expect(outcome.live.length).to.be.below(outcome.file.length);
    expect(outcome.sourceFindings).to.deep.equal([]);
    // 277 ST 0601 packets in the fixture (MANIFEST.md), every one decoded live.
    expect(outcome.metadataPackets).to.equal(277);
  });
});
