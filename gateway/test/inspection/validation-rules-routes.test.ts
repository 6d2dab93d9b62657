import { expect } from 'chai';
import { Store } from '@klvscope/core/store';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { CatalogTemplateStore, PROFILE_NAMES, resolveRuleSet, type RuleSetInput } from '@klvscope/rules';
import { startTestServer, tempDataDir, type CallResult, type TestServer } from './test-server.js';

const effective = (input: RuleSetInput): unknown => resolveRuleSet(BUILT_IN_CHECKS, input).ruleSet;

const STRICT_PCR: RuleSetInput = { profile: 'tr101290', checks: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } } };
const FEW_POINTS: RuleSetInput = { shared: { maxPointsPerCheck: 10, disabledChecks: ['klv-packet-rate-consistency'] } };

interface RulesView {
  current: unknown;
  effective: unknown;
  profiles: string[];
  templates: Array<{ name: string; ruleSet: unknown }>;
}

function errorOf(result: CallResult): { code: string; message: string; details?: Record<string, unknown> } {
  return (result.json as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

describe('inspection service validation rules', function () {
  let dataDir: string;
  let server: TestServer;

  beforeEach(async () => {
    dataDir = tempDataDir();
    server = await startTestServer({ dataDir });
  });
  afterEach(async () => {
    await server.close();
  });

  const view = async (): Promise<RulesView> => (await server.call('/validation-rules')).json as RulesView;

  it('answers the defaults: nothing given, the default profile in effect, the profiles, no templates', async () => {
    const result = await server.call('/validation-rules');
    expect(result.status).to.equal(200);
    expect(result.json).to.deep.equal({ current: {}, effective: effective({}), profiles: [...PROFILE_NAMES], templates: [] });
  });

  it('replaces the current rule set, answers the effective one, and keeps it across a restart', async () => {
    const replaced = await server.call('/validation-rules/current', { method: 'PUT', body: STRICT_PCR });
    expect(replaced).to.deep.include({ status: 200, json: effective(STRICT_PCR) });
    expect(await view()).to.deep.include({ current: STRICT_PCR, effective: effective(STRICT_PCR) });
    await server.close();
    server = await startTestServer({ dataDir });
    expect(await view()).to.deep.include({ current: STRICT_PCR, effective: effective(STRICT_PCR) });
  });

  it('refuses an invalid rule set with 422 listing every problem, and changes nothing', async () => {
    await server.call('/validation-rules/current', { method: 'PUT', body: STRICT_PCR });
    const result = await server.call('/validation-rules/current', {
      method: 'PUT',
      body: { profile: 'dvb-t2', shared: { colour: 'red' }, checks: { 'mpegts-pcr-intervals': { maxIntervalMs: -5 }, 'no-such-check': {} } },
    });
    expect(result.status).to.equal(422);
    const error = errorOf(result);
    expect(error.code).to.equal('ERR_RULES_INVALID');
    expect(error.details?.problems).to.deep.equal([
      'profile: expected one of "stanag4609", "tr101290", got "dvb-t2"',
      'shared.colour: unknown shared setting (known: maxPointsPerCheck, disabledChecks)',
      'checks.mpegts-pcr-intervals.maxIntervalMs: expected a positive number, got -5',
      `checks.no-such-check: unknown check (known: ${BUILT_IN_CHECKS.map((check) => check.id).join(', ')})`,
    ]);
    expect(error.message).to.match(/^invalid rule set \(4 problems\): /);
    expect((await view()).current).to.deep.equal(STRICT_PCR);
  });

  it('refuses a body that is not a JSON object with 400', async () => {
    for (const body of ['[]', '"strict"', 'null']) {
      const result = await server.call('/validation-rules/current', { method: 'PUT', body });
      expect(result.status, body).to.equal(400);
      expect(errorOf(result).code).to.equal('ERR_INVALID_FIELD');
    }
  });

  it('saves templates (the given set, or the current one), lists them by name, and keeps them across a restart', async () => {
    const given = await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'strict pcr', ruleSet: STRICT_PCR } });
    expect(given).to.deep.include({ status: 201, json: { name: 'strict pcr', ruleSet: STRICT_PCR } });
    await server.call('/validation-rules/current', { method: 'PUT', body: FEW_POINTS });
    const fromCurrent = await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'Bench' } });
    expect(fromCurrent).to.deep.include({ status: 201, json: { name: 'Bench', ruleSet: FEW_POINTS } });
    const expected = [
      { name: 'Bench', ruleSet: FEW_POINTS },
      { name: 'strict pcr', ruleSet: STRICT_PCR },
    ];
    expect((await view()).templates).to.deep.equal(expected);
    await server.close();
    server = await startTestServer({ dataDir });
    expect((await view()).templates).to.deep.equal(expected);
  });

  it('refuses to overwrite a template unless asked to replace it', async () => {
    await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'a', ruleSet: STRICT_PCR } });
    const conflict = await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'a', ruleSet: FEW_POINTS } });
    expect(conflict.status).to.equal(409);
    expect(errorOf(conflict)).to.deep.include({ code: 'ERR_TEMPLATE_EXISTS', details: { name: 'a' } });
    expect((await view()).templates).to.deep.equal([{ name: 'a', ruleSet: STRICT_PCR }]);
    const replaced = await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'a', ruleSet: FEW_POINTS, replace: true } });
    expect(replaced.status).to.equal(201);
    expect((await view()).templates).to.deep.equal([{ name: 'a', ruleSet: FEW_POINTS }]);
  });

  it('refuses a bad template name with 400 and an invalid template rule set with 422', async () => {
    for (const name of ['', 'a/b', ' padded', '..', 'x'.repeat(101), 'tab\there']) {
      const result = await server.call('/validation-rules/templates', { method: 'POST', body: { name, ruleSet: STRICT_PCR } });
      expect(result.status, JSON.stringify(name)).to.equal(400);
      expect(errorOf(result).code).to.equal('ERR_TEMPLATE_NAME_INVALID');
    }
    expect((await server.call('/validation-rules/templates', { method: 'POST', body: { name: 7 } })).status).to.equal(400);
    const invalid = await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'bad', ruleSet: { checks: { nope: {} } } } });
    expect(invalid.status).to.equal(422);
    expect(errorOf(invalid).code).to.equal('ERR_RULES_INVALID');
    expect((await view()).templates).to.deep.equal([]);
  });

  it('restores a template as the current rule set, kept across a restart', async () => {
    await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'strict', ruleSet: STRICT_PCR } });
    const restored = await server.call('/validation-rules/current/restore', { method: 'POST', body: { name: 'strict' } });
    expect(restored).to.deep.include({ status: 200, json: effective(STRICT_PCR) });
    await server.close();
    server = await startTestServer({ dataDir });
    expect(await view()).to.deep.include({ current: STRICT_PCR, effective: effective(STRICT_PCR) });
  });

  it('answers 404 when restoring an unknown template, and 422 for one that no longer fits the checks, changing nothing', async () => {
    await server.close();
    const store = await Store.open({ dataDir });
    new CatalogTemplateStore(store.catalog.db).put('stale', { checks: { 'removed-plugin-check': { limit: 1 } } });
    await store.saveCatalog();
    await store.close();
    server = await startTestServer({ dataDir });
    await server.call('/validation-rules/current', { method: 'PUT', body: FEW_POINTS });

    const unknown = await server.call('/validation-rules/current/restore', { method: 'POST', body: { name: 'nope' } });
    expect(unknown.status).to.equal(404);
    expect(errorOf(unknown).code).to.equal('ERR_TEMPLATE_NOT_FOUND');
    const stale = await server.call('/validation-rules/current/restore', { method: 'POST', body: { name: 'stale' } });
    expect(stale.status).to.equal(422);
    expect(errorOf(stale).message).to.match(/^rule template 'stale': invalid rule set/);
    expect((errorOf(stale).details?.problems as string[])[0]).to.match(/^checks\.removed-plugin-check: unknown check/);
    expect((await view()).current).to.deep.equal(FEW_POINTS);
  });

  it('deletes a template (204), then answers 404 for it', async () => {
    await server.call('/validation-rules/templates', { method: 'POST', body: { name: 'night shift', ruleSet: STRICT_PCR } });
    const deleted = await server.call(`/validation-rules/templates/${encodeURIComponent('night shift')}`, { method: 'DELETE' });
    expect(deleted.status).to.equal(204);
    expect((await view()).templates).to.deep.equal([]);
    const again = await server.call('/validation-rules/templates/night%20shift', { method: 'DELETE' });
    expect(again.status).to.equal(404);
    expect(errorOf(again)).to.deep.include({ code: 'ERR_TEMPLATE_NOT_FOUND', details: { name: 'night shift' } });
    await server.close();
    server = await startTestServer({ dataDir });
    expect((await view()).templates).to.deep.equal([]);
  });

  it('needs the API key on every rules endpoint', async () => {
    const calls: Array<[string, string]> = [
      ['GET', '/validation-rules'],
      ['PUT', '/validation-rules/current'],
      ['POST', '/validation-rules/templates'],
      ['POST', '/validation-rules/current/restore'],
      ['DELETE', '/validation-rules/templates/x'],
    ];
    for (const [method, path] of calls) expect((await server.call(path, { method, key: null, body: method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' } })).status, path).to.equal(401);
  });
});
