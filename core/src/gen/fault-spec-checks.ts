/**
 * Checks shared by the built-in fault kinds: a spec must name a time inside
 * the stream, a PID the kind can act on, and a gap long enough to be seen.
 */
import type { FaultSpec } from './fault-spec.js';
import type { StreamLayout } from './fault-injector.js';
import type { FaultExpectation, InjectedFault } from './injected-fault.js';
import type { PacketInfo } from './packet-info.js';
import { GeneratorError } from './generator-error.js';

function specError(spec: FaultSpec, why: string): GeneratorError {
  return new GeneratorError('ERR_FAULT_SPEC', `fault ${spec.kind}@${spec.atSeconds}: ${why}`);
}

/** The fault time must fall inside the stream. */
export function checkFaultTime(spec: FaultSpec, layout: StreamLayout): void {
  if (!(spec.atSeconds >= 0 && spec.atSeconds < layout.durationSeconds)) {
    throw specError(spec, `time ${spec.atSeconds} s is outside the stream (0 to ${layout.durationSeconds} s)`);
  }
}

/** The spec's PID, or `fallback`; it must be one of `allowed`. */
export function faultPid(spec: FaultSpec, fallback: number, allowed: readonly number[], what: string): number {
  const pid = spec.pid ?? fallback;
  if (!allowed.includes(pid)) {
    throw specError(spec, `PID 0x${pid.toString(16)} is not ${what} (choose one of ${allowed.map((p) => `0x${p.toString(16)}`).join(', ')})`);
  }
  return pid;
}

/**
 * The gap length in ms (the spec's or `fallbackMs`): it must be longer than
 * the repetition interval of what it removes, or nothing would be missing.
 */
export function faultGapMs(spec: FaultSpec, fallbackMs: number, intervalMs: number, what: string): number {
  const gapMs = spec.durationMs ?? fallbackMs;
  if (!(gapMs > intervalMs)) {
    throw specError(spec, `a ${gapMs} ms gap is not longer than the ${what} interval of ${intervalMs} ms`);
  }
  return gapMs;
}

/**
 * The time window of a gap fault on one PID: `covers` answers the
 * multiplexer's "leave this out?" and counts what it removed.
 */
export class GapWindow {
  omitted = 0;
  private readonly endSeconds: number;

  constructor(
    readonly pid: number,
    private readonly startSeconds: number,
    readonly gapMs: number,
  ) {
    this.endSeconds = startSeconds + gapMs / 1000;
  }

  covers(pid: number, slotSeconds: number): boolean {
    if (pid !== this.pid || slotSeconds < this.startSeconds || slotSeconds >= this.endSeconds) return false;
    this.omitted++;
    return true;
  }
}

/** The ground truth at the packet `info` describes (or `packetsLater` packets after it). */
export function faultAt(
  spec: FaultSpec,
  info: PacketInfo,
  expect: FaultExpectation,
  details?: InjectedFault['details'],
  packetsLater = 0,
  packetSize = 0,
): InjectedFault {
  const fault: InjectedFault = {
    kind: spec.kind,
    pid: info.pid,
    packetIndex: info.outputIndex + packetsLater,
    offset: info.offset + packetsLater * packetSize,
    atSeconds: spec.atSeconds,
    expect,
  };
  if (details !== undefined) fault.details = details;
  return fault;
}

export function hex(pid: number): string {
  return `0x${pid.toString(16)}`;
}
