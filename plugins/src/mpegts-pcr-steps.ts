/**
 * Consecutive PCRs of each PCR PID, as steps: the change of the PCR value
 * (what TR 101 290 2.3b judges) and the time between their arrival (what
 * ISO/IEC 13818-1 2.7.2 and TR 101 290 2.3a judge). Shared by the PCR
 * checks so that they agree on what a step is.
 */
import { PCR_HZ, PID_COUNT, pcrDelta27MHz, type DiscontinuityObservation, type PcrObservation } from '@klvscope/core';

export interface PcrStep {
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

/** The previous PCR of each PID, as numbers in arrays indexed by PID (this runs for every PCR, in three checks). */
export class PcrSteps {
  private readonly lastPcr27MHz = new Float64Array(PID_COUNT);
  /** NaN when the previous PCR had no known time. */
  private readonly lastT = new Float64Array(PID_COUNT);
  private readonly seen = new Uint8Array(PID_COUNT);
  private readonly signalledSince = new Uint8Array(PID_COUNT);
  private pids = 0;

  /** Notes a discontinuity_indicator (ISO/IEC 13818-1 2.4.3.5: the next PCR of the PID is of a new time base). */
  discontinuity(observation: DiscontinuityObservation): void {
    this.signalledSince[observation.pid & 0x1fff] = 1;
  }

  /** The step from the PID's previous PCR to this one; null for its first PCR. */
  next(current: PcrObservation): PcrStep | null {
    const slot = current.pid & 0x1fff;
    const signalled = current.discontinuity || this.signalledSince[slot] === 1;
    this.signalledSince[slot] = 0;
    const first = this.seen[slot] === 0;
    const previousPcr = this.lastPcr27MHz[slot];
    const previousT = this.lastT[slot];
    this.lastPcr27MHz[slot] = current.pcr27MHz;
    this.lastT[slot] = current.t ?? NaN;
    if (first) {
      this.seen[slot] = 1;
      this.pids++;
      return null;
    }
    const valueStepMs = (pcrDelta27MHz(previousPcr, current.pcr27MHz) / PCR_HZ) * 1000;
    const arrivalMs = !Number.isNaN(previousT) && current.t !== null ? (current.t - previousT) * 1000 : valueStepMs;
    return { valueStepMs, arrivalMs, signalled };
  }

  /** How many PIDs carried a PCR. */
  get pidCount(): number {
    return this.pids;
  }
}
