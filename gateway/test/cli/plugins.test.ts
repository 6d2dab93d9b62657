import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureOrSkip, repoRoot } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

/** A folder with a klvscope.config.json naming the given plugin modules. */
function project(plugins: string[], files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'klvscope-plugins-'));
  writeFileSync(join(dir, 'klvscope.config.json'), JSON.stringify({ plugins }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const example = join(repoRoot, 'plugins', 'examples', 'mission-id-policy.ts');

describe('check plugins named in the configuration', function () {
  this.timeout(30_000);

  it('loads the example custom check and runs it in klvscope inspect', function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    // The file's own PCR interval errors are not what this test is about.
    const { status, stdout } = runCli(['inspect', file, '--fail-on', 'never'], project([example]));
    expect(status).to.equal(0);
    expect(stdout).to.match(/team-mission-id-policy +warn +277 warn/);
  });

  it("prints the plugin check's points as CSV and fails on warnings when asked", function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { status, stdout } = runCli(['inspect', file, '--check', 'team-mission-id-policy', '--format', 'csv', '--fail-on', 'warn'], project([example]));
    expect(status).to.equal(1);
    const rows = stdout.trim().split('\n');
    expect(rows[0]).to.equal('t,offset,packetIndex,pid,value,unit,violation,severity,type,message,citation');
    expect(rows).to.have.length(278);
    // The message holds the pattern's comma ({3,32}), so CSV quotes it.
    expect(rows[1]).to.match(/,257,,,true,warning,mission-id-format,"Mission ID '0' does not match \^\[A-Z0-9_-\]\{3,32\}\$",team policy$/);
  });

  it('names the module and the problem when a plugin is not a valid check, and exits with 2', function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts');
    const dir = project(['./broken.mjs'], { 'broken.mjs': "export default { id: 'Bad_Id', version: 'one', create() { return {}; } };\n" });
    const { status, stderr } = runCli(['inspect', file], dir);
    expect(status).to.equal(2);
    expect(stderr).to.match(/check module '\.\/broken\.mjs': invalid check 'Bad_Id': id must be kebab-case/);
  });

  it('exits with 2 when a configured module cannot be found', function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts');
    const { status, stderr } = runCli(['inspect', file], project(['@nobody/no-such-checks']));
    expect(status).to.equal(2);
    expect(stderr).to.match(/check module '@nobody\/no-such-checks': package not found/);
  });

  it('refuses a plugin check whose id is already taken', function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts');
    const { status, stderr } = runCli(['inspect', file], project([example, example]));
    expect(status).to.equal(2);
    expect(stderr).to.match(/check id 'team-mission-id-policy' is already defined/);
  });
});
