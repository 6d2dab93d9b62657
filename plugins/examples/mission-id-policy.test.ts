// The example check's own test, as a team would write it: CheckTester cases
// on recorded files (here the shared fixtures) and a direct run for details.
import { expect } from 'chai';
import { BUILT_IN_CHECKS, CheckTester, runCheck } from '@klvscope/plugins';
import { RulesError, printRuleSet, resolveRuleSet } from '@klvscope/rules';
import { fixturePath, fixtureOrSkip } from '../../test-support/fixtures.js';
import { missionIdPolicy } from './mission-id-policy.js';

describe('example check: team-mission-id-policy', function () {
  this.timeout(30_000);

  it('flags every packet of a file whose Mission ID is "0"', async function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { violations, result } = await runCheck(missionIdPolicy, { file });
    expect(violations).to.have.length(277);
    expect(violations[0]).to.include({ type: 'mission-id-format', severity: 'warning', pid: 0x101 });
    expect(result.summary.verdict).to.equal('warn');
  });

  it('accepts the same file under a looser pattern', async function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { violations } = await runCheck(missionIdPolicy, { file }, { pattern: '^\\d+$' });
    expect(violations).to.deep.equal([]);
  });

  it('is not applicable to a file without KLV', async function () {
    const file = fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts');
    const { result } = await runCheck(missionIdPolicy, { file });
    expect(result.summary.verdict).to.equal('not-applicable');
  });

  it('has its rule slice, built with classic zod, validated and printed beside the zod/mini slices of the built-in checks', () => {
    const checks = [...BUILT_IN_CHECKS, missionIdPolicy];
    const { ruleSet } = resolveRuleSet(checks, { checks: { 'team-mission-id-policy': { required: false }, 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } });
    expect(printRuleSet(ruleSet, checks).split('\n').slice(-3)).to.deep.equal([
      'team-mission-id-policy: Mission ID follows the team naming rule',
      '  pattern = "^[A-Z0-9_-]{3,32}$"    # check default: regular expression the Mission ID must match (team policy, not a MISB rule)',
      '  required = false    # user value; check default true',
    ]);
    let error: unknown;
    try {
      resolveRuleSet(checks, { checks: { 'team-mission-id-policy': { required: 'yes', colour: 'red' }, 'mpegts-pcr-intervals': { maxIntervalMs: -1, colour: 'red' } } });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(RulesError);
    expect((error as RulesError).problems).to.deep.equal([
      'checks.mpegts-pcr-intervals.maxIntervalMs: expected a positive number, got -1',
      'checks.mpegts-pcr-intervals.colour: unknown rule (known: maxIntervalMs)',
      'checks.team-mission-id-policy.required: expected true or false, got "yes"',
      'checks.team-mission-id-policy.colour: unknown rule (known: pattern, required)',
    ]);
  });

  new CheckTester(missionIdPolicy).cases({
    valid: [{ name: 'MISSION01 and MISSION02 follow the rule', input: { file: fixturePath('real', 'kwiver_h264_klv.ts') } }],
  });
});
