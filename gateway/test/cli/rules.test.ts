import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'klvscope-rules-'));
function rulesFile(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('klvscope rules and rule options', function () {
  this.timeout(30_000);

  it('prints the effective rule set of a profile with the source of each threshold', () => {
    const { status, stdout } = runCli(['rules', 'print', '--profile', 'tr101290']);
    expect(status).to.equal(0);
    expect(stdout).to.match(/^profile: tr101290/);
    expect(stdout).to.match(/maxIntervalMs = 100 +# ETSI TR 101 290 V1\.4\.1 .*2\.3a/);
    expect(stdout).to.include('mandatoryTags = [1,2,65]');
  });

  it('prints the rule set as JSON, the default profile stanag4609', () => {
    const ruleSet = JSON.parse(runCli(['rules', 'print', '--json']).stdout) as { profile: string; checks: Record<string, Record<string, unknown>> };
    expect(ruleSet.profile).to.equal('stanag4609');
    expect(Object.keys(ruleSet.checks)).to.have.length(17);
    expect(ruleSet.checks['mpegts-pat-intervals']).to.deep.equal({ maxIntervalMs: 250 });
  });

  it('accepts a valid rule file and refuses a bad one, naming every problem (exit 2)', () => {
    expect(runCli(['rules', 'check', rulesFile('good.json', { profile: 'tr101290', checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 30 } } })]).stdout).to.match(/good\.json: valid \(profile tr101290, 17 checks\)/);
    const bad = runCli(['rules', 'check', rulesFile('bad.json', { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: -5 }, 'no-such-check': {} } })]);
    expect(bad.status).to.equal(2);
    expect(bad.stderr).to.match(/checks\.mpegts-pcr-intervals\.maxIntervalMs: expected a positive number, got -5; checks\.no-such-check: unknown check/);
  });

  it('applies a --rules file to inspect: a 30 ms PCR limit fails the 33 ms PCR of kwiver_h264_klv.ts', function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    expect(runCli(['inspect', file]).stdout).to.match(/mpegts-pcr-intervals +pass/);
    const tight = runCli(['inspect', file, '--rules', rulesFile('tight.json', { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 30 } } })]);
    expect(tight.status).to.equal(1);
    expect(tight.stdout).to.match(/mpegts-pcr-intervals +fail +29 error/);
  });

  it('refuses an unknown profile with exit 2', () => {
    const { status, stderr } = runCli(['rules', 'print', '--profile', 'dvb-t2']);
    expect(status).to.equal(2);
    expect(stderr).to.match(/unknown rule profile 'dvb-t2'/);
  });
});
