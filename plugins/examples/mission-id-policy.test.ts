// The example check's own test, as a team would write it: CheckTester cases
// on recorded files (here the shared fixtures) and a direct run for details.
import { expect } from 'chai';
import { CheckTester, runCheck } from '@klvscope/plugins';
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

  new CheckTester(missionIdPolicy).cases({
    valid: [{ name: 'MISSION01 and MISSION02 follow the rule', input: { file: fixturePath('real', 'kwiver_h264_klv.ts') } }],
  });
});
