import { expect } from 'chai';
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import { RulesError, listProfiles, profileProblems, resolveRuleSet } from '../src/index.js';
import { CHECKS, legacyCheck, mandatoryFields, miniTeamCheck, pcrIntervals, ptsDrift, tablePositions, teamCheck, thrownBy } from './test-checks.js';

/** The RulesError a call throws. */
function rulesError(fn: () => unknown): RulesError {
  const error = thrownBy(fn);
  expect(error).to.be.instanceOf(RulesError);
  return error as RulesError;
}

describe('resolving a rule set', () => {
  it('applies the default profile, stanag4609, over the checks’ defaults when nothing is configured', () => {
    const { ruleSet } = resolveRuleSet(CHECKS);
    expect(ruleSet).to.deep.equal({
      profile: 'stanag4609',
      shared: { maxPointsPerCheck: 10_000, disabledChecks: [] },
      checks: {
        'mpegts-pcr-intervals': { maxIntervalMs: 100 },
        'mpegts-pcr-pts-drift': { minDelayMs: 0, maxDelayMs: 1000, windowS: 10 },
        'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 65] },
        'team-check': { limit: 7, label: 'x', mode: 'fast' },
        'mpegts-psi-table-positions': {},
      },
    });
  });

  it('takes each rule from the user, else the profile, else the check default', () => {
    // windowS: no profile names it; minDelayMs: the profile's 0 over the default -50; maxDelayMs: the user's 500 over the profile's 1000.
    const { slices } = resolveRuleSet([ptsDrift], { checks: { 'mpegts-pcr-pts-drift': { maxDelayMs: 500 } } });
    expect(slices).to.deep.equal({ 'mpegts-pcr-pts-drift': { minDelayMs: 0, maxDelayMs: 500, windowS: 10 } });
  });

  it('applies the profile the input names', () => {
    const { ruleSet } = resolveRuleSet([pcrIntervals, ptsDrift], { profile: 'tr101290' });
    expect(ruleSet.profile).to.equal('tr101290');
    expect(ruleSet.checks).to.deep.equal({ 'mpegts-pcr-intervals': { maxIntervalMs: 100 }, 'mpegts-pcr-pts-drift': { minDelayMs: 0, maxDelayMs: 1000, windowS: 10 } });
  });

  it('lets the profile option override the one the input names', () => {
    const input = { profile: 'stanag4609', checks: { 'team-check': { limit: 1 } } };
    expect(resolveRuleSet([teamCheck], input, { profile: 'tr101290' }).ruleSet).to.deep.equal({
      profile: 'tr101290',
      shared: { maxPointsPerCheck: 10_000, disabledChecks: [] },
      checks: { 'team-check': { limit: 1, label: 'x', mode: 'fast' } },
    });
  });

  it('treats a rule given as undefined as not given', () => {
    expect(resolveRuleSet([pcrIntervals], { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: undefined } } }).slices).to.deep.equal({ 'mpegts-pcr-intervals': { maxIntervalMs: 100 } });
  });

  it('gives the run its slices and the ids of the checks left enabled, in order', () => {
    const resolved = resolveRuleSet(CHECKS, { shared: { maxPointsPerCheck: 500, disabledChecks: ['team-check', 'mpegts-pcr-intervals'] } });
    expect(resolved.slices).to.equal(resolved.ruleSet.checks);
    expect(resolved.ruleSet.shared).to.deep.equal({ maxPointsPerCheck: 500, disabledChecks: ['team-check', 'mpegts-pcr-intervals'] });
    expect(resolved.enabledCheckIds).to.deep.equal(['mpegts-pcr-pts-drift', 'klv-mandatory-field-errors', 'mpegts-psi-table-positions']);
  });

  it('accepts its own output as input and resolves it to the same rule set', () => {
    const first = resolveRuleSet(CHECKS, { profile: 'tr101290', checks: { 'team-check': { mode: 'slow' } } }).ruleSet;
    expect(resolveRuleSet(CHECKS, JSON.parse(JSON.stringify(first))).ruleSet).to.deep.equal(first);
  });

  it('gives fresh values: changing one run’s rules changes neither the profile nor the next run', () => {
    const first = resolveRuleSet([mandatoryFields]).slices['klv-mandatory-field-errors'].mandatoryTags as number[];
    first.push(99);
    expect(resolveRuleSet([mandatoryFields]).slices).to.deep.equal({ 'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 65] } });
  });

  it('ignores profile entries for checks that are not registered', () => {
    expect(resolveRuleSet([teamCheck, tablePositions]).ruleSet.checks).to.deep.equal({ 'team-check': { limit: 7, label: 'x', mode: 'fast' }, 'mpegts-psi-table-positions': {} });
  });

  it('reports every problem at once, each with its path, what was expected and what was given', () => {
    const error = rulesError(() =>
      resolveRuleSet([...CHECKS, legacyCheck], {
        profile: 'dvb-t2',
        shared: { maxPointsPerCheck: -1, colour: 'red', disabledChecks: ['nope'] },
        checks: {
          'mpegts-pcr-intervals': { maxIntervalMs: -5, minIntervalMs: 1 },
          'team-check': { limit: 'many', mode: 'medium', label: null },
          'klv-mandatory-field-errors': { mandatoryTags: [1, 0, 2.5] },
          'no-such-check': {},
          'legacy-check': { threshold: 'x' },
        },
        extra: 1,
      }),
    );
    expect(error.code).to.equal('ERR_RULES_INVALID');
    expect(error.problems).to.deep.equal([
      'profile: expected one of "stanag4609", "tr101290", got "dvb-t2"',
      'shared.maxPointsPerCheck: expected a positive number, got -1',
      'shared.disabledChecks[0]: expected one of "mpegts-pcr-intervals", "mpegts-pcr-pts-drift", "klv-mandatory-field-errors", "team-check", "mpegts-psi-table-positions", "legacy-check", got "nope"',
      'shared.colour: unknown shared setting (known: maxPointsPerCheck, disabledChecks)',
      'checks.mpegts-pcr-intervals.maxIntervalMs: expected a positive number, got -5',
      'checks.mpegts-pcr-intervals.minIntervalMs: unknown rule (known: maxIntervalMs)',
      'checks.klv-mandatory-field-errors.mandatoryTags[1]: expected a number >= 1, got 0',
      'checks.klv-mandatory-field-errors.mandatoryTags[2]: expected an integer, got 2.5',
      'checks.team-check.limit: expected a number, got "many"',
      'checks.team-check.label: expected a string, got null',
      'checks.team-check.mode: expected one of "fast", "slow", got "medium"',
      'checks.legacy-check.threshold: Expected number, received string',
      'checks.no-such-check: unknown check (known: mpegts-pcr-intervals, mpegts-pcr-pts-drift, klv-mandatory-field-errors, team-check, mpegts-psi-table-positions, legacy-check)',
      'extra: unknown field (known: profile, shared, checks)',
    ]);
    expect(error.message).to.equal(`invalid rule set (14 problems): ${error.problems.join('; ')}`);
  });

  it('reports the problems of a zod/mini slice as of a zod one', () => {
    const error = rulesError(() => resolveRuleSet([miniTeamCheck], { checks: { 'team-mini-check': { low: 'x', high: 0, mode: 'no', extra: 1 } } }));
    expect(error.problems).to.deep.equal([
      'checks.team-mini-check.low: expected a number, got "x"',
      'checks.team-mini-check.high: expected a positive number, got 0',
      'checks.team-mini-check.mode: expected one of "fast", "slow", got "no"',
      'checks.team-mini-check.extra: unknown rule (known: low, high, label, mode)',
    ]);
  });

  it('names the offending path in the message of a single problem', () => {
    const error = rulesError(() => resolveRuleSet([pcrIntervals], { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: -5 } } }));
    expect(error.message).to.equal('invalid rule set (1 problem): checks.mpegts-pcr-intervals.maxIntervalMs: expected a positive number, got -5');
    expect(error.toJSON()).to.deep.equal({ code: 'ERR_RULES_INVALID', message: error.message, details: { problems: ['checks.mpegts-pcr-intervals.maxIntervalMs: expected a positive number, got -5'] } });
  });

  it('refuses a rule set, a slice or a shared part that is not an object', () => {
    expect(rulesError(() => resolveRuleSet(CHECKS, 5)).problems).to.deep.equal(['(rule set): expected an object, got 5']);
    expect(rulesError(() => resolveRuleSet(CHECKS, null)).problems).to.deep.equal(['(rule set): expected an object, got null']);
    expect(rulesError(() => resolveRuleSet(CHECKS, { shared: [], checks: { 'mpegts-pcr-intervals': 5 } })).problems).to.deep.equal([
      'shared: expected an object, got []',
      'checks.mpegts-pcr-intervals: expected an object, got 5',
    ]);
    expect(rulesError(() => resolveRuleSet(CHECKS, { checks: 'all' })).problems).to.deep.equal(['checks: expected an object, got "all"']);
  });

  it('reports a problem that a user value makes with a profile value', () => {
    // 3000 ms passes alone, but not under the profile's maxDelayMs of 1000.
    expect(rulesError(() => resolveRuleSet([ptsDrift], { checks: { 'mpegts-pcr-pts-drift': { minDelayMs: 3000 } } })).problems).to.deep.equal([
      'checks.mpegts-pcr-pts-drift.minDelayMs: minDelayMs must be below maxDelayMs',
    ]);
  });

  it('refuses an unknown profile option, naming the known profiles', () => {
    const error = rulesError(() => resolveRuleSet(CHECKS, {}, { profile: 'dvb-t2' }));
    expect(error.code).to.equal('ERR_PROFILE_UNKNOWN');
    expect(error.message).to.equal("unknown rule profile 'dvb-t2' (known: stanag4609, tr101290)");
  });

  it('refuses a profile that names a rule a registered check lacks, or gives a value it refuses', () => {
    const patIntervals = defineCheck({ id: 'mpegts-pat-intervals', version: '1.0.0', title: 'PAT', rules: z.object({ maxGapMs: z.number().default(1) }), consumes: ['psi-section'], create: () => ({}) });
    const pmtIntervals = defineCheck({ id: 'mpegts-pmt-intervals', version: '1.0.0', title: 'PMT', rules: z.object({ maxIntervalMs: z.number().max(100).default(1) }), consumes: ['psi-section'], create: () => ({}) });
    const error = rulesError(() => resolveRuleSet([patIntervals, pmtIntervals]));
    expect(error.code).to.equal('ERR_PROFILE_INVALID');
    expect(error.problems).to.deep.equal([
      'checks.mpegts-pat-intervals.maxIntervalMs: unknown rule (known: maxGapMs)',
      'checks.mpegts-pmt-intervals.maxIntervalMs: expected a number <= 100, got 250',
    ]);
    expect(error.message).to.equal(`rule profile 'stanag4609' does not fit the registered checks: ${error.problems.join('; ')}`);
  });

  it('finds nothing wrong with either profile against checks that have their rules', () => {
    for (const profile of listProfiles()) expect(profileProblems(profile, [...CHECKS, legacyCheck]), profile.name).to.deep.equal([]);
  });
});
