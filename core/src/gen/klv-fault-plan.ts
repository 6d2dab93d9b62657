/**
 * Where the KLV faults of one run land, decided before the first packet:
 * which packets a dropout removes, how far jitter moves each packet, how far
 * drift and reversal move item 2, and which packet carries each fault's
 * ground truth. Packets are numbered k = 0, 1, ... at the nominal times
 * k / rate; each fault acts at or after its `atSeconds`.
 *
 * Ground-truth rules (README "KLV faults"):
 * - content faults: the first packet at or after atSeconds that no other
 *   fault claims (dropped packets and timing faults' packets are skipped);
 * - klv-timestamp-reversal: the first packet (k >= 1) at or after atSeconds;
 * - klv-dropout: packets in [atSeconds, atSeconds + durationMs) are not
 *   sent; the first packet after the gap;
 * - klv-rate-jitter: packets (k >= 1) in [atSeconds, atSeconds + durationMs)
 *   move by a whole number of 90 kHz ticks in [-amountMs, +amountMs]; the
 *   packet whose interval to the previous packet deviates most from the
 *   period (the packet right after the window counts too, its interval is
 *   changed), made unique by at least 2 ticks;
 * - klv-clock-drift(-slow): from the first packet at or after atSeconds,
 *   item 2 gains (loses) amountMs per second of video time, counted from the
 *   packet before it, so that packet is already off by one period's worth.
 */
import type { KlvContentFaultKind, KlvFaultRequest } from './klv-fault-kinds.js';
import { formatFaultSpec } from './fault-spec.js';
import { GeneratorError } from './generator-error.js';
import { isKlvContentFaultKind } from './klv-fault-kinds.js';
import type { SeededRandom } from './seeded-random.js';

export type FaultDetails = Record<string, number | string | boolean>;

/** A fault's ground truth lands on this packet. */
export interface PlannedMark {
  request: KlvFaultRequest;
  /** Set for content faults: the packet's bytes are changed. */
  content: KlvContentFaultKind | null;
  /** Facts known before the run (klvIndex is added when the packet is sent). */
  details: FaultDetails;
}

export interface KlvFaultPlan {
  /** 1: packet k is not sent (dropout). */
  readonly dropped: Uint8Array;
  /** Shift of packet k's time (ready time, PTS and item 2), 90 kHz ticks (jitter). */
  readonly jitterTicks: Int32Array;
  /** Shift of packet k's item 2 on top of that, µs (drift, reversal). */
  readonly timestampShiftMicros: Float64Array;
  /** The fault carried by packet k, if any. */
  readonly marks: ReadonlyMap<number, PlannedMark>;
  /** The klvIndex an analyzer gives packet k (dropped and truncated packets are not framed). */
  readonly klvIndexOf: Int32Array;
}

const TICKS_PER_MS = 90;
/** Retries for a jitter whose largest deviation stands out by 2 ticks (almost always the first draw). */
const JITTER_DRAWS = 100;

function notPlaced(request: KlvFaultRequest, why: string): GeneratorError {
  return new GeneratorError('ERR_FAULT_NOT_PLACED', `fault ${formatFaultSpec(request.spec)} could not be placed: ${why}`);
}

