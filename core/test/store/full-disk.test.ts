/**
 * Issue 35, a full disk: a live session's database saved to a tmpfs that
 * fills (full-disk-run.ts, on a filesystem of its own): the refusal names
 * the disk, what was saved before stays readable, and the next save after
 * space returns writes everything.
 */
import { expect } from 'chai';
import { runOnTinyFilesystem, tinyFilesystemUnavailableReason } from '../../../test-support/tiny-filesystem.js';

describe('a live session database on a disk that fills', function () {
  this.timeout(120_000);
  let outcome: {
    appended: number;
    savedThrough: number;
    refusal: { code: string; message: string; details: { folder?: string } } | null;
    keptOnDisk: number;
    afterSpace: { total: number; seqs: number[] };
  };

  before(async function () {
    const reason = tinyFilesystemUnavailableReason();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    const run = await runOnTinyFilesystem('core/test/store/full-disk-run.ts', 1024);
    expect(run.exitCode, run.stderr).to.equal(0);
    outcome = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as typeof outcome;
  });

  it('refuses a save with ERR_STORE_DISK_FULL, naming the folder whose disk is full', () => {
    expect(outcome.refusal?.code).to.equal('ERR_STORE_DISK_FULL');
    expect(outcome.refusal?.message).to.match(/the disk holding \S+\/data\/live is full \(ENOSPC\)/);
    expect(outcome.savedThrough, 'some saves went through before the disk filled').to.be.above(0);
  });

  it('leaves on disk exactly what the last good save wrote, readable', () => {
    expect(outcome.keptOnDisk).to.equal(outcome.savedThrough);
  });

  it('saves every row once space returns, in order, none twice', () => {
    const expected = Array.from({ length: outcome.appended }, (_, i) => i + 1);
    expect(outcome.afterSpace).to.deep.equal({ total: outcome.appended, seqs: expected });
  });
});
