import { expect } from 'chai';
import { z } from 'zod';
import type { Point } from '../../src/kernel/check-point.js';
import { CheckSession } from '../../src/kernel/check-session.js';
import { CoreError } from '../../src/kernel/core-error.js';
import { defineCheck } from '../../src/kernel/define-check.js';
import { PluginError } from '../../src/kernel/plugin-error.js';
import { pcr, pes, recorder, tsError } from './fake-checks.js';

/** Emits one point per PCR with the interval to the previous one, a violation above the limit. */
const pcrIntervals = defineCheck({
  id: 'pcr-intervals',
  version: '1.0.0',
  title: 'PCR intervals',
  rules: z.object({ maxIntervalMs: z.number().positive().default(40), severity: z.enum(['warning', 'error']).default('error') }),
  consumes: ['pcr'],
  create(ctx) {
    let last: number | null = null;
    return {
      pcr(obs) {
        if (last !== null) {
          const intervalMs = (obs.pcr27MHz - last) / 27_000;
          const violation = intervalMs > ctx.rules.maxIntervalMs;
          ctx.point(obs, { value: intervalMs, unit: 'ms', violation, severity: violation ? ctx.rules.severity : 'info', message: `PCR interval ${intervalMs} ms` });
        }
        last = obs.pcr27MHz;
      },
    };
  },
});

const boom = (hook: 'create' | 'pcr' | 'finish') =>
  defineCheck({
    id: `throws-in-${hook}`,
    version: '1.0.0',
    title: 'throws',
    consumes: ['pcr'],
    create(ctx) {
      if (hook === 'create') throw new Error('no state');
      let calls = 0;
      return {
        pcr(obs) {
          calls++;
          ctx.point(obs, { message: `call ${calls}` });
          if (hook === 'pcr' && calls === 2) throw new RangeError('bad PCR state');
        },
        finish() {
          if (hook === 'finish') throw new Error('cannot summarise');
        },
      };
    },
  });

