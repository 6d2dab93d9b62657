import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

describe('klvscope inspect', function () {
  this.timeout(30_000);

  it('prints the inventory of a real file with its KLV PIDs and no errors', function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts');
    const { status, stdout } = runCli(['inspect', file]);
    // The parser finds no error; two checks do (PID 0x103 never carried, the sync KLV late): exit 1.
    expect(status).to.equal(1);
    expect(stdout).to.match(/mpegts-errors +fail +1 error/);
    expect(stdout).to.match(/718 packets of 188 bytes/);
    expect(stdout).to.match(/Program 1 +PMT 0x1000 +PCR 0x0100/);
    expect(stdout).to.match(/0x0101 +metadata in PES \(0x15\)/);
    expect(stdout).to.match(/0x0103 +PES private data \(0x06\) +\[declared, no packets\]/);
    expect(stdout).to.match(/Errors +none/);
  });

  it('prints the same inventory as JSON with --json', function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { status, stdout } = runCli(['inspect', '--json', '--fail-on', 'never', file]);
    expect(status).to.equal(0);
    const inventory = JSON.parse(stdout) as { totalPackets: number; pids: Array<{ pid: number; pesCount: number; streamType: number | null }>; durationSeconds: number };
    expect(inventory.totalPackets).to.equal(11943);
    expect(inventory.pids.find((p) => p.pid === 0x101)).to.include({ pesCount: 277, streamType: 0x06 });
    expect(inventory.durationSeconds).to.be.closeTo(9.24, 0.02);
  });

  it('exits with 1 when a check finds an error: the 333 ms PCR intervals of the osh sample', function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { status, stdout } = runCli(['inspect', file]);
    expect(status).to.equal(1);
    expect(stdout).to.match(/mpegts-pcr-intervals +fail +27 error +333 ms +27 violations/);
    expect(runCli(['inspect', '--fail-on', 'never', file]).status).to.equal(0);
  });

  it('exits with 2 and one line for a missing file', () => {
    const { status, stderr } = runCli(['inspect', '/no/such/file.ts']);
    expect(status).to.equal(2);
    expect(stderr.trim().split('\n')).to.deep.equal(['klvscope: no such file: /no/such/file.ts']);
  });

  it('exits with 2 for a file that is not a transport stream', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'klvscope-')), 'notes.txt');
    writeFileSync(path, 'hello, this is not MPEG-TS\n'.repeat(100));
    const { status, stderr } = runCli(['inspect', path]);
    expect(status).to.equal(2);
    expect(stderr).to.match(/not an MPEG-TS stream/);
  });

  it('exits with 2 for a directory, a missing argument and an unknown command', () => {
    expect(runCli(['inspect', tmpdir()]).status).to.equal(2);
    expect(runCli(['inspect']).status).to.equal(2);
    expect(runCli(['frobnicate']).status).to.equal(2);
  });
});
