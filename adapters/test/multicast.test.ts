import { expect } from 'chai';
import { join } from 'node:path';
import type { LiveSourceStats, ReplayStats } from '../src/index.js';
import { repoRoot } from '../../test-support/fixtures.js';
import { privateNetworkUnavailableReason, runInPrivateNetwork } from '../../test-support/private-network.js';

interface Reception {
  bytes: number;
  sameBytesAsFile: boolean;
  stats: LiveSourceStats;
}

interface ScenarioResult {
  interfaces: string[];
  fileBytes: number;
  replays: ReplayStats[];
  anySource: Reception;
  sourceSpecific: Reception;
  otherSender: Reception;
}

describe('multicast (in a private network namespace)', function () {
  this.timeout(30_000);
  let result: ScenarioResult;

  before(async function () {
    const unavailable = privateNetworkUnavailableReason();
    if (unavailable !== null) {
      console.log(`      skipped: ${unavailable}`);
      this.skip();
    }
    const run = await runInPrivateNetwork(join(repoRoot, 'adapters/test/scenarios/multicast-replay.ts'));
    expect(run.timedOut, run.stderr).to.be.false;
    expect(run.exitCode, run.stderr).to.equal(0);
    result = JSON.parse(run.stdout) as ScenarioResult;
  });

  it('runs where loopback is the only interface', () => {
    expect(result.interfaces).to.deep.equal(['lo']);
  });

  it('receives a replay to an any-source group whole and in order', () => {
    expect(result.replays[0]).to.include({ sendErrors: 0, bytes: result.fileBytes, aborted: false });
    expect(result.anySource).to.deep.include({ bytes: result.fileBytes, sameBytesAsFile: true });
    expect(result.anySource.stats).to.include({ rtp: false, applicationLoss: 0, chunks: result.replays[0].datagrams });
  });

  it('receives a source-specific group from the named sender, RTP unwrapped', () => {
    expect(result.replays[1].sendErrors).to.equal(0);
    expect(result.sourceSpecific).to.deep.include({ bytes: result.fileBytes, sameBytesAsFile: true });
    expect(result.sourceSpecific.stats).to.include({ rtp: true, rtpLost: 0, chunks: result.replays[1].datagrams });
  });

  it('receives nothing on the same group and port for another sender', () => {
    expect(result.otherSender.bytes).to.equal(0);
    expect(result.otherSender.stats.chunks).to.equal(0);
  });
});
