import { expect } from 'chai';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { CoreError } from '../../src/kernel/core-error.js';
import { type AnyCheck, assertCheckDefinition, defineCheck } from '../../src/kernel/define-check.js';

const valid = {
  id: 'mpegts-pcr-intervals',
  version: '1.0.0',
  title: 'PCR intervals',
  rules: z.object({ maxIntervalMs: z.number().positive().default(40) }),
  consumes: ['pcr'] as const,
  create: () => ({}),
};

function invalidity(definition: unknown): { code: string; message: string; problems: unknown } {
  try {
    assertCheckDefinition(definition);
  } catch (error) {
    if (!(error instanceof CoreError)) throw error;
    return { code: error.code, message: error.message, problems: error.details?.problems };
  }
  throw new Error('expected the definition to be refused');
}

describe('defineCheck', () => {
  it('returns the definition frozen, with the description and consumes normalised', () => {
    const check = defineCheck(valid);
    expect(Object.isFrozen(check)).to.be.true;
    expect(Object.isFrozen(check.consumes)).to.be.true;
    expect([check.id, check.version, check.title, check.description, check.consumes]).to.deep.equal([
      'mpegts-pcr-intervals',
      '1.0.0',
      'PCR intervals',
      null,
      ['pcr'],
    ]);
  });

  it('gives a check without rules an empty rule slice', () => {
    const check = defineCheck({ id: 'no-rules', version: '0.1.0', title: 'No rules', consumes: ['pat'], create: () => ({}) });
    expect(check.rules.parse({})).to.deep.equal({});
  });

  it('accepts pre-release and build semantic versions', () => {
    expect(defineCheck({ ...valid, version: '2.1.0-rc.1+build.5' }).version).to.equal('2.1.0-rc.1+build.5');
  });

  it('refuses an id that is not kebab-case, naming the check', () => {
    expect(() => defineCheck({ ...valid, id: 'PcrIntervals' }))
      .to.throw(CoreError, "invalid check 'PcrIntervals': id must be kebab-case (e.g. 'mpegts-pcr-intervals'), got 'PcrIntervals'")
      .with.property('code', 'ERR_CHECK_INVALID');
  });

  it('refuses a version that is not semantic', () => {
    expect(invalidity({ ...valid, version: 'v1.0' }).message).to.equal(
      "invalid check 'mpegts-pcr-intervals': version must be a semantic version (e.g. '1.0.0'), got 'v1.0'",
    );
  });

  it('refuses empty, unknown and repeated observation kinds', () => {
    expect(invalidity({ ...valid, consumes: [] }).problems).to.deep.equal([
      'consumes must be a non-empty array of observation kinds (pcr, discontinuity, psi-section, pat, pmt, pes, ts-error, pid-stats, klv-packet, metadata-packet, klv-field, klv-error)',
    ]);
    expect(invalidity({ ...valid, consumes: ['pcr', 'video-frame', 'pcr'] }).problems).to.deep.equal([
      "consumes names unknown observation kinds: 'video-frame'",
      'consumes lists a kind twice',
    ]);
  });

  it('refuses rules with an option that has no default', () => {
    expect(invalidity({ ...valid, rules: z.object({ pid: z.number() }) }).problems).to.deep.equal([
      'rules must give every option a default (pid: Invalid input: expected number, received undefined)',
    ]);
  });

  it('lists every problem of a plugin object at once', () => {
    expect(invalidity({ id: 'x_y', rules: {}, consumes: 'pcr' })).to.deep.equal({
      code: 'ERR_CHECK_INVALID',
      message:
        "invalid check 'x_y': id must be kebab-case (e.g. 'mpegts-pcr-intervals'), got 'x_y'; version must be a semantic version (e.g. '1.0.0'), got undefined; title must be a non-empty string; create must be a function; consumes must be a non-empty array of observation kinds (pcr, discontinuity, psi-section, pat, pmt, pes, ts-error, pid-stats, klv-packet, metadata-packet, klv-field, klv-error); rules must be a zod schema",
      problems: [
        "id must be kebab-case (e.g. 'mpegts-pcr-intervals'), got 'x_y'",
        'version must be a semantic version (e.g. \'1.0.0\'), got undefined',
        'title must be a non-empty string',
        'create must be a function',
        'consumes must be a non-empty array of observation kinds (pcr, discontinuity, psi-section, pat, pmt, pes, ts-error, pid-stats, klv-packet, metadata-packet, klv-field, klv-error)',
        'rules must be a zod schema',
      ],
    });
    expect(invalidity(null).message).to.equal("invalid check '(no id)': a check must be an object");
  });

  it('types handlers by the kinds consumed and ctx.rules by the schema output', () => {
    // Compile-time expectations: `npm run typecheck` fails if these stop holding.
    const check: AnyCheck = defineCheck({
      ...valid,
      consumes: ['pcr', 'pes'],
      create(ctx) {
        const limit: number = ctx.rules.maxIntervalMs;
        // @ts-expect-error rules are typed: maxIntervalMs is a number
        const wrong: string = ctx.rules.maxIntervalMs;
        return {
          last: limit,
          pcr(obs) {
            this.last = obs.pcr27MHz;
          },
          pes(obs) {
            // @ts-expect-error a PES observation has no PCR
            void obs.pcr27MHz;
          },
          finish() {
            void wrong;
          },
        };
      },
    });
    defineCheck({
      ...valid,
      // @ts-expect-error a handler for a kind not consumed
      create: () => ({ pat: () => undefined }),
    });
    expect(check.consumes).to.deep.equal(['pcr', 'pes']);
  });

  it('takes a rule slice built with zod/mini as well, ctx.rules typed by its output', () => {
    const check = defineCheck({
      ...valid,
      rules: zm.object({ maxIntervalMs: zm._default(zm.nullable(zm.number().check(zm.positive())), 40) }),
      create(ctx) {
        const limit: number | null = ctx.rules.maxIntervalMs;
        // @ts-expect-error rules are typed: maxIntervalMs is a number or null
        const wrong: number = ctx.rules.maxIntervalMs;
        void [limit, wrong];
        return {};
      },
    });
    expect(check.rules.parse({})).to.deep.equal({ maxIntervalMs: 40 });
    expect(invalidity({ ...valid, rules: zm.object({ pid: zm.number() }) }).problems).to.deep.equal([
      'rules must give every option a default (pid: Invalid input: expected number, received undefined)',
    ]);
  });
});
