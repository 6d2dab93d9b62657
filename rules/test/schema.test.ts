import { expect } from 'chai';
import { CoreError } from '@klvscope/core';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { buildRuleSetSchema } from '../src/index.js';
import { fieldDescription } from '../src/schema.js';
import { CHECKS, legacyCheck, miniTeamCheck, pcrIntervals, teamCheck, thrownBy } from './test-checks.js';

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

  it('validates a zod/mini slice as a zod one: defaults filled, unknown keys refused, refinements kept', () => {
    const schema = buildRuleSetSchema([miniTeamCheck]);
    expect(schema.parse({}).checks).to.deep.equal({ 'team-mini-check': { low: 1, high: null, label: 'x', mode: 'fast' } });
    const issues = schema.safeParse({ checks: { 'team-mini-check': { low: 5, high: 3, extra: 1 } } }).error?.issues;
    expect(issues?.map((issue) => [issue.code, issue.path.join('.'), issue.message])).to.deep.equal([
      ['unrecognized_keys', 'checks.team-mini-check', 'Unrecognized key: "extra"'],
      ['custom', 'checks.team-mini-check.low', 'low must be below high'],
    ]);
  });

  it('refuses two checks with the same id', () => {
    const error = thrownBy(() => buildRuleSetSchema([pcrIntervals, teamCheck, pcrIntervals]));
    expect(error).to.be.instanceOf(CoreError);
    expect(error).to.include({ code: 'ERR_CHECK_DUPLICATE', message: "check 'mpegts-pcr-intervals' is given twice" });
  });
});

describe("a rule's description", () => {
  it('is found where classic zod puts it: on the outer schema, after .default()', () => {
    expect(fieldDescription(z.number().positive().default(3).describe('classic'))).to.equal('classic');
    expect(fieldDescription(z.number().positive().nullable().default(null).describe('classic, nullable'))).to.equal('classic, nullable');
    expect(fieldDescription(z.number().describe('classic, inside').optional())).to.equal('classic, inside');
  });

  it('is found where zod/mini puts it: on the schema checked, inside default, prefault, nullable and optional', () => {
    expect(fieldDescription(zm._default(zm.number().check(zm.positive(), zm.describe('mini')), 3))).to.equal('mini');
    expect(fieldDescription(zm._default(zm.nullable(zm.number().check(zm.describe('mini, nullable'))), null))).to.equal('mini, nullable');
    expect(fieldDescription(zm.optional(zm.prefault(zm.string().check(zm.describe('mini, prefault')), 'a')))).to.equal('mini, prefault');
    expect(fieldDescription(zm._default(zm.number(), 3).check(zm.describe('mini, outside')))).to.equal('mini, outside');
  });

  it('is the outermost one when there are several, and null when there is none', () => {
    expect(fieldDescription(zm._default(zm.number().check(zm.describe('inner')), 3).check(zm.describe('outer')))).to.equal('outer');
    expect(fieldDescription(z.number().default(1))).to.equal(null);
    expect(fieldDescription(zm._default(zm.number(), 1))).to.equal(null);
    // Not through other schemas: a pipe's description is its own.
    expect(fieldDescription(zm.pipe(zm.number().check(zm.describe('piped')), zm.transform((n: number) => n)))).to.equal(null);
  });
});
