/**
 * The rules page builds its form from the rule set's JSON Schema, computed
 * from the registered checks (`buildRuleSetSchema`, zod's toJSONSchema) and
 * kept beside the page as web/src/dashboard/rules/rule-set-json-schema.json,
 * so the page needs no request for it and works offline. This test holds the
 * file to the checks: when a check or rule changes it fails, and
 * `UPDATE_RULE_SCHEMA=1 npm test -- web/test/dashboard-rules-schema.test.ts`
 * writes it again.
 */
import { SHARED_RULE_QUANTITIES } from '../src/dashboard/rules/shared-rule-quantities.js';
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { buildRuleSetSchema } from '@klvscope/rules';

const SCHEMA_FILE = fileURLToPath(new URL('../src/dashboard/rules/rule-set-json-schema.json', import.meta.url));

/** The rule set as a request body spells it (input side: defaults optional), as JSON Schema. */
function ruleSetJsonSchema(): unknown {
  return z.toJSONSchema(buildRuleSetSchema(BUILT_IN_CHECKS) as unknown as z.ZodMiniType, { io: 'input', unrepresentable: 'any' });
}

describe('the rules page form schema', () => {
  it('is the JSON Schema of the rule set of the built-in checks', () => {
    const fresh = `${JSON.stringify(ruleSetJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_RULE_SCHEMA === '1') writeFileSync(SCHEMA_FILE, fresh);
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'rule-set-json-schema.json is out of date: run this test with UPDATE_RULE_SCHEMA=1').to.equal(fresh);
    const checks = (JSON.parse(fresh) as { properties: { checks: { properties: Record<string, unknown> } } }).properties.checks.properties;
    expect(Object.keys(checks)).to.deep.equal(BUILT_IN_CHECKS.map((check) => check.id));
  });

  it('names only rules the checks have, with the same default, for each limit several checks share', () => {
    for (const { fields: keys } of SHARED_RULE_QUANTITIES) {
      const schema = ruleSetJsonSchema() as { properties: { checks: { properties: Record<string, { properties: Record<string, { default?: unknown }> }> } } };
      const defaults = keys.map((key) => {
        const [, checkId, rule] = key.split('.');
        return schema.properties.checks.properties[checkId]?.properties[rule]?.default;
      });
      expect(defaults.filter((value) => typeof value !== 'number'), `rules the checks lack among ${keys.join(' and ')}`).to.deep.equal([]);
      expect(new Set(defaults).size, `defaults of ${keys.join(' and ')}`).to.equal(1);
    }
  });
});
