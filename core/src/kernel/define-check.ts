/**
 * The check contract, modelled on ESLint rules: a check is plain data (id,
 * version, rule slice, consumed observation kinds) plus `create(ctx)`, which
 * is called once per run (a file, a live session, a stored ingest run) and
 * returns the handlers. Per-run state lives in the object `create` returns.
 */
import * as z from 'zod/mini';
import type { $ZodIssue, $ZodType, ParseContext, output, util } from 'zod/v4/core';
import type { PointFinding, PointPosition, PointSeries } from './check-point.js';
import type { Verdict } from './check-summary.js';
import { rulesDefaultsProblems } from './check-rules.js';
import { CoreError } from './core-error.js';
import { OBSERVATION_KINDS, isObservationKind } from './observation-kinds.js';
import type { ObservationKind, ObservationOf } from './observations.js';

/**
 * A check's rule slice: a zod 4 schema whose every option has a default,
 * built with `zod` or `zod/mini` (the built-in checks use `zod/mini`, which
 * loads in a fraction of classic zod's start-up time). Typed by what both
 * share: zod's core schema type, and the `safeParse` method the kernel calls.
 */
export type RulesSchema = $ZodType & {
  safeParse(input: unknown, params?: ParseContext<$ZodIssue>): util.SafeParseResult<unknown>;
};

const NO_RULES = z.object({});
/** The rule slice of a check that declares none. */
export type NoRules = typeof NO_RULES;

/** What a check's handlers talk to. One context per check per run. */
export interface CheckContext<R = unknown> {
  readonly checkId: string;
  /** The check's rule slice for this run, parsed, with defaults applied. */
  readonly rules: R;
  /** Emits a point at a position (an observation will do: only its position fields are read). */
  point(at: PointPosition, finding: PointFinding): void;
  /**
   * Emits a point of a series (see PointSeries): `value` (a finite number)
   * at a position, not a violation, severity info, the rest from `series`.
   * The same point as `point` with that finding; it costs less when the
   * points are only counted (no finding is made): meant for the point a
   * check emits for every PCR, PES or packet.
   */
  measure(at: PointPosition, value: number, series: PointSeries): void;
  /** Declares the check not applicable to this source (e.g. no KLV stream); the last reason given wins. */
  notApplicable(reason: string): void;
  /** Overrides the verdict computed from the points (meant for `finish`). */
  setVerdict(verdict: Verdict, reason: string): void;
  /**
   * Observations of this kind the run has received so far, whether or not
   * the check handles them: a check that only needs to know how many there
   * were (to say why it found nothing to judge) reads this in `finish`
   * instead of counting them in a handler that would be called for each one.
   */
  observed(kind: ObservationKind): number;
}

/**
 * Handlers, one per consumed kind, each receiving that kind's observation;
 * a handler for a kind the check does not consume is a type error.
 */
export type CheckHandlers<K extends ObservationKind> = {
  // Mapped over every kind (not over K) so the contextual type of each handler
  // resolves while K is being inferred: `pcr(obs)` gets a typed `obs`.
  [P in ObservationKind]?: P extends K ? (observation: ObservationOf<P>) => void : never;
} & {
  /** Called once after the last observation; the place to emit summary points or set the verdict. */
  finish?(): void;
};

/**
 * What a check author writes. `H` is the object `create` returns, inferred
 * from it, so handlers may keep per-run state on `this` (TSDuck style) with
 * its type known; state in `create`'s closure works as well.
 */
export interface CheckSpec<K extends ObservationKind, S extends RulesSchema, H extends CheckHandlers<K> = CheckHandlers<K>> {
  /** Kebab-case; also the suffix of the check's REST detail path. */
  id: string;
  /** Semantic version of the check's logic: stored with results so a re-run with a new version is visible. */
  version: string;
  title: string;
  description?: string;
  /** The rule slice; omitted when the check has no options. */
  rules?: S;
  consumes: readonly K[];
  create(ctx: CheckContext<output<S>>): H & ThisType<H>;
}

