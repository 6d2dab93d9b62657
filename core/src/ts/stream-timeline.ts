/**
 * Stream time for observations: seconds since the first PCR of the time-base
 * PID, interpolated by byte position between consecutive PCRs (the bytes
 * between two PCRs arrive at a constant rate, ISO 13818-1 2.4.2.2).
 *
 * An observation must wait for the next PCR to be timed, so observations
 * after the first PCR are held here and released, in order, when it comes.
 * Across a PCR discontinuity or an implausible PCR step the time line does
 * not follow the PCR: it goes on at the last byte rate, so `t` stays a
 * usable axis for locating problems (the PCR checks report the step itself).
 */
import type { Observation, ObservationSink } from '../kernel/observations.js';
import { PCR_HZ, pcrDelta27MHz } from './clock.js';

/** Held observations beyond which they are timed by extrapolation rather than waiting longer. */
const MAX_PENDING = 4096;
/** A PCR step further than this beyond what the byte rate predicts is a jump, not time passing. */
const MAX_UNEXPLAINED_STEP_S = 0.5;
/** Without a byte rate yet, a step longer than this is a jump. */
const MAX_STEP_WITHOUT_RATE_S = 1;

export class StreamTimeline {
  private lastPcr27MHz = 0;
  private lastPcrOffset = 0;
  private lastT = -1;
  /** Bytes per second over the last good PCR interval; 0 while unknown. */
  private byteRate = 0;
  private pending: Observation[] = [];

  constructor(private readonly sink: ObservationSink) {}

  /** Whether a PCR has been seen: after it, observations get a time. */
  get started(): boolean {
    return this.lastT >= 0;
  }

  /** Queues or passes on an observation (its `t` is filled in here). */
  emit(observation: Observation): void {
    if (this.lastT < 0) {
      observation.t = null;
      this.sink(observation);
      return;
    }
    this.pending.push(observation);
    if (this.pending.length >= MAX_PENDING) this.releaseByExtrapolation();
  }

  /** A PCR of the time-base PID at `offset`; the PCR observation itself is passed in to be emitted in order. */
  pcr(pcr27MHz: number, offset: number, discontinuity: boolean, observation: Observation): void {
    if (this.lastT < 0) {
      this.lastT = 0;
    } else {
      const bytes = offset - this.lastPcrOffset;
      const stepSeconds = pcrDelta27MHz(this.lastPcr27MHz, pcr27MHz) / PCR_HZ;
      const predicted = this.byteRate > 0 ? bytes / this.byteRate : -1;
      const plausible =
        !discontinuity &&
        stepSeconds >= 0 &&
        (predicted < 0 ? stepSeconds <= MAX_STEP_WITHOUT_RATE_S : stepSeconds <= predicted + Math.max(MAX_UNEXPLAINED_STEP_S, predicted));
      const nextT = plausible ? this.lastT + stepSeconds : predicted >= 0 ? this.lastT + predicted : this.lastT;
      this.release(nextT, offset);
      if (plausible && stepSeconds > 0 && bytes > 0) this.byteRate = bytes / stepSeconds;
      this.lastT = nextT;
    }
    this.lastPcr27MHz = pcr27MHz;
    this.lastPcrOffset = offset;
    observation.t = this.lastT;
    this.sink(observation);
  }

  /**
   * End of the source, or a pause in it: times what is held by the last byte
   * rate (or leaves it unknown) and passes it on. After a pause, later
   * observations wait for the next PCR as before.
   */
  end(): void {
    this.releaseByExtrapolation();
  }

  /** Time of a byte position after the last PCR, by the last byte rate; null when no rate is known. */
  extrapolate(offset: number): number | null {
    if (this.lastT < 0) return null;
    if (this.byteRate <= 0) return offset === this.lastPcrOffset ? this.lastT : null;
    return this.lastT + (offset - this.lastPcrOffset) / this.byteRate;
  }

  private release(nextT: number, nextOffset: number): void {
    const span = nextOffset - this.lastPcrOffset;
    const slope = span > 0 ? (nextT - this.lastT) / span : 0;
    for (const observation of this.pending) {
      observation.t = this.lastT + (observation.offset - this.lastPcrOffset) * slope;
      this.sink(observation);
    }
    this.pending = [];
  }

  private releaseByExtrapolation(): void {
    for (const observation of this.pending) {
      observation.t = this.extrapolate(observation.offset);
      this.sink(observation);
    }
    this.pending = [];
  }
}
