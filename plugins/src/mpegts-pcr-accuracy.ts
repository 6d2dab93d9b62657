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

interface Sample {
  offset: number;
  /** PCR in 27 MHz ticks, unwrapped, relative to the first PCR the PID's state saw. */
  pcr: number;
}

class PidAccuracy {
  private window: Sample[] = [];
  private lastRaw27MHz = 0;
  private lastUnwrapped = 0;
  private errorsInRow = 0;
  private started = false;

  /** Starts a new stretch at this PCR. */
  restart(observation: PcrObservation): void {
    this.unwrap(observation);
    this.window = [{ offset: observation.offset, pcr: this.lastUnwrapped }];
    this.errorsInRow = 0;
  }

  /** Forgets the stretch: the next PCR starts a new one. */
  forget(): void {
    this.window = [];
    this.errorsInRow = 0;
  }

  /** The error of this PCR in ns when the stretch is locked and it is off by more than `toleranceNs`; null otherwise. */
  sample(observation: PcrObservation, toleranceNs: number): number | null {
    const pcr = this.unwrap(observation);
    const sample: Sample = { offset: observation.offset, pcr };
    const window = this.window;
    if (window.length < 2) {
      if (window.length === 1 && sample.offset <= window[0].offset) this.window = [sample];
      else window.push(sample);
      return null;
    }
    const first = window[0];
    const last = window[window.length - 1];
    if (sample.offset <= last.offset) {
      this.window = [sample];
      return null;
    }
    const rate = (last.pcr - first.pcr) / (last.offset - first.offset);
    const predicted = first.pcr + (sample.offset - first.offset) * rate;
    const errorNs = ((pcr - predicted) / PCR_HZ) * 1e9;
    if (Math.abs(errorNs) <= toleranceNs) {
      this.errorsInRow = 0;
      window.push(sample);
      // Keep about a second of PCRs (never fewer than a locked stretch needs).
      while (window.length > LOCK_SAMPLES && window[window.length - 1].pcr - window[1].pcr >= WINDOW_27MHZ) window.shift();
      return null;
    }
    if (window.length < LOCK_SAMPLES) {
      // Not a constant-bitrate stretch (yet): a new one starts from the PCR before this one.
      this.window = [last, sample];
      return null;
    }
    this.errorsInRow++;
    if (this.errorsInRow >= MAX_CONSECUTIVE_ERRORS) {
      this.window = [sample];
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
