/**
 * A set of checks running over one source. Observations go in one at a time
 * (`observe`, usable directly as the demuxer's sink); results come out at
 * `finish`. The live channel, the file pipeline and the re-run over stored
 * observations all drive this same class.
 *
 * Dispatch: the handlers are gathered once, per observation kind, into
 * arrays indexed by the kind's dispatch index, so an observation costs a
 * switch and a loop over exactly the checks that consume its kind.
 *
 * A check that throws (in create, a handler or finish) is reported as a
 * PluginError and taken out of the run: it gets no further observations and
 * its finish is not called, because its state is suspect after a partial
 * update and a broken handler would otherwise throw (and be reported) once
 * per observation. Its points up to the failure are kept.
 */
import { type CheckResult, CheckRun, type PointPolicy, PointSinkFailure, type PointSink } from './check-run.js';
import { parseCheckRules } from './check-rules.js';
import { CoreError } from './core-error.js';
import type { AnyCheck } from './define-check.js';
import type { DemuxerFactoryOptions } from './demuxer-factory.js';
import { OBSERVATION_KINDS, observationKindIndex } from './observation-kinds.js';
import type { Observation, ObservationKind } from './observations.js';
import type { PluginError } from './plugin-error.js';

export interface CheckSessionOptions {
  /** Rule slices by check id, as configured (input of each check's schema); a check absent here runs on its defaults. */
  rules?: Readonly<Record<string, unknown>>;
  /** Receive every point as it is emitted. A sink that throws aborts the run (it is ours, not the check's fault). */
  pointSinks?: readonly PointSink[];
  /** Keep points in the results. Default true; turn off when a sink stores them. */
  keepPoints?: boolean;
  /** Kept points per check at most (default 10 000); the summary still counts every point. */
  maxPointsPerCheck?: number;
}

export interface SessionResult {
  /** One entry per check, in the order the checks were given. */
  checks: CheckResult[];
  /** The checks that threw, in the order they failed. */
  errors: PluginError[];
  /** Observations received, of any kind. */
  observations: number;
}

export const DEFAULT_MAX_POINTS_PER_CHECK = 10_000;

type Handler = (observation: Observation) => void;

/** The handlers of one kind, with the run each belongs to (same index). Replaced whole, never mutated. */
interface KindSlot {
  readonly handlers: readonly Handler[];
  /** The object each handler belongs to (what `create` returned): its `this`. */
  readonly owners: readonly object[];
  readonly runs: readonly CheckRun[];
}

const EMPTY_SLOT: KindSlot = { handlers: [], owners: [], runs: [] };

export class CheckSession {
  private readonly runs: CheckRun[];
  private readonly slots: KindSlot[];
  private readonly counts = new Float64Array(OBSERVATION_KINDS.length);
  private readonly errors: PluginError[] = [];
  private total = 0;
  private result: SessionResult | null = null;

  /**
   * Parses every check's rules first (CoreError ERR_RULES_INVALID before any
   * check is created), then creates the runs. Duplicate ids are refused
   * (ERR_CHECK_DUPLICATE): results are keyed by check id.
   */
  constructor(checks: readonly AnyCheck[], options: CheckSessionOptions = {}) {
    const seen = new Set<string>();
    for (const check of checks) {
      if (seen.has(check.id)) throw new CoreError('ERR_CHECK_DUPLICATE', `check '${check.id}' is given twice`, { checkId: check.id });
      seen.add(check.id);
    }
    const configured = options.rules ?? {};
    const rules = checks.map((check) => parseCheckRules(check, Object.hasOwn(configured, check.id) ? configured[check.id] : undefined));
    const policy: PointPolicy = {
      keepPoints: options.keepPoints ?? true,
      maxPointsPerCheck: options.maxPointsPerCheck ?? DEFAULT_MAX_POINTS_PER_CHECK,
      pointSinks: [...(options.pointSinks ?? [])],
    };
    const observed = (kind: ObservationKind): number => this.counts[observationKindIndex(kind)] ?? 0;
    this.runs = checks.map((check, i) => new CheckRun(check, rules[i], policy, observed));
    for (const run of this.runs) {
      if (!run.start() && run.failure) this.errors.push(run.failure);
    }
    this.slots = OBSERVATION_KINDS.map((kind) => this.buildSlot(kind));
  }

