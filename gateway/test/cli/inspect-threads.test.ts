import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARALLEL_READ_MIN_BYTES } from '@klvscope/adapters';
import { generateTransportStream } from '@klvscope/core';
import { runCli } from './run-cli.js';

describe('klvscope inspect --threads', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'klvscope-threads-'));
  // Just above the size from which the file is read on worker threads.
  const file = join(dir, 'recording.ts');
  before(() => {
    const seconds = Math.ceil((PARALLEL_READ_MIN_BYTES * 8) / 10_000_000) + 2;
    writeFileSync(file, generateTransportStream({ durationSeconds: seconds, bitrate: 10_000_000, seed: 5, klv: { carriage: 'async', rateHz: 30 } }).bytes);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the same report with 2 and 3 threads as with one', () => {
    const one = runCli(['inspect', '--json', '--fail-on', 'never', file]);
    expect(one.status, one.stderr).to.equal(0);
    for (const threads of ['2', '3']) {
      const parallel = runCli(['inspect', '--json', '--fail-on', 'never', '--threads', threads, file]);
      expect(parallel.status, parallel.stderr).to.equal(0);
      expect(JSON.parse(parallel.stdout)).to.deep.equal(JSON.parse(one.stdout));
    }
  });

  it("stores the same report with --store and 2 threads as with one, under the file's SHA-256 (hashed from the pass's chunks)", () => {
    const report = (threads: string): unknown => {
      const store = mkdtempSync(join(dir, 'store-'));
      const run = runCli(['inspect', '--json', '--fail-on', 'never', '--threads', threads, '--store', store, file]);
      expect(run.status, run.stderr).to.equal(0);
      // The stage timings and the run's id are new with each run.
      const { stages: _stages, latestIngestRunId: _id, runId: _runId, ...rest } = JSON.parse(run.stdout) as Record<string, unknown>;
      return rest;
    };
    const one = report('1');
    expect(report('2')).to.deep.equal(one);
    expect(one).to.have.property('fileHash', createHash('sha256').update(readFileSync(file)).digest('hex'));
  });

  it('refuses a thread count that is not a whole number from 1 to 64', () => {
    for (const threads of ['0', '1.5']) {
      const { status, stderr } = runCli(['inspect', '--threads', threads, file]);
      expect(status).to.equal(2);
      expect(stderr.trim()).to.equal(`klvscope: --threads must be a whole number from 1 to 64, got '${threads}'`);
    }
  });
});
