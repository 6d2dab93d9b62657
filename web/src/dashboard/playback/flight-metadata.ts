/**
 * The decoded metadata packets of a whole recording (rows of the ingest
 * run's `klv/metadata-packets` dataset) as the viewer's messages, with the
 * lookup of the packet that belongs to a frame (the viewer's rules,
 * klv-frame-buffer.ts, over the whole file instead of the last seconds):
 * - synchronous carriage (MISB ST 1402): the packet whose PTS is the frame's;
 *   a frame without one shows the latest packet before it;
 * - asynchronous with PTS: the latest packet whose PTS is not after the frame's;
 * - without PTS: the latest packet that arrived (stream time) before the frame is presented.
 * A packet that arrived before the first PCR has no stream time (`t` null):
 * real recordings start so (kwiver's MPEG-2 and HEVC samples), and it came
 * before every frame, so it counts as arrived at the start, never as absent.
 */
import { frameKlvValues, type KlvItem, type StreamKlvMessage } from '@klvscope/core/browser';
import { PTS_HALF_MS } from '../../viewer/pts-clock.js';
import { TrackLog } from '../../viewer/track-log.js';
import type { StreamClock } from './stream-clock.js';

/** A row of `klv/metadata-packets` (core/src/store/datasets: the metadata-packet observation without `kind`). */
export interface MetadataPacketRow {
  seq: number;
  t: number | null;
  pid: number;
  standard: string;
  checksum: { valid: boolean } | null;
  pts90kHz: number | null;
  items: KlvItem[];
}

/** Where a PID's metadata is carried (the analysis's KLV summary per PID). */
export type CarriageByPid = ReadonlyMap<number, 'sync' | 'async' | 'raw'>;

interface TimedPacket {
  message: StreamKlvMessage;
  pts90kHz: number;
}

/** A frame's PTS is known within half a millisecond (pts-clock.ts). */
const SAME_FRAME_90KHZ = 2 * PTS_HALF_MS;

export class FlightMetadata {
  /** Ordered by unwrapped PTS. */
  private readonly timed: TimedPacket[] = [];
  /** Packets without PTS, in stream order. */
  private readonly untimed: StreamKlvMessage[] = [];
  /** Every packet, in stream order: what follows the cursor without a picture. */
  private readonly inStreamOrder: StreamKlvMessage[] = [];
  /** The platform and frame-centre tracks of every packet, in stream order. */
  readonly track = new TrackLog();
  readonly packets: number;

  constructor(rows: readonly MetadataPacketRow[], carriage: CarriageByPid, clock: StreamClock | null) {
    this.packets = rows.length;
    for (const row of rows) {
      const message: StreamKlvMessage = {
        type: 'klv',
        pid: row.pid,
        carriage: carriage.get(row.pid) === 'sync' ? 'sync' : 'async',
        pts90kHz: row.pts90kHz,
        streamTime: row.t,
        standard: row.standard,
        checksumValid: row.checksum === null ? null : row.checksum.valid,
        values: frameKlvValues(row.items),
      };
      this.track.add(message.values);
      this.inStreamOrder.push(message);
      if (row.pts90kHz !== null && clock !== null) this.timed.push({ message, pts90kHz: clock.unwrap(row.pts90kHz) });
      else this.untimed.push(message);
    }
    this.timed.sort((a, b) => a.pts90kHz - b.pts90kHz);
  }

  /** The packet for the frame of unwrapped PTS `framePts90kHz`, presented at stream time `streamTimeS`; null if none. */
  forFrame(framePts90kHz: number, streamTimeS: number): { message: StreamKlvMessage; exact: boolean } | null {
    let timed: StreamKlvMessage | null = null;
    let exact = false;
    // The last packet whose PTS is not after the frame's (binary search).
    let low = 0;
    let high = this.timed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.timed[middle].pts90kHz <= framePts90kHz + SAME_FRAME_90KHZ) low = middle + 1;
      else high = middle;
    }
    if (low > 0) {
      const entry = this.timed[low - 1];
      timed = entry.message;
      exact = entry.message.carriage === 'sync' && Math.abs(entry.pts90kHz - framePts90kHz) <= SAME_FRAME_90KHZ;
    }
    let untimed: StreamKlvMessage | null = null;
    for (const message of this.untimed) {
      if (arrivedS(message) > streamTimeS) break;
      untimed = message;
    }
    if (untimed !== null && (timed === null || arrivedS(untimed) > arrivedS(timed))) return { message: untimed, exact: false };
    return timed === null ? null : { message: timed, exact };
  }

  /** Without video: the latest packet that arrived at or before stream time `streamTimeS`. */
  atStreamTime(streamTimeS: number): StreamKlvMessage | null {
    let found: StreamKlvMessage | null = null;
    for (const message of this.inStreamOrder) {
      if (arrivedS(message) > streamTimeS) break;
      found = message;
    }
    return found;
  }
}

/** When a packet arrived, in stream time; one before the first PCR arrived before every frame. */
function arrivedS(message: StreamKlvMessage): number {
  return message.streamTime ?? Number.NEGATIVE_INFINITY;
}
