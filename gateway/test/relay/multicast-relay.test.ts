/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- JSON answers are read loosely: the assertions check their values */
import { expect } from 'chai';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { privateNetworkUnavailableReason, runInPrivateNetwork } from '../../../test-support/private-network.js';

describe('relay: a multicast channel in a private network namespace, fed by a replayed fixture', function () {
  this.timeout(90_000);
  let outcome: any;

  before(async function () {
    const reason = privateNetworkUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    const fixture = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const run = await runInPrivateNetwork('gateway/test/relay/scenarios/multicast-relay.ts', [fixture], { timeoutMs: 80_000 });
    if (run.exitCode !== 0) throw new Error(`the scenario failed (exit ${run.exitCode}${run.timedOut ? ', timed out' : ''}):\n${run.stderr}`);
    outcome = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
  });

  it('passes the fixture byte-exact to a multicast and a unicast output', () => {
    expect(outcome.replay.sendErrors).to.equal(0);
    for (const output of outcome.outputs) {
      expect(output.bytes).to.equal(outcome.fileBytes);
      expect(output.datagrams).to.equal(outcome.replay.datagrams);
      expect(output.equal).to.equal(true);
    }
  });

  it("detects the fixture's programs, PIDs, codec and KLV standard exactly as klvscope inspect does", () => {
    const { detection } = outcome.detect;
    expect(detection.problem).to.equal(null);
    expect(detection.programs).to.deep.equal(outcome.inspect.programs);
    expect(detection.pids.map(({ pid, role, streamType, streamTypeName }: Record<string, unknown>) => ({ pid, role, streamType, streamTypeName }))).to.deep.equal(outcome.inspect.pids);
    expect(detection.klv.map(({ pid, carriage, standards }: Record<string, unknown>) => ({ pid, carriage, standards }))).to.deep.equal(outcome.inspect.klv);
    expect(detection.video).to.deep.equal({ pid: 0x100, streamType: 0x1b, codec: 'H.264/AVC video', resolution: '640x480' });
    expect(detection.klv[0].standards).to.deep.equal(['MISB ST 0601']);
    // 277 packets in 9.23 s: about 30 Hz.
    expect(detection.klv[0].rateHz).to.be.within(27, 33);
    expect(detection.errors).to.deep.equal({});
    expect(outcome.detectionInfo).to.deep.equal([detection]);
  });

  it("reads bitrates within 1 % of the replay's paced rate (the mean of the whole seconds of a CBR stream)", () => {
    const { readings, replayBitrate } = outcome.cbr;
    expect(readings.length).to.be.at.least(3);
    const mean = readings.reduce((sum: number, r: { inputBitrate: number }) => sum + r.inputBitrate, 0) / readings.length;
    expect(Math.abs(mean - replayBitrate) / replayBitrate).to.be.below(0.01);
    for (const r of readings) expect(r.outputBitrate).to.equal(2 * r.inputBitrate);
    expect(outcome.cbr.pids.map((p: { pid: number }) => p.pid)).to.include.members([0, 0x100, 0x1000, 0x1fff]);
  });

  it('turns to no-signal with a log message when the sender stops, and recovers when it sends again', () => {
    expect(outcome.stateWhenSilent).to.equal('no-signal');
    expect(outcome.stateAfterRecovery).to.equal('running');
    expect(outcome.logs.map((l: { type: string }) => l.type)).to.deep.equal(['started', 'detection-done', 'no-signal', 'signal-back']);
    expect(outcome.logs[1].message).to.match(/1 program\(s\), 5 PID\(s\), H\.264\/AVC video 640x480, KLV PID 257 MISB ST 0601/);
  });
});
