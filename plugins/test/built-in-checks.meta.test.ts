/**
 * The meta-test (after typescript-eslint's): every built-in check has a
 * test file, a section in docs/checks.md and an id from the inspection
 * service's detail endpoint list, and that list is complete.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, repoRoot } from '../../test-support/fixtures.js';
import { listProfiles, resolveRuleSet } from '@klvscope/rules';
import * as z from 'zod/mini';
import { BUILT_IN_CHECKS, DETAIL_ENDPOINT_IDS } from '../src/index.js';

const specPath = join(fixturesDir, '..', 'spec', 'inspection-service.md');

/** The path suffixes of the spec's "File-analysis detail endpoints" table. */
function specDetailIds(markdown: string): string[] {
  const section = markdown.split('### File-analysis detail endpoints')[1]?.split('\n### ')[0] ?? '';
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
}

describe('the built-in checks (meta)', () => {
  it('are exactly the pinned detail endpoint ids, in order', () => {
    expect(BUILT_IN_CHECKS.map((c) => c.id)).to.deep.equal([...DETAIL_ENDPOINT_IDS]);
  });

  it('match the detail endpoint table of the inspection service spec', function () {
    if (!existsSync(specPath)) {
      console.log(`      skipped: ${specPath} not found (the pinned list stands in)`);
      this.skip();
    }
    expect(specDetailIds(readFileSync(specPath, 'utf8'))).to.deep.equal([...DETAIL_ENDPOINT_IDS]);
  });

  const docs = readFileSync(join(repoRoot, 'docs', 'checks.md'), 'utf8');
  for (const id of DETAIL_ENDPOINT_IDS) {
    it(`${id} has its own source file, test file and docs section`, () => {
      expect(existsSync(join(repoRoot, 'plugins', 'src', `${id}.ts`)), 'source').to.be.true;
      expect(existsSync(join(repoRoot, 'plugins', 'test', `${id}.test.ts`)), 'test').to.be.true;
      expect(docs, 'docs/checks.md section').to.include(`\n## ${id}\n`);
    });
  }

  it('each has a version, a title and rules whose every option has a default', () => {
    for (const check of BUILT_IN_CHECKS) {
      expect(check.version, check.id).to.match(/^\d+\.\d+\.\d+$/);
      expect(check.title, check.id).to.be.a('string').and.not.empty;
      expect(() => z.parse(check.rules, {}), check.id).not.to.throw();
    }
  });

  it('both rule profiles name only checks and rules that exist, and resolve', () => {
    for (const profile of listProfiles()) {
      for (const [id, rules] of Object.entries(profile.checks)) {
        const check = BUILT_IN_CHECKS.find((c) => c.id === id);
        expect(check, `${profile.name}: check ${id}`).to.not.equal(undefined);
        const shape = (check?.rules as unknown as z.ZodMiniObject).shape as Record<string, unknown>;
        for (const key of Object.keys(rules)) expect(shape, `${profile.name}: ${id}.${key}`).to.have.property(key);
      }
      expect(() => resolveRuleSet(BUILT_IN_CHECKS, {}, { profile: profile.name })).not.to.throw();
    }
  });
});
