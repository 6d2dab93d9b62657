import { expect } from 'chai';
import { CoreError } from '@klvscope/core';
import { buildRuleSetSchema } from '../src/index.js';
import { CHECKS, legacyCheck, pcrIntervals, teamCheck, thrownBy } from './test-checks.js';

describe('the rule-set schema', () => {
  it("unites the registered checks' slices and the shared settings, filled from the checks' own defaults", () => {
    expect(buildRuleSetSchema(CHECKS).parse({})).to.deep.equal({
      shared: { maxPointsPerCheck: 10_000, disabledChecks: [] },
      checks: {
        'mpegts-pcr-intervals': { maxIntervalMs: 60 },
        'mpegts-pcr-pts-drift': { minDelayMs: -50, maxDelayMs: 2000, windowS: 10 },
        'klv-mandatory-field-errors': { mandatoryTags: [1] },
        'team-check': { limit: 7, label: 'x', mode: 'fast' },
        'mpegts-psi-table-positions': {},
      },
    });
  });

  it('fills the rules a slice leaves out and keeps those it gives', () => {
    const parsed = buildRuleSetSchema([teamCheck]).parse({ shared: { maxPointsPerCheck: 5 }, checks: { 'team-check': { limit: 9 } } });
    expect(parsed).to.deep.equal({ shared: { maxPointsPerCheck: 5, disabledChecks: [] }, checks: { 'team-check': { limit: 9, label: 'x', mode: 'fast' } } });
  });

  it('keeps a profile name it knows and applies no profile itself', () => {
    expect(buildRuleSetSchema([pcrIntervals]).parse({ profile: 'tr101290' })).to.deep.equal({
      profile: 'tr101290',
      shared: { maxPointsPerCheck: 10_000, disabledChecks: [] },
      checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 60 } },
    });
  });

  it('refuses an unknown field, shared setting, check and rule, each at its own path', () => {
    const result = buildRuleSetSchema([pcrIntervals]).safeParse({ extra: 1, shared: { colour: 'red' }, checks: { 'mpegts-pcr-intervals': { minIntervalMs: 1 }, 'no-such-check': {} } });
    expect(result.success).to.equal(false);
    expect(result.error?.issues.map((issue) => [issue.code, issue.path.join('.'), 'keys' in issue ? issue.keys : null])).to.deep.equal([
      ['unrecognized_keys', 'shared', ['colour']],
      ['unrecognized_keys', 'checks.mpegts-pcr-intervals', ['minIntervalMs']],
      ['unrecognized_keys', 'checks', ['no-such-check']],
      ['unrecognized_keys', '', ['extra']],
    ]);
  });

  it('refuses a profile name no profile has', () => {
    const result = buildRuleSetSchema([]).safeParse({ profile: 'dvb-t2' });
    expect(result.error?.issues.map((issue) => [issue.code, issue.path])).to.deep.equal([['invalid_value', ['profile']]]);
  });

  it('lists each disabled check once and refuses one that is not registered', () => {
    const schema = buildRuleSetSchema([pcrIntervals, teamCheck]);
    expect(schema.parse({ shared: { disabledChecks: ['team-check', 'team-check'] } }).shared.disabledChecks).to.deep.equal(['team-check']);
    expect(schema.safeParse({ shared: { disabledChecks: ['nope'] } }).error?.issues.map((issue) => issue.path)).to.deep.equal([['shared', 'disabledChecks', 0]]);
  });

  it('keeps the refinements a check puts on its slice', () => {
    const result = buildRuleSetSchema(CHECKS).safeParse({ checks: { 'mpegts-pcr-pts-drift': { minDelayMs: 3000 } } });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).to.deep.equal([['checks.mpegts-pcr-pts-drift.minDelayMs', 'minDelayMs must be below maxDelayMs']]);
  });

  it("validates a slice that is not a zod 4 schema (a zod 3 plugin's), unknown keys included", () => {
    const schema = buildRuleSetSchema([legacyCheck]);
    expect(schema.parse({}).checks).to.deep.equal({ 'legacy-check': { threshold: 3 } });
    expect(schema.parse({ checks: { 'legacy-check': { threshold: 5 } } }).checks).to.deep.equal({ 'legacy-check': { threshold: 5 } });
    const issues = schema.safeParse({ checks: { 'legacy-check': { threshold: 'x', other: 1 } } }).error?.issues;
    expect(issues?.map((issue) => [issue.code, issue.path.join('.'), issue.message])).to.deep.equal([
      ['custom', 'checks.legacy-check.threshold', 'Expected number, received string'],
      ['unrecognized_keys', 'checks.legacy-check', 'Unrecognized key: "other"'],
    ]);
  });

  it('refuses two checks with the same id', () => {
    const error = thrownBy(() => buildRuleSetSchema([pcrIntervals, teamCheck, pcrIntervals]));
    expect(error).to.be.instanceOf(CoreError);
    expect(error).to.include({ code: 'ERR_CHECK_DUPLICATE', message: "check 'mpegts-pcr-intervals' is given twice" });
  });
});
