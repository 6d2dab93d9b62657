/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any -- the scenario's JSON is read loosely: the assertions check its values */
/**
 * The relay console at scale, in a private network namespace: 64 channels
 * configured, 8 relaying multicast, one in alarm after its rate dropped
 * below its minimum (scenarios/relay-console-64-channels.ts does it all in
 * the namespace; this judges what it saw). Screenshots at 1440 and 800 px
 * and of the detail page go to test-artifacts/: a person looks at them.
 */
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { buildWeb } from '@klvscope/web/build';
import { skipWithoutChromium } from '../../test-support/chromium.js';
import { privateNetworkUnavailableReason, runInPrivateNetwork } from '../../test-support/private-network.js';
import { formatBitrate } from '../src/shared/bitrate-format.js';

describe('the relay console with 64 channels, 8 relaying, in a private network namespace', function () {
  this.timeout(240_000);
  let outcome: any;

  before(async function () {
    skipWithoutChromium(this);
    const reason = privateNetworkUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    // Built before the relay starts: it reads web/dist/relay-console once, at start.
    await buildWeb();
    const run = await runInPrivateNetwork('web/test/scenarios/relay-console-64-channels.ts', [], { timeoutMs: 200_000 });
    if (run.exitCode !== 0) throw new Error(`the scenario failed (exit ${run.exitCode}${run.timedOut ? ', timed out' : ''}):\n${run.stderr}`);
    outcome = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
  });

  it('colours the one channel whose rate dropped below its minimum, with the alarm REST reports', () => {
    expect(outcome.alarmedRows).to.deep.equal(['uav0-ch3']);
    expect(outcome.restAlarms.map((a: any) => a.kind)).to.include('bitrate-low');
    expect(outcome.shownAlarm).to.match(/^input bitrate below its minimum: [\d.]+ kb\/s \(minimum 700\.0 kb\/s\)$/);
  });

  it('shows per-PID rates equal to those of /api/bitrates for the same second', () => {
    const { shown, rest } = outcome.pidComparison;
    expect(shown.length).to.be.at.least(5);
    expect(shown).to.deep.equal(rest);
    expect(formatBitrate(rest[0][1] as number)).to.be.a('string');
  });

  it("costs the console under 10 KB a second, measured by Chromium over 30 s, on the feed alone", () => {
    const { traffic } = outcome;
    console.log(`      console traffic: ${traffic.bytes} bytes in ${(traffic.ms / 1000).toFixed(1)} s = ${Math.round(traffic.bytesPerSecond)} B/s (${traffic.updatesSeen} updates taken in; requests: ${traffic.paths.join(', ') || 'none new'})`);
    expect(traffic.bytes, 'something was measured').to.be.above(1000);
    expect(traffic.bytesPerSecond).to.be.below(10_000);
  });

  it('at 800 px, fits the window and no command overlaps another cell', () => {
    expect(outcome.layout800.overlaps).to.deep.equal([]);
    expect(outcome.layout800.scrollWidth).to.be.at.most(800);
  });

  it("opens the alarmed channel's detail page with its 5-minute input chart and its PIDs over time", () => {
    const [input, pids] = outcome.detailLines;
    expect(input).to.equal(1);
    expect(pids).to.be.at.least(5);
    for (const path of outcome.screenshots) {
      expect(existsSync(path), path).to.equal(true);
      console.log(`      screenshot: ${path}`);
    }
  });
});
