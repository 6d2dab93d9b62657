/**
 * One check's run over one source: its context, its handlers, its points and
 * its summary. Built and driven by a CheckSession.
 */
import {
  type Point,
  type PointFinding,
  type PointPosition,
  type PointSeries,
  findingSeverity,
  findingValue,
  makePoint,
  measuredValue,
  makeSeriesPoint,
} from './check-point.js';
import { type CheckSummary, SummaryAccumulator, type Verdict, type VerdictOverride } from './check-summary.js';
import type { AnyCheck, CheckContext, CheckHandlers } from './define-check.js';
import type { ObservationKind } from './observations.js';
import { type CheckHook, PluginError, type PluginErrorPosition } from './plugin-error.js';

/** Receives every point as it is emitted, whether or not points are kept. */
export type PointSink = (point: Point, checkId: string) => void;

export type CheckStatus = 'completed' | 'failed';

export interface CheckResult {
  checkId: string;
  version: string;
  title: string;
  /** The rules the check ran with (parsed, defaults applied). */
  rules: unknown;
  /** 'failed' when the check threw; its points stop at the failure and its verdict is not-applicable. */
  status: CheckStatus;
  summary: CheckSummary;
  /** The kept points, in emission order (empty when points are not kept). */
  points: Point[];
  /** Points emitted beyond the cap: counted in the summary and streamed to the sinks, not kept. */
  pointsDropped: number;
  error: PluginError | null;
}

/** What the runs of one session share. */
export interface PointPolicy {
  readonly keepPoints: boolean;
  readonly maxPointsPerCheck: number;
  readonly pointSinks: readonly PointSink[];
}

/**
 * A point sink threw while a check was emitting. It unwinds through the
 * check's handler; the session recognises it and rethrows the sink's error
 * instead of blaming the check.
 */
export class PointSinkFailure extends Error {
  override readonly name = 'PointSinkFailure';

  constructor(override readonly cause: unknown) {
    super('a point sink threw', { cause });
  }
}

export class CheckRun {
  readonly context: CheckContext;
  handlers: CheckHandlers<ObservationKind> | null = null;
  failure: PluginError | null = null;
  /** Set when a point sink threw, in case the check swallowed the unwinding. */
  sinkFailure: PointSinkFailure | null = null;

  private readonly points: Point[] = [];
  private pointsDropped = 0;
  private readonly accumulator = new SummaryAccumulator();
  private override: VerdictOverride | null = null;
  private closed = false;

  /** `observed` answers the context's `observed(kind)`: the session's count of that kind so far. */
  constructor(
    readonly check: AnyCheck,
    readonly rules: unknown,
    private readonly policy: PointPolicy,
    observed: (kind: ObservationKind) => number,
  ) {
    // Two closures each rather than one test per point: the one called stays small for the JIT.
    const countOnly = !policy.keepPoints && policy.pointSinks.length === 0;
    this.context = Object.freeze({
      checkId: check.id,
      rules,
      point: countOnly
        ? (_at: PointPosition, finding: PointFinding): void => this.countPoint(finding)
        : (at: PointPosition, finding: PointFinding): void => this.addPoint(at, finding),
      measure: countOnly
        ? (_at: PointPosition, value: number, series: PointSeries): void => this.countMeasure(value, series)
        : (at: PointPosition, value: number, series: PointSeries): void => this.addMadePoint(makeSeriesPoint(at, series, value)),
      notApplicable: (reason: string): void => this.setVerdict('not-applicable', reason),
      setVerdict: (verdict: Verdict, reason: string): void => this.setVerdict(verdict, reason),
      observed,
    });
  }

  /** Calls `create`; returns false when it threw (the run is then failed). */
  start(): boolean {
    try {
      const handlers = this.check.create(this.context);
      if (typeof handlers !== 'object' || handlers === null) throw new TypeError('create must return an object of handlers');
      this.handlers = handlers;
      return true;
    } catch (cause) {
      this.fail('create', cause, null);
      return false;
    }
  }

  /** Records the failure and stops the run: no more handlers, no `finish`, no more points. */
  fail(hook: CheckHook, cause: unknown, position: PluginErrorPosition | null): PluginError {
    const error = new PluginError(this.check.id, hook, cause, position);
    this.failure = error;
    this.closed = true;
    return error;
  }

  /** Calls `finish` (unless the run failed) and closes the run to further points. */
  finish(): void {
    if (this.closed) return;
    try {
      this.handlers?.finish?.();
    } catch (cause) {
      if (cause instanceof PointSinkFailure) throw cause;
      this.fail('finish', cause, null);
    }
    this.closed = true;
  }

  result(observations: number): CheckResult {
    const failure = this.failure;
    const summary = this.accumulator.summarize(
      observations,
      this.check.consumes,
      failure ? { verdict: 'not-applicable', reason: `the check failed: ${failure.message}` } : this.override,
    );
    return {
      checkId: this.check.id,
      version: this.check.version,
      title: this.check.title,
      rules: this.rules,
      status: failure ? 'failed' : 'completed',
      summary,
      points: this.points,
      pointsDropped: this.pointsDropped,
      error: failure,
    };
  }

  /** A point nobody reads (the CLI's table of checks needs only the summaries): counted, not made. */
  private countPoint(finding: PointFinding): void {
    if (this.closed) return;
    this.accumulator.add(findingValue(finding), finding.unit ?? null, finding.violation === true, findingSeverity(finding));
  }

  /** A point of a series nobody reads: its value counted, no finding made. */
  private countMeasure(value: number, series: PointSeries): void {
    if (this.closed) return;
    this.accumulator.addMeasure(measuredValue(value), series.unit ?? null);
  }

  private addPoint(at: PointPosition, finding: PointFinding): void {
    if (this.closed) return;
    this.addMadePoint(makePoint(at, finding));
  }

  private addMadePoint(point: Point): void {
    if (this.closed) return;
    const policy = this.policy;
    this.accumulator.add(point.value, point.unit, point.violation, point.severity);
    if (policy.keepPoints) {
      if (this.points.length < policy.maxPointsPerCheck) this.points.push(point);
      else this.pointsDropped++;
    }
    const sinks = policy.pointSinks;
    for (let i = 0; i < sinks.length; i++) {
      try {
        sinks[i](point, this.check.id);
      } catch (cause) {
        this.sinkFailure = new PointSinkFailure(cause);
        throw this.sinkFailure;
      }
    }
  }

  private setVerdict(verdict: Verdict, reason: string): void {
    if (!this.closed) this.override = { verdict, reason };
  }
}
