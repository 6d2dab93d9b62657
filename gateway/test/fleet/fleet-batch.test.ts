import { expect } from 'chai';
import { privateNetworkUnavailableReason, runInPrivateNetwork } from '../../../test-support/private-network.js';
import { requirePostgres } from '../../../test-support/postgres-cluster.js';

describe('the fleet inspecting a batch on three workers', function () {
  this.timeout(300_000);

  before(function () {
    requirePostgres(this);
    const reason = privateNetworkUnavailableReason() ?? (process.getuid?.() === 0 ? null : 'the workers\' network namespaces and veth pairs need root');
    if (reason !== null) {
      if (process.env.CI === 'true') throw new Error(`the fleet test needs network namespaces under CI: ${reason}`);
      this.skip();
    }
  });

  it('inspects 30 recordings queued through POST /automation/batch as the single node does, through two workers killed mid-job and PostgreSQL stopped for 10 s, with one run per content and nothing orphaned', async function () {
    const run = await runInPrivateNetwork('gateway/test/fleet/fleet-batch-scenario.ts', [], { timeoutMs: 280_000 });
    expect(run.timedOut, `the scenario timed out; its stderr (end):\n${run.stderr.slice(-6000)}`).to.equal(false);
    expect(run.exitCode, run.stderr.slice(-8000)).to.equal(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as {
      recordings: number;
      compared: number;
      kills: { path: string; bytesReadAtKill: number }[];
      inconsistencies: unknown[];
      swept: number;
      workers: number;
      completedBeforeOutage: number;
    };
    // The outage came mid-batch: some recordings were done before it, and the rest after.
    expect(summary.completedBeforeOutage).to.be.within(1, 29);
    expect(summary.recordings).to.equal(30);
    expect(summary.compared).to.equal(30);
    expect(summary.kills.map((kill) => kill.path)).to.deep.equal(['long-a.ts', 'long-b.ts']);
    // Killed at different points: as soon as it was seen reading one file, 40 MB further into the other.
    expect(summary.kills[0].bytesReadAtKill).to.equal(0);
    expect(summary.kills[1].bytesReadAtKill).to.be.at.least(40_000_000);
    expect(summary.inconsistencies).to.deep.equal([]);
    // At most one run left half-stored per kill, swept; none left after (the consistency check looks for them).
    expect(summary.swept).to.be.within(0, 2);
    // The three first workers, and the replacements of the two killed that registered before the batch ended (under load a replacement may still be starting).
    expect(summary.workers).to.be.within(3, 5);
  });
});
