import { expect } from 'chai';
import { MemoryTemplateStore, RulesError, assertTemplateName, deleteTemplate, listTemplates, restoreTemplate, saveTemplate } from '../src/index.js';
import { CHECKS, pcrIntervals, thrownBy } from './test-checks.js';

function rulesError(fn: () => unknown): RulesError {
  const error = thrownBy(fn);
  expect(error).to.be.instanceOf(RulesError);
  return error as RulesError;
}

describe('rule templates', () => {
  it('saves, lists, restores and deletes a named template', () => {
    const store = new MemoryTemplateStore();
    expect(saveTemplate(store, CHECKS, 'night ops', { profile: 'tr101290', checks: { 'team-check': { limit: 3 } } })).to.deep.equal({
      name: 'night ops',
      ruleSet: { profile: 'tr101290', checks: { 'team-check': { limit: 3 } } },
    });
    saveTemplate(store, CHECKS, 'day', {});
    expect(listTemplates(store)).to.deep.equal(['day', 'night ops']);

    const restored = restoreTemplate(store, CHECKS, 'night ops');
    expect(restored.name).to.equal('night ops');
    expect(restored.ruleSet).to.deep.equal({ profile: 'tr101290', checks: { 'team-check': { limit: 3 } } });
    expect(restored.resolved.ruleSet.profile).to.equal('tr101290');
    expect(restored.resolved.slices['team-check']).to.deep.equal({ limit: 3, label: 'x', mode: 'fast' });
    expect(restored.resolved.slices['mpegts-pcr-intervals']).to.deep.equal({ maxIntervalMs: 100 });

    deleteTemplate(store, 'day');
    expect(listTemplates(store)).to.deep.equal(['night ops']);
  });

  it('keeps the rule set as given, not the effective one, as plain JSON data', () => {
    const store = new MemoryTemplateStore();
    saveTemplate(store, CHECKS, 'sparse', { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 30 }, 'team-check': { limit: undefined } } });
    expect(store.get('sparse')).to.deep.equal({ checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 30 }, 'team-check': {} } });
  });

  it('restores a copy: changing it changes neither the store nor the next restore', () => {
    const store = new MemoryTemplateStore();
    const given = { checks: { 'klv-mandatory-field-errors': { mandatoryTags: [1, 2] } } };
    saveTemplate(store, CHECKS, 'tags', given);
    given.checks['klv-mandatory-field-errors'].mandatoryTags.push(3);
    const first = restoreTemplate(store, CHECKS, 'tags');
    (first.ruleSet.checks?.['klv-mandatory-field-errors'].mandatoryTags as number[]).push(4);
    expect(restoreTemplate(store, CHECKS, 'tags').ruleSet).to.deep.equal({ checks: { 'klv-mandatory-field-errors': { mandatoryTags: [1, 2] } } });
  });

  it('refuses to save an invalid rule set, naming every problem, and stores nothing', () => {
    const store = new MemoryTemplateStore();
    const error = rulesError(() => saveTemplate(store, CHECKS, 'bad', { checks: { 'team-check': { limit: 'many' }, 'no-such-check': {} } }));
    expect(error.code).to.equal('ERR_RULES_INVALID');
    expect(error.problems).to.deep.equal([
      'checks.team-check.limit: expected a number, got "many"',
      'checks.no-such-check: unknown check (known: mpegts-pcr-intervals, mpegts-pcr-pts-drift, klv-mandatory-field-errors, team-check, mpegts-psi-table-positions)',
    ]);
    expect(listTemplates(store)).to.deep.equal([]);
  });

  it('refuses to overwrite a template unless asked to replace it', () => {
    const store = new MemoryTemplateStore();
    saveTemplate(store, CHECKS, 'ops', { profile: 'tr101290' });
    const error = rulesError(() => saveTemplate(store, CHECKS, 'ops', {}));
    expect(error).to.include({ code: 'ERR_TEMPLATE_EXISTS', message: "a rule template named 'ops' exists; save with replace to overwrite it" });
    expect(store.get('ops')).to.deep.equal({ profile: 'tr101290' });
    saveTemplate(store, CHECKS, 'ops', {}, { replace: true });
    expect(store.get('ops')).to.deep.equal({});
  });

  it('refuses a name that is empty, too long, a path, or has control characters or spaces at an end', () => {
    const cases: [unknown, string][] = [
      ['', 'a template name is not empty'],
      ['x'.repeat(101), 'at most 100 characters'],
      ['a/b', "no '/' or '\\' (a name is one path segment)"],
      ['..\\etc', "no '/' or '\\' (a name is one path segment)"],
      ['tab\there', 'no control character'],
      ['..', "not '.' or '..'"],
      ['.', "not '.' or '..'"],
      [' padded', 'no space at the start or the end'],
      [42, 'a template name is a string'],
    ];
    for (const [name, problem] of cases) {
      const error = rulesError(() => assertTemplateName(name));
      expect(error.code, String(name)).to.equal('ERR_TEMPLATE_NAME_INVALID');
      expect(error.message, String(name)).to.equal(`invalid template name ${JSON.stringify(name)}: ${problem}`);
    }
  });

  it('accepts a name of 100 characters, with spaces, dots and letters of any script', () => {
    const store = new MemoryTemplateStore();
    for (const name of ['é'.repeat(100), 'night ops v1.2', 'Überwachung – Nacht', '夜间']) saveTemplate(store, CHECKS, name, {});
    expect(listTemplates(store)).to.have.length(4);
  });

  it('checks the name on save, restore and delete', () => {
    const store = new MemoryTemplateStore();
    expect(rulesError(() => saveTemplate(store, CHECKS, 'a/b', {})).code).to.equal('ERR_TEMPLATE_NAME_INVALID');
    expect(rulesError(() => restoreTemplate(store, CHECKS, 'a/b')).code).to.equal('ERR_TEMPLATE_NAME_INVALID');
    expect(rulesError(() => deleteTemplate(store, 'a/b')).code).to.equal('ERR_TEMPLATE_NAME_INVALID');
  });

  it('reports an unknown template on restore and on delete', () => {
    const store = new MemoryTemplateStore();
    expect(rulesError(() => restoreTemplate(store, CHECKS, 'missing'))).to.include({ code: 'ERR_TEMPLATE_NOT_FOUND', message: "no rule template named 'missing'" });
    expect(rulesError(() => deleteTemplate(store, 'missing'))).to.include({ code: 'ERR_TEMPLATE_NOT_FOUND', message: "no rule template named 'missing'" });
  });

  it('reports a template that no longer fits the registered checks when it is restored', () => {
    const store = new MemoryTemplateStore();
    saveTemplate(store, CHECKS, 'old', { checks: { 'team-check': { limit: 3 } } });
    const error = rulesError(() => restoreTemplate(store, [pcrIntervals], 'old'));
    expect(error.code).to.equal('ERR_RULES_INVALID');
    expect(error.problems).to.deep.equal(['checks.team-check: unknown check (known: mpegts-pcr-intervals)']);
    expect(error.message).to.equal("rule template 'old': invalid rule set (1 problem): checks.team-check: unknown check (known: mpegts-pcr-intervals)");
  });

  it('lists names in code-point order, whatever the locale', () => {
    const store = new MemoryTemplateStore();
    for (const name of ['b', 'B', 'a', 'Ä']) saveTemplate(store, CHECKS, name, {});
    expect(listTemplates(store)).to.deep.equal(['B', 'a', 'b', 'Ä']);
  });
});
