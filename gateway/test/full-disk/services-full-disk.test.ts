/**
 * Issue 35, a full disk through the services: an ingest, an export, the
 * streaming module's recording and the relay's saves, each on a tmpfs of
 * its own that a ballast file fills (services-full-disk-run.ts). Each must
 * say which disk is full, leave nothing corrupt or half-written, and work
 * again once the ballast is deleted.
 */
import { expect } from 'chai';
import { runOnTinyFilesystem, tinyFilesystemUnavailableReason } from '../../../test-support/tiny-filesystem.js';

const DISK_KB = 8 * 1024;
/** The CLI's exit code for a full disk (run-cli.ts: sysexits' EX_IOERR). */
const DISK_FULL_EXIT = 74;

interface CliOutcome {
  status: number | null;
  stderr: string;
}

async function runPath<T>(path: string): Promise<T> {
  const run = await runOnTinyFilesystem('gateway/test/full-disk/services-full-disk-run.ts', DISK_KB, [path], 170_000);
  expect(run.exitCode, run.stderr).to.equal(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as T;
}

describe('the services on a disk that fills', function () {
  this.timeout(180_000);

  before(function () {
    const reason = tinyFilesystemUnavailableReason();
    if (reason) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
  });

  it('inspect --store: exit 74 naming the disk, the catalog and the earlier run intact, the same ingest done once space returns', async () => {
    const outcome = await runPath<{
      withSpace: CliOutcome;
      full: CliOutcome;
      onFullDisk: { catalogUnchanged: boolean; temporaries: string[] };
      firstRuns: Array<{ status: string }>;
      again: CliOutcome;
      secondRuns: Array<{ status: string }>;
    }>('ingest');
    expect(outcome.withSpace.status, outcome.withSpace.stderr).to.equal(0);
    expect(outcome.full.status, outcome.full.stderr).to.equal(DISK_FULL_EXIT);
    expect(outcome.full.stderr).to.match(/^klvscope: the disk holding \S+\/data is full \(ENOSPC\): /);
    expect(outcome.full.stderr, 'a message, not a stack').not.to.include('    at ');
    expect(outcome.onFullDisk).to.deep.equal({ catalogUnchanged: true, temporaries: [] });
    expect(outcome.firstRuns.map(({ status }) => status)).to.deep.equal(['completed']);
    expect(outcome.again.status, outcome.again.stderr).to.equal(0);
    expect(outcome.secondRuns.map(({ status }) => status)).to.deep.equal(['completed']);
  });

  it('inspect --store with no room even for the lock: exit 74 naming the disk, no lock left behind, the ingest done once space returns', async () => {
    const outcome = await runPath<{ full: CliOutcome; lockLeft: boolean; again: CliOutcome; runs: Array<{ status: string }> }>('lock');
    expect(outcome.full.status, outcome.full.stderr).to.equal(DISK_FULL_EXIT);
    expect(outcome.full.stderr).to.match(/^klvscope: the disk holding \S+\/data is full \(ENOSPC\): the lock of the data folder could not be written/);
    expect(outcome.lockLeft).to.equal(false);
    expect(outcome.again.status, outcome.again.stderr).to.equal(0);
    expect(outcome.runs.map(({ status }) => status)).to.deep.equal(['completed']);
  });

  it('klvscope export --out: exit 74 naming the disk, no half file, the file of that name as it was, the same export done once space returns', async () => {
    const outcome = await runPath<{
      withSpace: CliOutcome;
      before: { bytes: number };
      fullOther: CliOutcome;
      fullSame: CliOutcome;
      onFullDisk: { sameFileUnchanged: boolean; files: string[]; temporaries: string[] };
      again: CliOutcome;
      againEqual: boolean;
    }>('export');
    expect(outcome.withSpace.status, outcome.withSpace.stderr).to.equal(0);
    expect(outcome.before.bytes).to.be.above(8 * 1024);
    for (const full of [outcome.fullOther, outcome.fullSame]) {
      expect(full.status, full.stderr).to.equal(DISK_FULL_EXIT);
      expect(full.stderr).to.match(/^klvscope: the disk holding \S+ is full \(ENOSPC\): \S+\.ndjson was not written \(no part of it is left/);
    }
    expect(outcome.onFullDisk).to.deep.equal({ sameFileUnchanged: true, files: ['ballast', 'data', 'fields.ndjson'], temporaries: [] });
    expect(outcome.again.status, outcome.again.stderr).to.equal(0);
    expect(outcome.againEqual, 'the export after space returned equals the one before').to.equal(true);
  });

  it('the recorder: failed with a reason naming the disk, the rotated files intact and whole packets, the module answering, recording again after `recorder start`', async () => {
    const outcome = await runPath<{
      started: string;
      failed: { state: string; reason: string };
      onFullDisk: { files: Array<{ bytes: number }>; closedUnchanged: boolean; wholePackets: boolean; temporaries: string[]; moduleAnswers: boolean };
      restarted: string;
      stopped: string;
      newFile: { bytes: number };
      wholePacketsAfter: boolean;
    }>('recording');
    expect(outcome.started).to.equal('running');
    expect(outcome.failed.state).to.equal('failed');
    expect(outcome.failed.reason).to.match(/no space left on device \(ENOSPC\): the disk holding \S+\/data\/recordings is full; the file keeps its whole packets/);
    expect(outcome.onFullDisk.files.length).to.be.at.least(3);
    expect({ ...outcome.onFullDisk, files: undefined }).to.deep.equal({ files: undefined, closedUnchanged: true, wholePackets: true, temporaries: [], moduleAnswers: true });
    expect(outcome.restarted).to.equal('running');
    expect(outcome.stopped).to.equal('stopped');
    expect(outcome.newFile.bytes).to.be.above(0);
    expect(outcome.wholePacketsAfter).to.equal(true);
  });

  it("the relay's saves: 503 ERR_STORE_DISK_FULL naming the disk, its database file and its platforms as they were, the same request done once when repeated after space returns", async () => {
    const outcome = await runPath<{
      withSpace: number;
      full: { status: number; body: { error: { code: string; message: string; details: { folder: string } } } };
      onFullDisk: { databaseUnchanged: boolean; temporaries: string[]; health: number; platformsUnchanged: boolean };
      again: number;
      namesServed: string[];
      names: string[];
    }>('relay');
    expect(outcome.withSpace).to.equal(201);
    expect(outcome.full.status).to.equal(503);
    expect(outcome.full.body.error.code).to.equal('ERR_STORE_DISK_FULL');
    expect(outcome.full.body.error.message).to.match(/^the disk holding \S+\/data\/relay is full \(ENOSPC\): relay database was not saved; its previous file is intact/);
    // The refused change was undone in memory too: GET /platforms answers as before it.
    expect(outcome.onFullDisk).to.deep.equal({ databaseUnchanged: true, temporaries: [], health: 200, platformsUnchanged: true });
    expect(outcome.again).to.equal(201);
    // The repeated POST made its platform once, served and on disk.
    expect(outcome.namesServed).to.deep.equal(['before the disk filled', 'on the full disk']);
    expect(outcome.names).to.deep.equal(['before the disk filled', 'on the full disk']);
  });
});
