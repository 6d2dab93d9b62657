/**
 * Testing a check against a stream, the way ESLint's RuleTester tests a
 * rule: `runCheck` runs one check over bytes, a recorded file or a generated
 * stream (with its ground truth) through the real engine; `CheckTester`
 * turns lists of valid and invalid cases into mocha tests.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  createKlvAwareTsDemuxer,
  generateTransportStream,
  runPipeline,
  type AnyCheck,
  type CheckResult,
  type GeneratorOptions,
  type InjectedFault,
  type Point,
} from '@klvscope/core';

/** A stream to test on: its bytes, a recorded file, or a generator run. */
export type StreamInput = Uint8Array | { file: string } | { generate: GeneratorOptions };

export interface CheckRun {
  result: CheckResult;
  /** The points that break a rule. */
  violations: Point[];
  /** The ground truth of a generated stream; empty otherwise. */
  faults: InjectedFault[];
}

async function bytesOf(input: StreamInput): Promise<{ bytes: Uint8Array; faults: InjectedFault[] }> {
  if (input instanceof Uint8Array) return { bytes: input, faults: [] };
  if ('file' in input) return { bytes: await readFile(input.file), faults: [] };
  const { bytes, faults } = generateTransportStream(input.generate);
  return { bytes, faults };
}

/** Runs `check` (with `rules`, its slice) over the stream, KLV decoded, and returns its result. */
export async function runCheck(check: AnyCheck, input: StreamInput, rules?: unknown): Promise<CheckRun> {
  const { bytes, faults } = await bytesOf(input);
  const session = await runPipeline([bytes], {
    checks: [check],
    rules: rules === undefined ? {} : { [check.id]: rules },
    demuxerFactory: createKlvAwareTsDemuxer,
    maxPointsPerCheck: Number.MAX_SAFE_INTEGER,
  });
  const [result] = session.checks;
  if (result.error) throw new Error(`check ${check.id} failed in ${result.error.hook}: ${String(result.error.cause)}`);
  return { result, violations: result.points.filter((p) => p.violation), faults };
}

export interface ValidCase {
  name: string;
  input: StreamInput;
  rules?: unknown;
}

export interface InvalidCase extends ValidCase {
  /**
   * The violations expected, by packet index (and type when given), or
   * 'ground-truth': exactly one violation at each injected fault's packet.
   */
  violations: Array<{ packetIndex: number; type?: string }> | 'ground-truth';
}

export interface CheckTesterCases {
  valid?: ValidCase[];
  invalid?: InvalidCase[];
}

export class CheckTester {
  constructor(private readonly check: AnyCheck) {}

  run(input: StreamInput, rules?: unknown): Promise<CheckRun> {
    return runCheck(this.check, input, rules);
  }

  /** Defines one mocha test per case: valid cases have no violation; invalid ones exactly the violations named. */
  cases(cases: CheckTesterCases): void {
    const check = this.check;
    describe(`${check.id} (CheckTester)`, () => {
      for (const c of cases.valid ?? []) {
        it(`has no violation: ${c.name}`, async function () {
          skipWithoutFile(this, c.input);
          const { violations } = await runCheck(check, c.input, c.rules);
          if (violations.length > 0) throw new Error(`expected no violation, got ${violations.length}: ${describePoints(violations)}`);
        });
      }
      for (const c of cases.invalid ?? []) {
        it(`finds the violations: ${c.name}`, async function () {
          skipWithoutFile(this, c.input);
          const { violations, faults } = await runCheck(check, c.input, c.rules);
          const expected: Array<{ packetIndex: number; type?: string }> =
            c.violations === 'ground-truth' ? faults.map((f) => ({ packetIndex: f.packetIndex })) : c.violations;
          const got = violations.map((v) => ({ packetIndex: v.packetIndex, type: v.type }));
          const matches =
            got.length === expected.length && expected.every((e, i) => got[i].packetIndex === e.packetIndex && (e.type === undefined || got[i].type === e.type));
          if (!matches) throw new Error(`expected violations ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
        });
      }
    });
  }
}

/** A recorded file that is not there (a clone without the shared fixtures) skips its case, saying so. */
function skipWithoutFile(context: Mocha.Context, input: StreamInput): void {
  if (input instanceof Uint8Array || !('file' in input) || existsSync(input.file)) return;
  console.log(`      skipped: ${input.file} not found`);
  context.skip();
}

function describePoints(points: readonly Point[]): string {
  return points
    .slice(0, 5)
    .map((p) => `packet ${p.packetIndex}: ${p.message}`)
    .join('; ');
}
