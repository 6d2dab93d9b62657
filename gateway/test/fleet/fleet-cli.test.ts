import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateTransportStream } from '@klvscope/core';
import { PostgresCluster, requirePostgres } from '../../../test-support/postgres-cluster.js';
import { runCli } from '../cli/run-cli.js';

describe('the fleet from the command line', function () {
  this.timeout(120_000);
  let cluster: PostgresCluster | undefined;
  let url: string;
  let work: string;
  let recording: string;

  before(async function () {
    requirePostgres(this);
    cluster = await PostgresCluster.start();
    url = cluster.createDatabase('cli');
    work = mkdtempSync(join(tmpdir(), 'klvscope-fleet-cli-'));
    recording = join(work, 'sortie.ts');
    writeFileSync(recording, generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, klv: {}, seed: 5 }).bytes);
  });
  after(function () {
    cluster?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('publishes an inspect --store to the fleet, and a second machine reuses it instead of reading the file', function () {
    const first = runCli(['inspect', recording, '--store', join(work, 'node-a'), '--catalog', url, '--fail-on', 'never']);
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stderr).to.match(/analyze ran/).and.match(/Fleet 127\.0\.0\.1:\d+\/cli: published ingest run/);
    const second = runCli(['inspect', recording, '--store', join(work, 'node-b'), '--catalog', url, '--fail-on', 'never']);
    expect(second.status, second.stderr).to.equal(0);
    expect(second.stderr).to.match(/analyze reused.*ingest reused.*process reused/).and.match(/already held ingest run/);
    expect(second.stdout).to.equal(first.stdout);
  });

  it('lists, shows and deletes the fleet\'s archive with --catalog', function () {
    const listed = runCli(['archive', 'ls', '--catalog', url, '--json']);
    expect(listed.status, listed.stderr).to.equal(0);
    const entries = JSON.parse(listed.stdout) as { hash: string; firstPath: string; stages: string[] }[];
    expect(entries.map((e) => [e.firstPath, e.stages])).to.deep.equal([[recording, ['analyze', 'ingest', 'process']]]);
    const shown = runCli(['archive', 'show', recording, '--catalog', url]);
    expect(shown.stdout).to.contain(`Hash     ${entries[0].hash}`).and.contain('Runs     1');
    const removed = runCli(['archive', 'rm', entries[0].hash.slice(0, 10), '--catalog', url]);
    expect(removed.stdout).to.equal('Deleted 1 of 1 entry.\n');
    expect(runCli(['archive', 'ls', '--catalog', url]).stdout).to.equal('The archive is empty.\n');
  });

  it('queues a folder with enqueue --no-wait, and fleet shows it queued with no worker', function () {
    const queued = runCli(['enqueue', work, '--catalog', url, '--no-wait']);
    expect(queued.status, queued.stderr).to.equal(0);
    expect(queued.stdout).to.match(/^batch [0-9a-f-]{36}: 1 recording queued\n$/);
    const fleet = runCli(['fleet', '--catalog', url, '--json']);
    const status = JSON.parse(fleet.stdout) as { workers: unknown[]; queue: { created: number } };
    expect(status.workers).to.deep.equal([]);
    expect(status.queue.created).to.equal(1);
    expect(runCli(['fleet', '--catalog', url]).stdout).to.match(/^queue: 1 queued, 0 active, 0 done, 0 failed\n\nno workers seen in the last 24 h\n$/);
  });

  it('says what is wrong, in one line with exit 2, for a missing catalog, a bad URL and an unreachable server', function () {
    const none = runCli(['worker']);
    expect(none.status).to.equal(2);
    expect(none.stderr).to.contain('--catalog postgres://');
    const bad = runCli(['fleet', '--catalog', 'mysql://x']);
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.contain("--catalog takes a PostgreSQL URL");
    const down = runCli(['archive', 'ls', '--catalog', 'postgres://postgres@127.0.0.1:1/none']);
    expect(down.status).to.equal(2);
    expect(down.stderr).to.equal("klvscope: the catalog's PostgreSQL at 127.0.0.1:1/none cannot be reached: connect ECONNREFUSED 127.0.0.1:1\n");
  });
});
