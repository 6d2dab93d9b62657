/** Runs a framer over pieces of a stream and gathers what it delivered and the noise it reported, by delivered-stream offset. */
import type { FramedBytes, ResyncFramer } from '../src/resync-framer.js';
import { concat } from './serial-test-streams.js';

export interface FramingResult {
  bytes: Uint8Array;
  /** [offset in the delivered stream, bytes skipped], runs at the same offset added up (a run can span pieces). */
  noise: Array<[number, number]>;
  messages: string[];
  /** Bytes delivered by each push (the flush last). */
  perPush: number[];
}

export function frameAll(framer: ResyncFramer, pieces: readonly Uint8Array[], options: { flush?: boolean } = {}): FramingResult {
  const out: Uint8Array[] = [];
  const noise = new Map<number, number>();
  const messages: string[] = [];
  const perPush: number[] = [];
  let delivered = 0;
  const take = (framed: FramedBytes): void => {
    for (const run of framed.noise) {
      noise.set(delivered + run.at, (noise.get(delivered + run.at) ?? 0) + run.count);
      messages.push(run.message);
    }
    out.push(framed.bytes);
    perPush.push(framed.bytes.length);
    delivered += framed.bytes.length;
  };
  for (const piece of pieces) take(framer.push(piece));
  if (options.flush ?? true) take(framer.flush());
  return { bytes: concat(out), noise: [...noise], messages, perPush };
}

/** The stream cut at the given positions. */
export function cutAt(bytes: Uint8Array, ...positions: number[]): Uint8Array[] {
  const cuts = [0, ...positions, bytes.length];
  return cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
}

/** The stream one byte at a time. */
export function byteByByte(bytes: Uint8Array): Uint8Array[] {
  return Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
}