/** A validated check, as registries and pipelines hold it. */
export interface CheckDefinition<K extends ObservationKind = ObservationKind, S extends RulesSchema = RulesSchema> {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly description: string | null;
  readonly rules: S;
  readonly consumes: readonly K[];
  // Method syntax on purpose: it keeps the parameter bivariant, so every
  // CheckDefinition<K, S> is assignable to AnyCheck.
  create(ctx: CheckContext<output<S>>): CheckHandlers<K>;
}

/**
 * Any check, whatever it consumes and whatever its rules. Spelled out rather
 * than CheckDefinition<ObservationKind, RulesSchema>: TypeScript's variance
 * shortcut misjudges K through the conditional in CheckHandlers, while the
 * structural comparison accepts every CheckDefinition.
 */
export interface AnyCheck {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly description: string | null;
  readonly rules: RulesSchema;
  readonly consumes: readonly ObservationKind[];
  create(ctx: CheckContext): CheckHandlers<ObservationKind>;
}

/**
 * Defines a check: validates the definition (throws CoreError
 * ERR_CHECK_INVALID naming the check) and returns it frozen, typed so that
 * handlers and `ctx.rules` follow `consumes` and the rules schema.
 */
export function defineCheck<K extends ObservationKind, S extends RulesSchema = NoRules, H extends CheckHandlers<K> = CheckHandlers<K>>(
  spec: CheckSpec<K, S, H>,
): CheckDefinition<K, S> {
  const definition = {
    ...spec,
    description: spec.description ?? null,
    rules: spec.rules ?? (NO_RULES as RulesSchema as S),
    consumes: Object.freeze([...spec.consumes]),
  };
  assertCheckDefinition(definition);
  return Object.freeze(definition);
}

const KEBAB_CASE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
// semver.org 2.0.0, without the leading 'v'.
const SEMVER =
  /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(?:\+[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*)?$/;

/**
 * Checks a value against the contract, for definitions that did not come
 * through `defineCheck` (plugins loaded from a path or package at run time).
 */
export function assertCheckDefinition(value: unknown): asserts value is AnyCheck {
  const problems = checkDefinitionProblems(value);
  if (problems.length === 0) return;
  const id = isRecord(value) && typeof value.id === 'string' && value.id !== '' ? value.id : '(no id)';
  throw new CoreError('ERR_CHECK_INVALID', `invalid check '${id}': ${problems.join('; ')}`, { checkId: id, problems });
}

function checkDefinitionProblems(value: unknown): string[] {
  if (!isRecord(value)) return ['a check must be an object'];
  const problems: string[] = [];
  const { id, version, title, description, rules, consumes, create } = value;
  if (typeof id !== 'string' || !KEBAB_CASE.test(id)) problems.push(`id must be kebab-case (e.g. 'mpegts-pcr-intervals'), got ${show(id)}`);
  if (typeof version !== 'string' || !SEMVER.test(version)) problems.push(`version must be a semantic version (e.g. '1.0.0'), got ${show(version)}`);
  if (typeof title !== 'string' || title.trim() === '') problems.push('title must be a non-empty string');
  if (description !== undefined && description !== null && typeof description !== 'string') problems.push('description must be a string');
  if (typeof create !== 'function') problems.push('create must be a function');
  if (!Array.isArray(consumes) || consumes.length === 0) {
    problems.push(`consumes must be a non-empty array of observation kinds (${OBSERVATION_KINDS.join(', ')})`);
  } else {
    const unknown = consumes.filter((kind) => !isObservationKind(kind));
    if (unknown.length > 0) problems.push(`consumes names unknown observation kinds: ${unknown.map(show).join(', ')}`);
    if (new Set(consumes).size !== consumes.length) problems.push('consumes lists a kind twice');
  }
  // Duck-typed, not `instanceof`: schemas of `zod`, `zod/mini` (and zod 3, in an older plugin) all parse by `safeParse`.
  if (!isRecord(rules) || typeof rules.safeParse !== 'function') {
    problems.push('rules must be a zod schema');
  } else {
    // The rule slice must stand on its defaults: a run without configuration uses them.
    const missing = rulesDefaultsProblems(rules as unknown as RulesSchema);
    if (missing.length > 0) problems.push(`rules must give every option a default (${missing.join('; ')})`);
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
