/**
 * PCR accuracy (ETSI TR 101 290 5.2.2 2.4, ISO/IEC 13818-1 2.4.2.1: ±500 ns)
 * measured from the stream alone, without arrival time stamps.
 *
 * ISO/IEC 13818-1 2.4.2.2 defines the time of any byte by linear
 * interpolation between PCRs at the multiplex rate. In a constant-bitrate
 * stretch that rate is constant, so each PCR can be predicted from its byte
 * position and the rate measured on the PCRs before it; the error is the PCR
 * received minus the PCR predicted (TR 101 290's PCR_AC, which a
 * hardware monitor measures against its own clock).
 *
 * The method, per PCR PID:
 * - The window holds the PCRs (byte offset, PCR unwrapped across the 2^33
 *   wrap) of the current stretch, about the last second of them. The
 *   prediction is the straight line through the window's first and last
 *   PCR; with PCRs exact to half a tick (18.5 ns, as a CBR multiplexer
 *   rounds them) it is within about two ticks (74 ns) of the truth.
 * - A stretch counts as constant bitrate ("locked") once LOCK_SAMPLES
 *   consecutive PCRs lie on one line within the tolerance. Only a locked
 *   stretch is judged: a variable-bitrate stream, whose PCRs follow the
 *   encoder clock rather than the byte count, never locks and is never
 *   judged.
 * - Unlocked, a PCR off the line starts a new stretch from the PCR before it
 *   (the rate changed). Locked, a PCR off the line is an accuracy error; it
 *   is not added to the window, so one bad PCR is reported once and does not
 *   spoil the next prediction. After MAX_CONSECUTIVE_ERRORS in a row the
 *   stretch is taken to have ended (the multiplex rate changed) and a new one
 *   is built, so a rate change costs a bounded number of errors.
 * - The caller restarts a PID where the byte positions stop meaning time: a
 *   PCR discontinuity (signalled or not), and for every PID lost or skipped
 *   bytes (continuity errors, sync loss).
 */
import { PCR_HZ, pcrDelta27MHz, type PcrObservation } from '@klvscope/core';

/** Consecutive PCRs on one line before a stretch is judged. */
const LOCK_SAMPLES = 5;
/** The window spans about this much PCR time (ticks): 1 s. */
const WINDOW_27MHZ = PCR_HZ;
/** Errors in a row after which the stretch is taken to have ended. */
const MAX_CONSECUTIVE_ERRORS = 5;

/**
 * The PCRs of the current stretch, oldest first, as (offset, unwrapped PCR)
 * pairs in a ring of numbers: a PCR joins it and an old one leaves it for
 * almost every PCR, which an array of objects paid for with an allocation
 * and a shift of the whole array.
 */
class SampleWindow {
  private offsets = new Float64Array(64);
  private pcrs = new Float64Array(64);
  private head = 0;
  length = 0;

  clear(): void {
    this.head = 0;
    this.length = 0;
  }

  offsetAt(i: number): number {
    return this.offsets[(this.head + i) & (this.offsets.length - 1)];
  }

  pcrAt(i: number): number {
    return this.pcrs[(this.head + i) & (this.pcrs.length - 1)];
  }

  push(offset: number, pcr: number): void {
    if (this.length === this.offsets.length) this.grow();
    const slot = (this.head + this.length) & (this.offsets.length - 1);
    this.offsets[slot] = offset;
    this.pcrs[slot] = pcr;
    this.length++;
  }

  shift(): void {
    this.head = (this.head + 1) & (this.offsets.length - 1);
    this.length--;
  }

  /** Doubles the ring (its size stays a power of two), oldest first again. */
  private grow(): void {
    const offsets = new Float64Array(this.offsets.length * 2);
    const pcrs = new Float64Array(this.pcrs.length * 2);
    for (let i = 0; i < this.length; i++) {
      offsets[i] = this.offsetAt(i);
      pcrs[i] = this.pcrAt(i);
    }
    this.offsets = offsets;
    this.pcrs = pcrs;
    this.head = 0;
  }
}

class PidAccuracy {
  private readonly window = new SampleWindow();
  private lastRaw27MHz = 0;
  private lastUnwrapped = 0;
  private errorsInRow = 0;
  private started = false;

  restart(observation: PcrObservation): void {
    this.unwrap(observation);
    this.window.clear();
    this.window.push(observation.offset, this.lastUnwrapped);
    this.errorsInRow = 0;
  }

  forget(): void {
    this.window.clear();
    this.errorsInRow = 0;
  }

  sample(observation: PcrObservation, toleranceNs: number): number | null {
    const pcr = this.unwrap(observation);
    const offset = observation.offset;
    const window = this.window;
    if (window.length < 2) {
      if (window.length === 1 && offset <= window.offsetAt(0)) window.clear();
      window.push(offset, pcr);
      return null;
    }
    const last = window.length - 1;
    const lastOffset = window.offsetAt(last);
    const lastPcr = window.pcrAt(last);
    if (offset <= lastOffset) {
      window.clear();
      window.push(offset, pcr);
      return null;
    }
    const firstOffset = window.offsetAt(0);
    const firstPcr = window.pcrAt(0);
    const rate = (lastPcr - firstPcr) / (lastOffset - firstOffset);
    const predicted = firstPcr + (offset - firstOffset) * rate;
    const errorNs = ((pcr - predicted) / PCR_HZ) * 1e9;
    if (Math.abs(errorNs) <= toleranceNs) {
      this.errorsInRow = 0;
      window.push(offset, pcr);
      // Keep about a second of PCRs (never fewer than a locked stretch needs).
      while (window.length > LOCK_SAMPLES && window.pcrAt(window.length - 1) - window.pcrAt(1) >= WINDOW_27MHZ) window.shift();
      return null;
    }
    if (window.length < LOCK_SAMPLES) {
      // Not a constant-bitrate stretch (yet): a new one starts from the PCR before this one.
      window.clear();
      window.push(lastOffset, lastPcr);
      window.push(offset, pcr);
      return null;
    }
    this.errorsInRow++;
    if (this.errorsInRow >= MAX_CONSECUTIVE_ERRORS) {
      window.clear();
      window.push(offset, pcr);
      this.errorsInRow = 0;
    }
    return errorNs;
  }

  private unwrap(observation: PcrObservation): number {
    if (this.started) {
      this.lastUnwrapped += pcrDelta27MHz(this.lastRaw27MHz, observation.pcr27MHz);
    } else {
      this.started = true;
      this.lastUnwrapped = 0;
    }
    this.lastRaw27MHz = observation.pcr27MHz;
    return this.lastUnwrapped;
  }
}

/** PCR accuracy of every PCR PID of a run. */
export class PcrAccuracy {
  private readonly pids = new Map<number, PidAccuracy>();

  constructor(private readonly toleranceNs: number) {}

  /** Judges one PCR: its error in ns when it breaks the tolerance in a constant-bitrate stretch, else null. */
  sample(observation: PcrObservation): number | null {
    return this.pid(observation.pid).sample(observation, this.toleranceNs);
  }

  /** A PCR where the time base moved (a discontinuity): the PID's stretch starts again at it. */
  restart(observation: PcrObservation): void {
    this.pid(observation.pid).restart(observation);
  }

  /** Bytes were lost or skipped: byte positions no longer measure time across this point, for any PID. */
  forgetAll(): void {
    for (const state of this.pids.values()) state.forget();
  }

  private pid(pid: number): PidAccuracy {
    let state = this.pids.get(pid);
    if (state === undefined) {
      state = new PidAccuracy();
      this.pids.set(pid, state);
    }
    return state;
  }
}
