import { expect } from 'chai';
import { z } from 'zod';
import { describeIssue, formatPath, showValue } from '../src/rule-problems.js';

const noKeys = () => ({ noun: 'key', known: null });

/** The problems zod's issues for `value` under `schema` read as. */
function problems(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? [] : result.error.issues.flatMap((issue) => describeIssue(issue, noKeys));
}

describe('problem lines', () => {
  it('write a path with dots between names and brackets around indexes', () => {
    expect(formatPath(['checks', 'klv-mandatory-field-errors', 'mandatoryTags', 3])).to.equal('checks.klv-mandatory-field-errors.mandatoryTags[3]');
    expect(formatPath([])).to.equal('(rule set)');
  });

  it('say which bound a number, an array or a string breaks', () => {
    const schema = z.strictObject({
      under: z.number().max(100),
      below: z.number().lt(5),
      nonNegative: z.number().nonnegative(),
      count: z.number().int().gte(2),
      tags: z.array(z.number()).min(1),
      few: z.array(z.number()).max(2),
      name: z.string().min(3),
      code: z.string().length(2),
    });
    expect(problems(schema, { under: 101, below: 5, nonNegative: -1, count: 1, tags: [], few: [1, 2, 3], name: 'ab', code: 'abc' })).to.deep.equal([
      'under: expected a number <= 100, got 101',
      'below: expected a number < 5, got 5',
      'nonNegative: expected a number >= 0, got -1',
      'count: expected a number >= 2, got 1',
      'tags: expected at least 1 item, got []',
      'few: expected at most 2 items, got [1,2,3]',
      'name: expected at least 3 characters, got "ab"',
      'code: expected exactly 2 characters, got "abc"',
    ]);
  });

  it('say a value is missing rather than that it was undefined', () => {
    expect(problems(z.strictObject({ limit: z.number() }), {})).to.deep.equal(['limit: missing: expected a number']);
  });

  it('name each unknown key at its own path, with the keys allowed there', () => {
    const issue = { code: 'unrecognized_keys', path: ['checks', 'team-check'], message: 'Unrecognized keys', keys: ['a', 'b'] };
    expect(describeIssue(issue, () => ({ noun: 'rule', known: ['limit'] }))).to.deep.equal([
      'checks.team-check.a: unknown rule (known: limit)',
      'checks.team-check.b: unknown rule (known: limit)',
    ]);
    expect(describeIssue(issue, () => ({ noun: 'rule', known: [] }))).to.deep.equal(['checks.team-check.a: unknown rule (none allowed here)', 'checks.team-check.b: unknown rule (none allowed here)']);
  });

  it('show values as JSON, shortened past 60 characters', () => {
    expect(showValue(-5)).to.equal('-5');
    expect(showValue('x')).to.equal('"x"');
    expect(showValue(undefined)).to.equal('nothing');
    expect(showValue('y'.repeat(100))).to.equal(`"${'y'.repeat(56)}...`);
  });
});
