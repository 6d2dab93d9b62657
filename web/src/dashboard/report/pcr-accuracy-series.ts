/**
 * PCR accuracy of every PCR of a recording, for the report's plot against
 * TR 101 290 2.4's ±500 ns (ISO/IEC 13818-1 2.4.2.1). From the file alone
 * (no arrival clock), as the mpegts-errors check measures it: in a
 * constant-bitrate stretch a PCR is predicted from its byte offset on the
 * straight line through the PCRs around it, and its accuracy is the PCR
 * received less the PCR predicted (PCR_AC). Here the line runs through the
 * first and the last PCR of the PID within half a second each side (the
 * check's window is the second before), so every PCR but a stretch's first
 * and last gets a value. A stretch ends at a discontinuity_indicator, a PCR
 * that goes back, or a step over a second. On a variable-bitrate stream the
 * line is no prediction: values far off it say the bitrate varies, which the
 * check does not judge (it judges only stretches that lock on a line).
 */
import { PCR_HZ, pcrDelta27MHz } from '@klvscope/core/browser';

export interface PcrValueRow {
  t: number | null;
  pid: number;
  offset: number;
  pcr27MHz: number;
  discontinuity: boolean;
}

export interface PcrAccuracySeries {
  pid: number;
  /** Stream time of each PCR given a value, seconds. */
  t: number[];
  /** Its accuracy, ns (PCR received − predicted). */
  accuracyNs: number[];
}

const HALF_WINDOW_27MHZ = PCR_HZ / 2;
const MAX_STEP_27MHZ = PCR_HZ;

/** One series per PCR PID, ascending PID; rows in stream order. */
export function pcrAccuracySeries(rows: readonly PcrValueRow[]): PcrAccuracySeries[] {
  const byPid = new Map<number, PcrValueRow[]>();
  for (const row of rows) {
    let list = byPid.get(row.pid);
    if (list === undefined) byPid.set(row.pid, (list = []));
    list.push(row);
  }
  return [...byPid.entries()].sort(([a], [b]) => a - b).map(([pid, list]) => ({ pid, ...accuracyOf(list) }));
}

function accuracyOf(rows: PcrValueRow[]): { t: number[]; accuracyNs: number[] } {
  const t: number[] = [];
  const accuracyNs: number[] = [];
  for (const stretch of stretchesOf(rows)) {
    const { offsets, pcrs, times } = stretch;
    let first = 0;
    let last = 0;
    for (let i = 1; i < pcrs.length - 1; i++) {
      while (pcrs[i] - pcrs[first] > HALF_WINDOW_27MHZ) first++;
      while (last + 1 < pcrs.length && pcrs[last + 1] - pcrs[i] <= HALF_WINDOW_27MHZ) last++;
      // The PCR itself is never an end of its own line.
      const from = Math.min(first, i - 1);
      const to = Math.max(last, i + 1);
      const predicted = pcrs[from] + ((offsets[i] - offsets[from]) * (pcrs[to] - pcrs[from])) / (offsets[to] - offsets[from]);
      const time = times[i];
      if (time === null) continue;
      t.push(time);
      accuracyNs.push(((pcrs[i] - predicted) / PCR_HZ) * 1e9);
    }
  }
  return { t, accuracyNs };
}

interface Stretch {
  offsets: number[];
  /** Unwrapped across the 2^33 * 300 wrap. */
  pcrs: number[];
  times: Array<number | null>;
}

function stretchesOf(rows: PcrValueRow[]): Stretch[] {
  const stretches: Stretch[] = [];
  let current: Stretch | null = null;
  let lastRaw = 0;
  for (const row of rows) {
    const step = pcrDelta27MHz(lastRaw, row.pcr27MHz);
    const breaks = current === null || row.discontinuity || step <= 0 || step > MAX_STEP_27MHZ || row.offset <= current.offsets[current.offsets.length - 1];
    if (breaks) {
      current = { offsets: [], pcrs: [], times: [] };
      stretches.push(current);
    }
    const stretch = current as Stretch;
    stretch.offsets.push(row.offset);
    stretch.pcrs.push(breaks ? row.pcr27MHz : stretch.pcrs[stretch.pcrs.length - 1] + step);
    stretch.times.push(row.t);
    lastRaw = row.pcr27MHz;
  }
  return stretches;
}