/** Plans `requests` (in spec order) over `packetCount` packets at `rateHz`; `random` draws the jitter. */
export function planKlvFaults(requests: readonly KlvFaultRequest[], packetCount: number, rateHz: number, random: SeededRandom): KlvFaultPlan {
  const dropped = new Uint8Array(packetCount);
  const jitterTicks = new Int32Array(packetCount);
  const timestampShiftMicros = new Float64Array(packetCount);
  const marks = new Map<number, PlannedMark>();
  const firstAt = (seconds: number, from = 0): number => Math.max(from, Math.ceil(seconds * rateHz - 1e-9));
  const firstSent = (from: number): number => {
    let k = from;
    while (k < packetCount && dropped[k] === 1) k++;
    return k;
  };
  const claim = (k: number, mark: PlannedMark): void => {
    const other = marks.get(k);
    if (other) {
      throw new GeneratorError(
        'ERR_FAULT_SPEC',
        `faults ${formatFaultSpec(other.request.spec)} and ${formatFaultSpec(mark.request.spec)} both show at KLV packet ${k} (${(k / rateHz).toFixed(3)} s); move one`,
      );
    }
    marks.set(k, mark);
  };

  // Dropouts first: every other fault skips the packets they remove.
  const dropouts = requests.filter((r) => r.kind === 'klv-dropout');
  const windows = dropouts.map((r) => {
    const from = firstAt(r.spec.atSeconds);
    const to = Math.min(packetCount, firstAt(r.spec.atSeconds + r.durationMs / 1000));
    dropped.fill(1, from, to);
    return { r, from, to };
  });
  for (const { r, from, to } of windows) {
    const after = firstSent(to);
    if (after >= packetCount) throw notPlaced(r, 'no KLV packet is sent after the gap');
    let before = from - 1;
    while (before >= 0 && dropped[before] === 1) before--;
    const details: FaultDetails = { gapMs: r.durationMs, droppedPackets: to - from };
    if (before >= 0) details.intervalMs = ((after - before) * 1000) / rateHz;
    claim(after, { request: r, content: null, details });
  }

  for (const r of requests) {
    const at = firstAt(r.spec.atSeconds);
    switch (r.kind) {
      case 'klv-timestamp-reversal': {
        const k = firstSent(Math.max(1, at));
        if (k >= packetCount) throw notPlaced(r, 'no KLV packet is sent after it');
        timestampShiftMicros[k] -= r.amountMs * 1000;
        claim(k, { request: r, content: null, details: { amountMs: r.amountMs } });
        break;
      }
      case 'klv-clock-drift':
      case 'klv-clock-drift-slow': {
        const f = firstSent(at);
        if (f >= packetCount) throw notPlaced(r, 'no KLV packet is sent after it');
        const msPerSecond = r.kind === 'klv-clock-drift' ? r.amountMs : -r.amountMs;
        for (let k = f; k < packetCount; k++) timestampShiftMicros[k] += ((k - f + 1) / rateHz) * msPerSecond * 1000;
        claim(f, { request: r, content: null, details: { msPerSecond, ppm: msPerSecond * 1000 } });
        break;
      }
      case 'klv-rate-jitter': {
        const from = Math.max(1, at);
        const to = Math.min(packetCount, firstAt(r.spec.atSeconds + r.durationMs / 1000));
        if (from >= to) throw notPlaced(r, 'no KLV packet falls in its window');
        const jitter = drawJitter(to - from, Math.floor(r.amountMs * TICKS_PER_MS), random);
        for (let i = 0; i < jitter.offsets.length; i++) jitterTicks[from + i] += jitter.offsets[i];
        const k = from + jitter.peak;
        if (k >= packetCount) throw notPlaced(r, 'the largest deviation falls after the end of the stream');
        claim(k, {
          request: r,
          content: null,
          details: { amountMs: r.amountMs, durationMs: r.durationMs, maxDeviationMs: jitter.peakTicks / TICKS_PER_MS, jitteredPackets: to - from, firstJittered: from, lastJittered: to - 1 },
        });
        break;
      }
      default:
        break;
    }
  }

  // Content faults take the first free packet at or after their time.
  for (const r of requests) {
    if (!isKlvContentFaultKind(r.kind)) continue;
    let k = firstSent(firstAt(r.spec.atSeconds));
    while (k < packetCount && (marks.has(k) || dropped[k] === 1)) k = firstSent(k + 1);
    if (k >= packetCount) throw notPlaced(r, 'no free KLV packet is sent after it');
    marks.set(k, { request: r, content: r.kind, details: {} });
  }

  const klvIndexOf = new Int32Array(packetCount);
  let framed = 0;
  for (let k = 0; k < packetCount; k++) {
    klvIndexOf[k] = framed;
    if (dropped[k] === 0 && marks.get(k)?.content !== 'klv-truncated') framed++;
  }
  // Jitter details name packets by klvIndex, as an analyzer counts them.
  for (const mark of marks.values()) {
    const d = mark.details;
    if (typeof d.firstJittered === 'number' && typeof d.lastJittered === 'number') {
      d.firstJitteredKlvIndex = klvIndexOf[d.firstJittered];
      d.lastJitteredKlvIndex = klvIndexOf[d.lastJittered];
      delete d.firstJittered;
      delete d.lastJittered;
    }
  }
  return { dropped, jitterTicks, timestampShiftMicros, marks, klvIndexOf };
}

/**
 * `count` offsets in [-amountTicks, amountTicks] for consecutive packets,
 * and the one (0..count, count = the packet after the window) whose
 * interval deviation |o[i] - o[i-1]| is largest, by at least 2 ticks.
 */
function drawJitter(count: number, amountTicks: number, random: SeededRandom): { offsets: Int32Array; peak: number; peakTicks: number } {
  const offsets = new Int32Array(count);
  let peak = 0;
  let peakTicks = -1;
  for (let draw = 0; draw < JITTER_DRAWS; draw++) {
    for (let i = 0; i < count; i++) offsets[i] = Math.round(random.between(-amountTicks, amountTicks));
    peak = 0;
    peakTicks = -1;
    let runnerUp = -1;
    for (let i = 0; i <= count; i++) {
      const deviation = Math.abs((i < count ? offsets[i] : 0) - (i > 0 ? offsets[i - 1] : 0));
      if (deviation > peakTicks) {
        runnerUp = peakTicks;
        peakTicks = deviation;
        peak = i;
      } else if (deviation > runnerUp) {
        runnerUp = deviation;
      }
    }
    if (peakTicks - runnerUp >= 2) break;
  }
  return { offsets, peak, peakTicks };
}