  /** Number of checks that will receive observations of this kind. */
  consumersOf(kind: ObservationKind): number {
    return this.slots[observationKindIndex(kind)]?.handlers.length ?? 0;
  }

  /**
   * What a demuxer feeding this session must make: a kind no check consumes may be left unmade
   * unless one of the run's other sinks reads it (`sinkKinds`, the kinds they read).
   */
  demuxerOptions(sinkKinds: readonly ObservationKind[]): DemuxerFactoryOptions {
    return { klvFields: sinkKinds.includes('klv-field') || this.consumersOf('klv-field') > 0 };
  }

  /** Dispatches one observation to the checks that consume its kind. Bound, so it can be passed as a sink. */
  readonly observe = (observation: Observation): void => {
    const index = observationKindIndex(observation.kind);
    if (index < 0) return;
    this.counts[index]++;
    this.total++;
    const slot = this.slots[index];
    const { handlers, owners } = slot;
    for (let i = 0; i < handlers.length; i++) {
      try {
        // call() rather than bound functions: a bound function is a slower call, made for every handler of every observation.
        handlers[i].call(owners[i], observation);
      } catch (cause) {
        this.handlerFailed(slot.runs[i], observation, cause);
      }
    }
  };

  /**
   * Calls every live check's finish and returns the results. Observations
   * after this are ignored; calling it again returns the same results.
   */
  finish(): SessionResult {
    if (this.result) return this.result;
    this.slots.fill(EMPTY_SLOT);
    for (const run of this.runs) {
      run.finish();
      if (run.failure && !this.errors.includes(run.failure)) this.errors.push(run.failure);
    }
    this.throwIfSinkFailed();
    this.result = {
      checks: this.runs.map((run) => run.result(this.observationsFor(run))),
      errors: this.errors,
      observations: this.total,
    };
    return this.result;
  }

  /** Rethrows a point sink's error that a check caught and swallowed. Cheap: meant once per chunk. */
  throwIfSinkFailed(): void {
    for (const run of this.runs) {
      if (run.sinkFailure) throw run.sinkFailure.cause;
    }
  }

  private buildSlot(kind: ObservationKind): KindSlot {
    const handlers: Handler[] = [];
    const owners: object[] = [];
    const runs: CheckRun[] = [];
    for (const run of this.runs) {
      const owner = run.handlers;
      if (!owner || !run.check.consumes.includes(kind)) continue;
      const handler: unknown = owner[kind];
      if (typeof handler !== 'function') continue;
      // Called on its owner so a check may keep its state on `this` (the object create returned).
      handlers.push(handler as Handler);
      owners.push(owner);
      runs.push(run);
    }
    return handlers.length === 0 ? EMPTY_SLOT : { handlers, owners, runs };
  }

  private handlerFailed(run: CheckRun, observation: Observation, cause: unknown): void {
    if (cause instanceof PointSinkFailure) throw cause.cause;
    // The run may already be out (it failed earlier in this same dispatch loop through a stale slot).
    if (run.failure) return;
    this.errors.push(run.fail(observation.kind, cause, { offset: observation.offset, packetIndex: observation.packetIndex }));
    for (const kind of run.check.consumes) {
      const index = observationKindIndex(kind);
      const slot = this.slots[index];
      const at = slot.runs.indexOf(run);
      if (at < 0) continue;
      // Copy on write: a dispatch loop in progress keeps iterating its own snapshot.
      this.slots[index] = {
        handlers: slot.handlers.filter((_, i) => i !== at),
        owners: slot.owners.filter((_, i) => i !== at),
        runs: slot.runs.filter((_, i) => i !== at),
      };
    }
  }

  private observationsFor(run: CheckRun): number {
    let count = 0;
    for (const kind of run.check.consumes) count += this.counts[observationKindIndex(kind)];
    return count;
  }
}
