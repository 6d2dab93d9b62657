import { expect } from 'chai';
import { defineCheck } from '@klvscope/core';
import { z } from 'zod';
import {
  MemoryTemplateStore,
  RulesError,
  deleteTemplate,
  getProfile,
  listProfiles,
  listTemplates,
  printRuleSet,
  resolveRuleSet,
  restoreTemplate,
  saveTemplate,
} from '../src/index.js';

// Two checks whose ids and rules the profiles know, and one they do not.
const pcrIntervals = defineCheck({
  id: 'mpegts-pcr-intervals',
  version: '1.0.0',
  title: 'PCR intervals',
  rules: z.object({ maxIntervalMs: z.number().positive().default(100).describe('own default') }),
  consumes: ['pcr'],
  create: () => ({}),
});
const mandatory = defineCheck({
  id: 'klv-mandatory-field-errors',
  version: '1.0.0',
  title: 'mandatory',
  rules: z.object({ mandatoryTags: z.array(z.number().int()).default([1, 2, 65]) }),
  consumes: ['metadata-packet'],
  create: () => ({}),
});
const custom = defineCheck({
  id: 'team-check',
  version: '1.0.0',
  title: 'a team check',
  rules: z.object({ limit: z.number().default(7), label: z.string().default('x') }),
  consumes: ['pes'],
  create: () => ({}),
});
const checks = [pcrIntervals, mandatory, custom];

function problems(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(RulesError);
    expect((error as RulesError).code).to.equal('ERR_RULES_INVALID');
    return (error as RulesError).problems;
  }
  throw new Error('expected a RulesError');
}

describe('the rule set', () => {
  it('fills every rule: check defaults, then the profile, then the user', () => {
    expect(resolveRuleSet(checks).slices).to.deep.equal({
      'mpegts-pcr-intervals': { maxIntervalMs: 100 },
      'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 65] },
      'team-check': { limit: 7, label: 'x' },
    });
    expect(resolveRuleSet(checks, {}, { profile: 'tr101290' }).slices['mpegts-pcr-intervals']).to.deep.equal({ maxIntervalMs: 40 });
    const user = resolveRuleSet(checks, { profile: 'tr101290', checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 60 }, 'team-check': { limit: 9 } } });
    expect(user.slices['mpegts-pcr-intervals']).to.deep.equal({ maxIntervalMs: 60 });
    expect(user.slices['team-check']).to.deep.equal({ limit: 9, label: 'x' });
    expect(user.ruleSet.profile).to.equal('tr101290');
    expect(user.ruleSet.shared).to.deep.equal({ maxPointsPerCheck: 100_000 });
  });

  it('names the path of every problem at once', () => {
    const found = problems(() =>
      resolveRuleSet(checks, {
        shared: { maxPointsPerCheck: -1, colour: 'red' },
        checks: { 'mpegts-pcr-intervals': { maxIntervalMs: -5, minIntervalMs: 1 }, 'no-such-check': {} },
      }),
    );
    expect(found.some((p) => p.startsWith('shared.maxPointsPerCheck:'))).to.be.true;
    expect(found.some((p) => p.startsWith('shared:') && p.includes('colour'))).to.be.true;
    expect(found.some((p) => p.startsWith('checks.mpegts-pcr-intervals.maxIntervalMs:'))).to.be.true;
    expect(found.some((p) => p.startsWith('checks.mpegts-pcr-intervals:') && p.includes('minIntervalMs'))).to.be.true;
    expect(found.some((p) => p.startsWith('checks:') && p.includes('no-such-check'))).to.be.true;
  });

  it('refuses an unknown profile, naming the known ones', () => {
    expect(() => getProfile('dvb-t2')).to.throw(RulesError, /unknown rule profile 'dvb-t2' \(known: stanag4609, tr101290\)/);
  });

  it('cites every threshold of both profiles', () => {
    for (const profile of listProfiles()) {
      for (const [id, rules] of Object.entries(profile.checks)) {
        for (const [key, cited] of Object.entries(rules)) expect(cited.citation, `${profile.name} ${id}.${key}`).to.be.a('string').with.length.above(10);
      }
    }
  });

  it('prints the effective rules with the source of each value', () => {
    const text = printRuleSet(resolveRuleSet(checks, {}, { profile: 'tr101290' }).ruleSet, checks);
    expect(text).to.include('profile: tr101290');
    expect(text).to.include('maxIntervalMs = 40    # ETSI TR 101 290 2.3a: 40 ms');
    expect(text).to.include('limit = 7    # the check default');
  });
});

describe('rule templates', () => {
  it('saves, lists, restores and deletes a named template', () => {
    const store = new MemoryTemplateStore();
    saveTemplate(store, checks, 'night ops', { profile: 'tr101290', checks: { 'team-check': { limit: 3 } } });
    saveTemplate(store, checks, 'day', {});
    expect(listTemplates(store)).to.deep.equal(['day', 'night ops']);
    const restored = restoreTemplate(store, checks, 'night ops');
    expect(restored.slices['team-check']).to.deep.equal({ limit: 3, label: 'x' });
    expect(restored.slices['mpegts-pcr-intervals']).to.deep.equal({ maxIntervalMs: 40 });
    deleteTemplate(store, 'day');
    expect(listTemplates(store)).to.deep.equal(['night ops']);
  });

  it('refuses an invalid rule set, a bad name and an unknown template', () => {
    const store = new MemoryTemplateStore();
    expect(() => saveTemplate(store, checks, 'bad', { checks: { 'team-check': { limit: 'many' } } })).to.throw(RulesError, /checks\.team-check\.limit/);
    for (const name of ['', '../etc', 'a/b', 'x'.repeat(101)]) expect(() => saveTemplate(store, checks, name, {}), name).to.throw(RulesError, /invalid template name/);
    expect(() => restoreTemplate(store, checks, 'missing')).to.throw(RulesError, /no rule template named 'missing'/);
    expect(() => deleteTemplate(store, 'missing')).to.throw(RulesError, /no rule template named 'missing'/);
  });
});
