/**
 * The dashboard's rules page in headless Chromium, against the real
 * inspection service: the form shows what GET /validation-rules returns, an
 * edit saved from the form is what REST then returns, an invalid value shows
 * the service's own problem at its field and changes nothing, and templates
 * saved, restored and deleted from the page are what REST lists.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import type { ValidationRules } from '../src/dashboard/rules/validation-rules.js';
import { openSignedIn, TEST_API_KEY, type DashboardService } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

const PCR_FIELD = 'checks.mpegts-pcr-intervals.maxIntervalMs';
const input = (key: string) => `[id="rule-${key}"]`;

async function openRules(session: ChromiumSession, service: DashboardService): Promise<Page> {
  const page = await openSignedIn(session, service, '#/rules');
  await page.waitForSelector('.rule-set-form');
  return page;
}

describe('the dashboard rules page (headless Chromium)', function () {
  this.timeout(60_000);
  // No recordings: these pages read live sources and rules.
  const suite = dashboardSuite(() => undefined, { width: 1300, height: 1000 });
  let session: ChromiumSession;
  let service: DashboardService;
  beforeEach(() => {
    ({ session, service } = suite);
  });

  it('shows the effective rule set REST returns: the profile and every rule of every check', async () => {
    await service.api('PUT', '/validation-rules/current', { profile: 'tr101290', checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } });
    const rules = await service.api<ValidationRules>('GET', '/validation-rules');
    const page = await openRules(session, service);
    expect(await page.textContent('[data-field="effectiveProfile"]')).to.equal(rules.effective.profile);
    expect(await page.inputValue('#rule-profile')).to.equal('tr101290');
    for (const [checkId, slice] of Object.entries(rules.effective.checks)) {
      for (const [rule, value] of Object.entries(slice)) {
        const selector = input(`checks.${checkId}.${rule}`);
        if (typeof value === 'boolean') expect(await page.isChecked(selector), selector).to.equal(value);
        else if (Array.isArray(value)) expect(await page.inputValue(selector), selector).to.equal(value.join(', '));
        else expect(await page.inputValue(selector), selector).to.equal(value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));
      }
    }
    expect(await page.inputValue(input('shared.maxPointsPerCheck'))).to.equal(String(rules.effective.shared.maxPointsPerCheck));
    // The value the user gave is marked as such; the others follow the profile.
    expect(await page.getAttribute(`[data-field="${PCR_FIELD}"]`, 'class')).to.contain('given');
    expect(await page.getAttribute('[data-field="checks.mpegts-pat-intervals.maxIntervalMs"]', 'class')).not.to.contain('given');
    await saveScreenshot(page, 'dashboard-rules');
    await page.close();
    await service.api('PUT', '/validation-rules/current', {});
  });

  it('enables Save while a value is being typed, before the field loses focus, and keeps what is typed', async () => {
    const page = await openRules(session, service);
    expect(await page.isDisabled('button.save')).to.equal(true);
    await page.focus(input(PCR_FIELD));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('60.5');
    // Still in the field: nothing has blurred it.
    expect(await page.evaluate('document.activeElement.id')).to.equal(`rule-${PCR_FIELD}`);
    expect(await page.isDisabled('button.save')).to.equal(false);
    expect(await page.inputValue(input(PCR_FIELD))).to.equal('60.5');
    await page.click('button.save');
    await page.waitForSelector('.notice:text("The rule set was saved.")');
    expect((await service.api<ValidationRules>('GET', '/validation-rules')).current).to.deep.equal({
      checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 60.5 }, 'mpegts-errors': { pcrMaxIntervalMs: 60.5 } },
    });
    await page.close();
    await service.api('PUT', '/validation-rules/current', {});
  });

  it('sets a limit that several checks keep a copy of in every copy: one PCR interval for mpegts-pcr-intervals and TR 101 290 2.3a', async () => {
    const page = await openRules(session, service);
    const copy = 'checks.mpegts-errors.pcrMaxIntervalMs';
    expect(await page.textContent(`[data-field="${PCR_FIELD}"] .shared-quantity`)).to.equal(`One limit on the time between two PCRs of a PID: set together with ${copy}.`);
    await page.fill(input(PCR_FIELD), '600');
    expect(await page.inputValue(input(copy))).to.equal('600');
    await page.click('button.save');
    await page.waitForSelector('.notice:text("The rule set was saved.")');
    expect((await service.api<ValidationRules>('GET', '/validation-rules')).current).to.deep.equal({
      checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 600 }, 'mpegts-errors': { pcrMaxIntervalMs: 600 } },
    });
    await page.close();
    await service.api('PUT', '/validation-rules/current', {});
  });

  it('saves an edit from the form, and REST then returns it', async () => {
    const page = await openRules(session, service);
    await page.selectOption('#rule-profile', 'tr101290');
    await page.fill(input(PCR_FIELD), '55');
    await page.check(input('checks.klv-timestamp-monotonicity.allowEqual'));
    await page.fill(input('checks.klv-mandatory-field-errors.mandatoryTags'), '1, 2, 65, 13');
    await page.click('button.save');
    await page.waitForSelector('.notice:text("The rule set was saved.")');
    const rules = await service.api<ValidationRules>('GET', '/validation-rules');
    expect(rules.current).to.deep.equal({
      profile: 'tr101290',
      checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 55 }, 'mpegts-errors': { pcrMaxIntervalMs: 55 }, 'klv-timestamp-monotonicity': { allowEqual: true }, 'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 65, 13] } },
    });
    expect(rules.effective.checks['mpegts-pcr-intervals'].maxIntervalMs).to.equal(55);
    expect(await page.textContent('[data-field="effectiveProfile"]')).to.equal('tr101290');
    expect(await page.inputValue(input(PCR_FIELD))).to.equal('55');
    // Reset takes the user's value out: the rule follows the profile again.
    await page.click(`[data-field="${PCR_FIELD}"] button.reset`);
    // Until saved, the profile's value is not known: the field says so.
    expect(await page.inputValue(input(PCR_FIELD))).to.equal('');
    await page.click('button.save');
    let saved = await service.api<ValidationRules>('GET', '/validation-rules');
    const stillSet = (rules: ValidationRules) => JSON.stringify(rules.current).includes('mpegts-pcr-intervals');
    for (let i = 0; i < 50 && stillSet(saved); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      saved = await service.api<ValidationRules>('GET', '/validation-rules');
    }
    const profileValue = String(saved.effective.checks['mpegts-pcr-intervals'].maxIntervalMs);
    await page.waitForFunction(`document.getElementById('rule-${PCR_FIELD}').value === ${JSON.stringify(profileValue)}`, undefined, { timeout: 5_000 });
    const after = await service.api<ValidationRules>('GET', '/validation-rules');
    expect(after.current.checks).to.deep.equal({ 'klv-timestamp-monotonicity': { allowEqual: true }, 'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 65, 13] } });
    expect(profileValue).to.equal('100');
    expect(await page.getAttribute(`[data-field="${PCR_FIELD}"]`, 'class')).not.to.contain('given');
    await page.close();
    await service.api('PUT', '/validation-rules/current', {});
  });

  it('shows the service refusal of an invalid value at its field, and changes nothing', async () => {
    const before = await service.api<ValidationRules>('GET', '/validation-rules');
    const page = await openRules(session, service);
    await page.fill(input(PCR_FIELD), '-5');
    await page.fill(input('checks.klv-mandatory-field-errors.mandatoryTags'), '1, 2, 500');
    await page.click('button.save');
    await page.waitForSelector(`[data-field="${PCR_FIELD}"] .field-error`);
    // What the service says of the same body, sent as a script would.
    const refusal = await fetch(`${service.server.url}/validation-rules/current`, {
      method: 'PUT',
      headers: { 'X-API-Key': TEST_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ checks: { 'mpegts-pcr-intervals': { maxIntervalMs: -5 }, 'klv-mandatory-field-errors': { mandatoryTags: [1, 2, 500] } } }),
    });
    const { error } = (await refusal.json()) as { error: { code: string; details: { problems: string[] } } };
    expect([refusal.status, error.code]).to.deep.equal([422, 'ERR_RULES_INVALID']);
    const atField = (path: string) => error.details.problems.filter((problem) => problem.replace(/\[\d+\]/g, '').startsWith(`${path}: `)).map((problem) => problem.slice(problem.indexOf(': ') + 2));
    expect(atField(PCR_FIELD)).to.have.length(1);
    expect(await page.textContent(`[data-field="${PCR_FIELD}"] .field-error`)).to.equal(atField(PCR_FIELD).join('; '));
    expect(await page.textContent('[data-field="checks.klv-mandatory-field-errors.mandatoryTags"] .field-error')).to.equal(atField('checks.klv-mandatory-field-errors.mandatoryTags').join('; '));
    expect(await page.getAttribute(input(PCR_FIELD), 'aria-invalid')).to.equal('true');
    // The PCR interval is one limit in two checks (shared-rule-quantities.ts): both copies were sent, both refused.
    expect(await page.$$('.field-error')).to.have.length(3);
    expect(await service.api<ValidationRules>('GET', '/validation-rules')).to.deep.equal(before);
    // The typed value stays in the field, for the user to correct.
    expect(await page.inputValue(input(PCR_FIELD))).to.equal('-5');
    // The whole page from the top: the save bar sticks to the top of the view.
    await page.evaluate('window.scrollTo(0, 0)');
    await saveScreenshot(page, 'dashboard-rules-field-error');
    await page.close();
  });

  it('saves, restores and deletes templates as REST then lists them, each destructive action confirmed first', async () => {
    await service.api('PUT', '/validation-rules/current', { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } });
    const page = await openRules(session, service);
    await page.fill('#template-name', 'strict pcr');
    await page.click('button.save-template');
    await page.waitForSelector('tr.template[data-template="strict pcr"]');
    let rules = await service.api<ValidationRules>('GET', '/validation-rules');
    expect(rules.templates).to.deep.equal([{ name: 'strict pcr', ruleSet: { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } } }]);
    expect(await page.textContent('tr.template[data-template="strict pcr"] .template-rules')).to.equal(JSON.stringify(rules.templates[0].ruleSet));

    // Saving under a name that exists is refused unless "replace" is ticked.
    await page.fill('#template-name', 'strict pcr');
    await page.click('button.save-template');
    await page.waitForSelector('.rule-templates .error:has-text("ERR_TEMPLATE_EXISTS")');

    // Restore: the current set changes only once confirmed.
    await service.api('PUT', '/validation-rules/current', { profile: 'tr101290' });
    await page.reload();
    await page.waitForSelector('tr.template[data-template="strict pcr"]');
    await page.click('tr.template[data-template="strict pcr"] button.restore');
    await page.click('tr.template[data-template="strict pcr"] button.confirm-no');
    expect((await service.api<ValidationRules>('GET', '/validation-rules')).current).to.deep.equal({ profile: 'tr101290' });
    await page.click('tr.template[data-template="strict pcr"] button.restore');
    await page.click('tr.template[data-template="strict pcr"] button.confirm-yes');
    await page.waitForSelector('.notice:text("is now the current rule set")');
    rules = await service.api<ValidationRules>('GET', '/validation-rules');
    expect(rules.current).to.deep.equal({ checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } });
    // The notice comes with the answer to the restore; the form with the rules read again after it.
    await page.waitForFunction(`document.querySelector('[data-field="effectiveProfile"]').textContent === ${JSON.stringify(rules.effective.profile)}`);
    expect(await page.inputValue(input(PCR_FIELD))).to.equal('40');
    expect(await page.inputValue('#rule-profile')).to.equal('');

    // Delete, confirmed.
    await page.click('tr.template[data-template="strict pcr"] button.delete');
    await page.waitForSelector('[role="alertdialog"][aria-label="confirm delete"]');
    await page.click('tr.template[data-template="strict pcr"] button.confirm-yes');
    await page.waitForSelector('tr.template[data-template="strict pcr"]', { state: 'detached' });
    expect((await service.api<ValidationRules>('GET', '/validation-rules')).templates).to.deep.equal([]);
    await page.close();
  });
});