describe('CheckSession', () => {
  describe('dispatch', () => {
    it('gives each observation only to the checks that consume its kind, in order', () => {
      const pcrOnly = recorder('pcr-only', ['pcr']);
      const pesAndErrors = recorder('pes-and-errors', ['pes', 'ts-error']);
      const session = new CheckSession([pcrOnly.check, pesAndErrors.check]);
      for (const o of [pcr(0, 0), pes(900, 188), tsError(376), pcr(27_000, 564)]) session.observe(o);
      const result = session.finish();
      expect(pcrOnly.seen).to.deep.equal(['pcr@0', 'pcr@564']);
      expect(pesAndErrors.seen).to.deep.equal(['pes@188', 'ts-error@376']);
      expect(result.observations).to.equal(4);
      expect(result.checks.map((c) => c.summary.observations)).to.deep.equal([2, 2]);
    });

    it('counts the consumers of each kind', () => {
      const session = new CheckSession([recorder('a', ['pcr']).check, recorder('b', ['pcr', 'pes']).check]);
      expect([session.consumersOf('pcr'), session.consumersOf('pes'), session.consumersOf('pat')]).to.deep.equal([2, 1, 0]);
    });

    it('calls handlers with the object create returned as this, so a check may keep its state there', () => {
      const counter = defineCheck({
        id: 'counter',
        version: '1.0.0',
        title: 'counter',
        consumes: ['pcr'],
        create(ctx) {
          return {
            count: 0,
            pcr() {
              this.count++;
            },
            finish() {
              ctx.setVerdict('pass', `${this.count} PCRs`);
            },
          };
        },
      });
      const session = new CheckSession([counter]);
      session.observe(pcr(0, 0));
      session.observe(pcr(1, 188));
      expect(session.finish().checks[0].summary.reason).to.equal('2 PCRs');
    });

    it('never calls a handler for a kind the check does not consume', () => {
      const calls: string[] = [];
      const sneaky = defineCheck({
        id: 'sneaky',
        version: '1.0.0',
        title: 'sneaky',
        consumes: ['pcr'],
        create: () => ({ pcr: () => calls.push('pcr'), pes: () => calls.push('pes') }) as never,
      });
      const session = new CheckSession([sneaky]);
      session.observe(pes(0, 0));
      session.observe(pcr(0, 188));
      session.finish();
      expect(calls).to.deep.equal(['pcr']);
    });

    it('tells a check how many observations of any kind the run has received, handled or not', () => {
      const counts: number[][] = [];
      const census = defineCheck({
        id: 'census',
        version: '1.0.0',
        title: 'census',
        // Consumes PES without handling them: it only needs their number.
        consumes: ['pcr', 'pes'],
        create(ctx) {
          const read = () => counts.push([ctx.observed('pcr'), ctx.observed('pes'), ctx.observed('ts-error'), ctx.observed('pat')]);
          return { pcr: read, finish: read };
        },
      });
      const session = new CheckSession([census]);
      for (const o of [pes(900, 0), pcr(0, 188), tsError(376), pes(1800, 564), pcr(27_000, 752)]) session.observe(o);
      const result = session.finish();
      expect(counts).to.deep.equal([
        [1, 1, 0, 0],
        [2, 2, 1, 0],
        [2, 2, 1, 0],
      ]);
      expect(result.checks[0].summary.observations).to.equal(4);
    });

    it('ignores observations of an unknown kind and observations after finish', () => {
      const { check, seen } = recorder('late', ['pcr']);
      const session = new CheckSession([check]);
      session.observe({ ...pcr(0, 0), kind: 'video-frame' } as never);
      const first = session.finish();
      session.observe(pcr(0, 188));
      expect(seen).to.deep.equal([]);
      expect(session.finish()).to.equal(first);
      expect(first.observations).to.equal(0);
    });
  });

  describe('plugin errors', () => {
    it('reports a check that throws in a handler with its id, hook and position, and the other checks go on', () => {
      const other = recorder('other', ['pcr']);
      const session = new CheckSession([boom('pcr'), other.check]);
      for (let i = 0; i < 4; i++) session.observe(pcr(i * 27_000, i * 188));
      const result = session.finish();
      expect(result.errors).to.have.length(1);
      const error = result.errors[0];
      expect(error).to.be.instanceOf(PluginError);
      expect(error.code).to.equal('ERR_CHECK_FAILED');
      expect(error.checkId).to.equal('throws-in-pcr');
      expect(error.hook).to.equal('pcr');
      expect(error.position).to.deep.equal({ offset: 188, packetIndex: 1 });
      expect(error.cause).to.be.instanceOf(RangeError);
      expect(error.message).to.equal("check 'throws-in-pcr' threw in its 'pcr' handler at offset 188: bad PCR state");
      expect(other.seen).to.deep.equal(['pcr@0', 'pcr@188', 'pcr@376', 'pcr@564']);
    });

    it('stops calling a check after it threw, skips its finish and keeps its points up to the failure', () => {
      const session = new CheckSession([boom('pcr')]);
      for (let i = 0; i < 4; i++) session.observe(pcr(i * 27_000, i * 188));
      const [failed] = session.finish().checks;
      expect(failed.status).to.equal('failed');
      expect(failed.points.map((p) => p.message)).to.deep.equal(['call 1', 'call 2']);
      expect(failed.summary.verdict).to.equal('not-applicable');
      expect(failed.summary.reason).to.equal(
        "the check failed: check 'throws-in-pcr' threw in its 'pcr' handler at offset 188: bad PCR state",
      );
      expect(failed.error?.hook).to.equal('pcr');
    });

    it('reports a check that throws in create, and runs the others', () => {
      const other = recorder('other', ['pcr']);
      const session = new CheckSession([boom('create'), other.check]);
      session.observe(pcr(0, 0));
      const result = session.finish();
      expect(result.errors.map((e) => [e.checkId, e.hook, e.position])).to.deep.equal([['throws-in-create', 'create', null]]);
      expect(result.checks.map((c) => c.status)).to.deep.equal(['failed', 'completed']);
      expect(other.seen).to.deep.equal(['pcr@0']);
    });

    it('reports a check that throws in finish', () => {
      const session = new CheckSession([boom('finish')]);
      session.observe(pcr(0, 0));
      const result = session.finish();
      expect(result.errors.map((e) => [e.checkId, e.hook])).to.deep.equal([['throws-in-finish', 'finish']]);
      expect(result.checks[0].status).to.equal('failed');
      expect(result.checks[0].summary.points).to.equal(1);
    });

    it('reports a non-finite point value as a failure of the check that gave it', () => {
      const nan = defineCheck({
        id: 'nan-value',
        version: '1.0.0',
        title: 'NaN',
        consumes: ['pcr'],
        create: (ctx) => ({ pcr: (obs) => ctx.point(obs, { value: Number.NaN, message: 'x' }) }),
      });
      const session = new CheckSession([nan]);
      session.observe(pcr(0, 0));
      const [error] = session.finish().errors;
      expect(error.message).to.equal("check 'nan-value' threw in its 'pcr' handler at offset 0: point value must be a finite number or null, got NaN");
    });
  });

  describe('rules', () => {
    it('gives each check its rules parsed, with the schema defaults filled in', () => {
      const seen: unknown[] = [];
      const probe = defineCheck({
        id: 'probe',
        version: '1.0.0',
        title: 'probe',
        rules: z.object({ maxIntervalMs: z.number().default(40), pids: z.array(z.number()).default([]) }),
        consumes: ['pcr'],
        create(ctx) {
          seen.push(ctx.rules);
          return {};
        },
      });
      new CheckSession([probe]).finish();
      const configured = new CheckSession([probe], { rules: { probe: { maxIntervalMs: 100 }, unrelated: { x: 1 } } });
      expect(seen).to.deep.equal([
        { maxIntervalMs: 40, pids: [] },
        { maxIntervalMs: 100, pids: [] },
      ]);
      expect(configured.finish().checks[0].rules).to.deep.equal({ maxIntervalMs: 100, pids: [] });
    });

    it('refuses invalid rules with ERR_RULES_INVALID naming the check and option, before creating any check', () => {
      const other = recorder('other', ['pcr']);
      let created = 0;
      const counted = defineCheck({ id: 'counted', version: '1.0.0', title: 'c', consumes: ['pcr'], create: () => (created++, {}) });
      let error: unknown;
      try {
        new CheckSession([counted, pcrIntervals, other.check], { rules: { 'pcr-intervals': { maxIntervalMs: -5 } } });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(CoreError);
      expect((error as CoreError).code).to.equal('ERR_RULES_INVALID');
      expect((error as CoreError).message).to.equal("invalid rules for check 'pcr-intervals': maxIntervalMs: Too small: expected number to be >0");
      expect(created).to.equal(0);
    });

    it('refuses the same check id twice', () => {
      expect(() => new CheckSession([pcrIntervals, pcrIntervals]))
        .to.throw(CoreError, "check 'pcr-intervals' is given twice")
        .with.property('code', 'ERR_CHECK_DUPLICATE');
    });
  });

  describe('summary', () => {
    const run = (pcrs: number[], rules?: Record<string, unknown>) => {
      const session = new CheckSession([pcrIntervals], { rules: { 'pcr-intervals': rules } });
      pcrs.forEach((ms, i) => session.observe(pcr(ms * 27_000, i * 188)));
      return session.finish().checks[0];
    };

    it('counts points and violations by severity and gives min, max and mean of the values exactly', () => {
      const result = run([0, 10, 30, 75, 100, 160]);
      expect(result.summary).to.deep.equal({
        observations: 6,
        points: 5,
        violations: 2,
        violationsBySeverity: { info: 0, warning: 0, error: 2 },
        value: { count: 5, min: 10, max: 60, mean: 32, unit: 'ms' },
        verdict: 'fail',
        reason: '2 violations (2 error)',
      });
    });

    it('warns when the worst violation is a warning', () => {
      const { summary } = run([0, 50, 60], { severity: 'warning' });
      expect([summary.verdict, summary.reason]).to.deep.equal(['warn', '1 violation (1 warning)']);
    });

    it('passes without violations', () => {
      const { summary } = run([0, 40, 80]);
      expect([summary.verdict, summary.reason, summary.value?.mean]).to.deep.equal(['pass', 'no violations', 40]);
    });

    it('is not applicable when the source has none of the kinds the check consumes', () => {
      const { summary } = run([]);
      expect(summary).to.deep.equal({
        observations: 0,
        points: 0,
        violations: 0,
        violationsBySeverity: { info: 0, warning: 0, error: 0 },
        value: null,
        verdict: 'not-applicable',
        reason: 'no pcr observations in the source',
      });
    });

    it('takes the verdict a check sets with notApplicable or in finish', () => {
      const judge = defineCheck({
        id: 'judge',
        version: '1.0.0',
        title: 'judge',
        rules: z.object({ mode: z.enum(['na', 'override']).default('na') }),
        consumes: ['pcr'],
        create(ctx) {
          return {
            pcr(obs) {
              ctx.point(obs, { violation: true, message: 'bad' });
              if (ctx.rules.mode === 'na') ctx.notApplicable('no KLV stream in the program');
            },
            finish() {
              if (ctx.rules.mode === 'override') ctx.setVerdict('warn', 'only one PCR PID');
            },
          };
        },
      });
      const verdicts = (['na', 'override'] as const).map((mode) => {
        const session = new CheckSession([judge], { rules: { judge: { mode } } });
        session.observe(pcr(0, 0));
        const { summary } = session.finish().checks[0];
        return [summary.verdict, summary.reason, summary.violations];
      });
      expect(verdicts).to.deep.equal([
        ['not-applicable', 'no KLV stream in the program', 1],
        ['warn', 'only one PCR PID', 1],
      ]);
    });
  });

  describe('points', () => {
    it('locates a point at an observation, copying only the position fields, with defaults for the rest', () => {
      const session = new CheckSession([pcrIntervals]);
      session.observe(pcr(0, 0));
      session.observe({ ...pcr(27_000, 188), t: 0.001 });
      expect(session.finish().checks[0].points).to.deep.equal([
        { t: 0.001, offset: 188, packetIndex: 1, pid: 0x100, value: 1, unit: 'ms', violation: false, severity: 'info', message: 'PCR interval 1 ms', citation: null },
      ]);
    });

    it('keeps at most maxPointsPerCheck points, counts the others as dropped, and summarises them all', () => {
      const session = new CheckSession([pcrIntervals], { maxPointsPerCheck: 2 });
      for (let i = 0; i < 5; i++) session.observe(pcr(i * 27_000, i * 188));
      const result = session.finish().checks[0];
      expect(result.points.map((p) => p.offset)).to.deep.equal([188, 376]);
      expect([result.pointsDropped, result.summary.points]).to.deep.equal([2, 4]);
    });

    it('streams every point to the point sinks with the check id, also when points are not kept', () => {
      const streamed: string[] = [];
      const session = new CheckSession([pcrIntervals], {
        keepPoints: false,
        pointSinks: [(point: Point, checkId: string) => streamed.push(`${checkId}@${point.offset}=${point.value}`)],
      });
      for (let i = 0; i < 3; i++) session.observe(pcr(i * 27_000, i * 188));
      const result = session.finish().checks[0];
      expect(streamed).to.deep.equal(['pcr-intervals@188=1', 'pcr-intervals@376=1']);
      expect([result.points.length, result.pointsDropped, result.summary.points]).to.deep.equal([0, 0, 2]);
    });

    it('summarises points it does not keep exactly as kept ones, and still fails a check on a non-finite value', () => {
      const run = (keepPoints: boolean) => {
        const session = new CheckSession([pcrIntervals], { keepPoints, rules: { 'pcr-intervals': { maxIntervalMs: 1.5 } } });
        for (const [i, ticks] of [0, 27_000, 81_000, 108_000].entries()) session.observe(pcr(ticks, i * 188));
        return session.finish().checks[0];
      };
      const counted = run(false);
      expect(counted.points).to.deep.equal([]);
      expect(counted.summary).to.deep.equal(run(true).summary);
      expect([counted.summary.points, counted.summary.violations, counted.summary.value?.max]).to.deep.equal([3, 1, 2]);
      const nan = defineCheck({ id: 'nan', version: '1.0.0', title: 'nan', consumes: ['pcr'], create: (ctx) => ({ pcr: (o) => ctx.point(o, { message: 'x', value: Number.NaN }) }) });
      const session = new CheckSession([nan], { keepPoints: false });
      session.observe(pcr(0, 0));
      expect(session.finish().checks[0].status).to.equal('failed');
    });

    it('makes a point of a series (measure) the same point as point with that finding, kept, streamed or counted', () => {
      const series = { message: 'PCR on PID 0x0100', unit: 'ms', citation: 'TR 101 290 2.3a', type: 'pcr-interval' };
      const viaPoint = defineCheck({ id: 'via-point', version: '1.0.0', title: 'point', consumes: ['pcr'], create: (ctx) => ({ pcr: (o) => ctx.point(o, { ...series, value: o.pcr27MHz / 27_000 }) }) });
      const viaMeasure = defineCheck({ id: 'via-measure', version: '1.0.0', title: 'measure', consumes: ['pcr'], create: (ctx) => ({ pcr: (o) => ctx.measure(o, o.pcr27MHz / 27_000, series) }) });
      const run = (keepPoints: boolean) => {
        const streamed = new Map<string, Point[]>();
        const sink = (point: Point, checkId: string) => streamed.set(checkId, [...(streamed.get(checkId) ?? []), point]);
        const session = new CheckSession([viaPoint, viaMeasure], { keepPoints, pointSinks: keepPoints ? [sink] : [] });
        for (const [i, ticks] of [27_000, 81_000].entries()) session.observe({ ...pcr(ticks, i * 188), t: i });
        return { checks: session.finish().checks, streamed };
      };
      const kept = run(true);
      const [byPoint, byMeasure] = kept.checks;
      expect(byMeasure.points).to.deep.equal(byPoint.points);
      expect(byMeasure.points[1]).to.deep.equal({ t: 1, offset: 188, packetIndex: 1, pid: 0x100, value: 3, unit: 'ms', violation: false, severity: 'info', message: 'PCR on PID 0x0100', citation: 'TR 101 290 2.3a', type: 'pcr-interval' });
      expect(kept.streamed.get('via-measure')).to.deep.equal(byPoint.points);
      expect(kept.streamed.get('via-point')).to.deep.equal(byPoint.points);
      const counted = run(false).checks;
      expect(counted[1].points).to.deep.equal([]);
      expect(counted[1].summary).to.deep.equal(byPoint.summary);
      expect(byPoint.summary).to.include({ points: 2, violations: 0 });
      // A value that is not a finite number fails the check whether the points are kept or only counted.
      for (const keepPoints of [true, false]) {
        const nan = defineCheck({ id: 'nan', version: '1.0.0', title: 'nan', consumes: ['pcr'], create: (ctx) => ({ pcr: (o) => ctx.measure(o, Number.NaN, series) }) });
        const session = new CheckSession([nan], { keepPoints });
        session.observe(pcr(0, 0));
        const [result] = session.finish().checks;
        expect(result.status).to.equal('failed');
        expect(result.error?.message).to.match(/measured value must be a finite number, got NaN$/);
      }
    });

    it('lets a throwing point sink abort the run instead of blaming the check', () => {
      const diskFull = new Error('disk full');
      const session = new CheckSession([pcrIntervals], {
        pointSinks: [
          () => {
            throw diskFull;
          },
        ],
      });
      session.observe(pcr(0, 0));
      expect(() => session.observe(pcr(27_000, 188))).to.throw(diskFull);
    });
  });
});
