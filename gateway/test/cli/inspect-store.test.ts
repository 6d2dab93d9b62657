import { expect } from 'chai';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@klvscope/core/store';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

interface CheckJson {
  checkId: string;
  summary: unknown;
}

function summaries(checks: CheckJson[]): Record<string, unknown> {
  return Object.fromEntries(checks.map((c) => [c.checkId, c.summary]));
}

describe('klvscope inspect --store and archive', function () {
  this.timeout(60_000);

  it('gives the same verdicts from the stored observations as from the file, and reuses every stage the second time', function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const store = mkdtempSync(join(tmpdir(), 'klvscope-store-'));
    const direct = JSON.parse(runCli(['inspect', '--json', '--fail-on', 'never', file]).stdout) as { checks: CheckJson[] };
    const first = runCli(['inspect', '--json', '--fail-on', 'never', '--store', store, file]);
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stderr).to.match(/analyze ran .*, ingest ran .*, process ran .*, report ran/);
    const stored = JSON.parse(first.stdout) as { checks: CheckJson[]; fileHash: string; latestIngestRunId: string; verdict: string };
    // All 17 checks, re-run over the observations read back from the run database: the same summaries, to the last count.
    expect(stored.checks).to.have.length(17);
    expect(summaries(stored.checks)).to.deep.equal(summaries(direct.checks));
    expect(stored.verdict).to.equal('fail');
    expect(stored.fileHash).to.match(/^[0-9a-f]{64}$/);

    const second = runCli(['inspect', '--json', '--fail-on', 'never', '--store', store, file]);
    expect(second.stderr).to.match(/analyze reused .*, ingest reused .*, process reused .*, report ran/);
    const { stages: firstStages, ...firstReport } = stored as typeof stored & { stages: unknown };
    const { stages: secondStages, ...secondReport } = JSON.parse(second.stdout) as typeof stored & { stages: unknown };
    expect(secondReport).to.deep.equal(firstReport);
    expect(secondStages).to.not.deep.equal(firstStages);
  });

  it('prints a check’s stored points exactly as the direct run prints them', function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const store = mkdtempSync(join(tmpdir(), 'klvscope-store-'));
    const args = ['inspect', '--check', 'mpegts-pcr-intervals', '--format', 'json', file];
    const direct = runCli(args);
    const stored = runCli([...args, '--store', store]);
    expect(stored.status).to.equal(direct.status).and.to.equal(1);
    const points = JSON.parse(stored.stdout) as unknown[];
    const expected = JSON.parse(direct.stdout) as unknown[];
    expect(points).to.have.length(expected.length).and.to.have.length.greaterThan(20);
    expect(points).to.deep.equal(expected);
  });

  it('lists, shows and removes archived files, run databases included', function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts');
    const store = mkdtempSync(join(tmpdir(), 'klvscope-store-'));
    runCli(['inspect', '--store', store, file]);
    const listed = JSON.parse(runCli(['archive', 'ls', '--json', '--store', store]).stdout) as Array<{ hash: string; firstPath: string; stages: string[] }>;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.deep.include({ firstPath: file, stages: ['analyze', 'ingest', 'process'] });
    const shown = runCli(['archive', 'show', file, '--store', store]);
    expect(shown.stdout).to.include(listed[0].hash).and.to.match(/completed/);
    expect(readdirSync(join(store, 'runs'))).to.have.length(1);

    const removed = runCli(['archive', 'rm', listed[0].hash.slice(0, 12), '--store', store]);
    expect(removed.stdout).to.equal('Deleted 1 of 1 entry.\n');
    expect(runCli(['archive', 'ls', '--store', store]).stdout).to.equal('The archive is empty.\n');
    expect(readdirSync(join(store, 'runs'))).to.deep.equal([]);
  });

  it('refuses a data folder another process holds, naming it', async function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts');
    const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-store-'));
    const holder = await Store.open({ dataDir });
    try {
      const { status, stderr } = runCli(['inspect', '--store', dataDir, file]);
      expect(status).to.equal(2);
      expect(stderr).to.include(dataDir).and.to.include(String(process.pid));
    } finally {
      await holder.close();
    }
  });
});
