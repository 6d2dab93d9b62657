/**
 * The installed command: gateway/bin/klvscope.cjs running the bundle of the CLI with the V8
 * code cache that `npm run build` makes (scripts/bundle.mjs, run again here so that the test
 * sees the current sources). The other CLI tests run the TypeScript sources.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { repoRoot } from '../../../test-support/fixtures.js';
import { runCli, type CliResult } from './run-cli.js';

const bin = join(repoRoot, 'gateway/bin/klvscope.cjs');

/** The installed command, started as `node [nodeOptions] gateway/bin/klvscope.cjs ARGS`. */
function installed(args: string[], { cwd = repoRoot, nodeOptions = [] as string[] } = {}): CliResult {
  const result = spawnSync(process.execPath, [...nodeOptions, bin, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What load-cli.cjs says of the code cache in a process started with these node options. */
function codeCacheWith(nodeOptions: string[]): string {
  const probe = "process.stdout.write(require('./gateway/bin/load-cli.cjs').loadCli().codeCache)";
  return spawnSync(process.execPath, [...nodeOptions, '-e', probe], { cwd: repoRoot, encoding: 'utf8' }).stdout;
}

describe('the installed klvscope command (bundle and code cache)', function () {
  this.timeout(120_000);
  let work: string;
  let file: string;

  before(function () {
    const built = spawnSync(process.execPath, ['scripts/bundle.mjs'], { cwd: repoRoot, encoding: 'utf8' });
    expect(built.status, built.stderr).to.equal(0);
    work = mkdtempSync(join(tmpdir(), 'klvscope-installed-'));
    file = join(work, 'flight.ts');
    // A dropped packet: a continuity error, so that the exit code is 1 and the table has a failure to show.
    const faults = [parseFaultSpec('drop-packet@1.5')];
    writeFileSync(file, generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, seed: 7, klv: { carriage: 'async' }, faults }).bytes);
  });

  after(function () {
    rmSync(work, { recursive: true, force: true });
  });

  it('loads the bundle with the code cache the build made', function () {
    expect(codeCacheWith([])).to.equal('accepted');
  });

  it('prints what the sources print, exit code included', function () {
    const fromSources = runCli(['inspect', file]);
    const fromBundle = installed(['inspect', file]);
    expect(fromSources.status).to.equal(1);
    expect(fromBundle.status).to.equal(fromSources.status);
    expect(fromBundle.stdout).to.equal(fromSources.stdout);
  });

  it('keeps the stages in a data folder and reuses every one of them the second time', function () {
    const data = join(work, 'data');
    const args = ['inspect', file, '--json', '--fail-on', 'never', '--store', data];
    const first = installed(args);
    const second = installed(args);
    expect(first.status, first.stderr).to.equal(0);
    expect(second.status, second.stderr).to.equal(0);
    const firstReport = JSON.parse(first.stdout) as { stages: Array<{ stage: string; reused: boolean }>; checks: unknown };
    const secondReport = JSON.parse(second.stdout) as typeof firstReport;
    expect(firstReport.stages.filter((s) => s.reused)).to.deep.equal([]);
    expect(secondReport.stages.filter((s) => !s.reused).map((s) => s.stage)).to.deep.equal(['report']);
    expect(secondReport.checks).to.deep.equal(firstReport.checks);
  });

  it('runs without the cache when V8 rejects it (other V8 flags), with the same output', function () {
    expect(codeCacheWith(['--max-lazy'])).to.equal('rejected');
    const usual = installed(['inspect', file]);
    const rejected = installed(['inspect', file], { nodeOptions: ['--max-lazy'] });
    expect(rejected.status).to.equal(usual.status);
    expect(rejected.stdout).to.equal(usual.stdout);
  });

  it('imports the check modules the configuration names, and names a bad one', function () {
    const project = mkdtempSync(join(work, 'project-'));
    writeFileSync(join(project, 'klvscope.config.json'), JSON.stringify({ plugins: ['./broken.mjs'] }));
    writeFileSync(join(project, 'broken.mjs'), "export default { id: 'Bad_Id', version: 'one', create() { return {}; } };\n");
    const { status, stderr } = installed(['inspect', file], { cwd: project });
    expect(status).to.equal(2);
    expect(stderr).to.match(/check module '\.\/broken\.mjs': invalid check 'Bad_Id': id must be kebab-case/);
  });
});
