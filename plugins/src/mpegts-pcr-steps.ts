/**
 * Consecutive PCRs of each PCR PID, as steps: the change of the PCR value
 * (what TR 101 290 2.3b judges) and the time between their arrival (what
 * ISO/IEC 13818-1 2.7.2 and TR 101 290 2.3a judge). Shared by the PCR
 * checks so that they agree on what a step is.
 */
import { PCR_HZ, pcrDelta27MHz, type DiscontinuityObservation, type PcrObservation } from '@klvscope/core';

export interface PcrStep {
  previous: PcrObservation;
  current: PcrObservation;
  /** current - previous PCR value, across the 2^33 * 300 wrap, in ms (negative: backwards). */
  valueStepMs: number;
  /**
   * Stream time between the two packets in ms. The engine's time line
   * follows the PCR while it is continuous and the byte rate across a jump
   * or a discontinuity, so this is the arrival interval even where the PCR
   * value steps; when the time is unknown (a second program before the first
   * PCR of the time base) the value step stands in.
   */
  arrivalMs: number;
  /** discontinuity_indicator set on the PCR PID in a packet after the previous PCR, up to and including this one. */
  signalled: boolean;
}

export class PcrSteps {
  private readonly last = new Map<number, PcrObservation>();
  private readonly signalled = new Set<number>();

  /** Notes a discontinuity_indicator (ISO/IEC 13818-1 2.4.3.5: the next PCR of the PID is of a new time base). */
  discontinuity(observation: DiscontinuityObservation): void {
    this.signalled.add(observation.pid);
  }

  /** The step from the PID's previous PCR to this one; null for its first PCR. */
  next(current: PcrObservation): PcrStep | null {
    const previous = this.last.get(current.pid);
    const signalled = current.discontinuity || this.signalled.has(current.pid);
    this.last.set(current.pid, current);
    this.signalled.delete(current.pid);
    if (previous === undefined) return null;
    const valueStepMs = (pcrDelta27MHz(previous.pcr27MHz, current.pcr27MHz) / PCR_HZ) * 1000;
    const arrivalMs = previous.t !== null && current.t !== null ? (current.t - previous.t) * 1000 : valueStepMs;
    return { previous, current, valueStepMs, arrivalMs, signalled };
  }

  /** How many PIDs carried a PCR. */
  get pidCount(): number {
    return this.last.size;
  }
}
