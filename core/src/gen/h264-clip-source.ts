/**
 * A real H.264 elementary stream for the generator: an Annex B clip (ITU-T
 * H.264 Annex B), split into access units and sent in a loop, forever.
 *
 * The clip must have an access unit delimiter (NAL unit type 9) before
 * every access unit (H.264 7.4.1.2.3: it starts one), no B-frames (decode
 * order is display order, so PTS = DTS and only the PTS is coded, ISO
 * 13818-1 2.4.3.7), and must start with an IDR access unit, so a decoder
 * can restart at every loop. `scripts/make-demo-clip.sh` makes such a clip.
 *
 * Timing (90 kHz, counted from the first byte): frame k, which is access
 * unit k mod N of loop floor(k / N), is ready at k / frameRate and has
 * PTS = round(k * 90000 / frameRate) + the decoder delay: continuous across
 * loops, and equal to the PTS the generator's synchronous KLV gives packet k
 * at the same rate (klv-source.ts).
 */
import type { AccessUnit, ElementaryStreamSource, SourceContext } from './elementary-stream-source.js';
import { GeneratorError } from './generator-error.js';
import { annexBNalUnits } from '../ts/annex-b-nal-units.js';
import { PTS_HZ } from '../ts/clock.js';

/** ITU-T H.264 Table 7-1. */
const NAL_IDR_SLICE = 5;
const NAL_ACCESS_UNIT_DELIMITER = 9;
/** PES bytes after PES_packet_length with a PTS: flags 2, header length 1, PTS 5 (ISO 13818-1 2.4.3.6). */
const PES_HEADER_AFTER_LENGTH = 8;
const MAX_PES_PACKET_LENGTH = 0xffff;

export interface H264AccessUnit {
  /** The access unit's bytes, a view into the clip: from its delimiter's start code to the next one. */
  bytes: Uint8Array;
  /** It holds an IDR slice (NAL unit type 5): a decoder can start here. */
  idr: boolean;
}

/**
 * The access units of an Annex B H.264 stream, split before every access
 * unit delimiter (H.264 7.4.1.2.3). Bytes before the first delimiter belong
 * to the first unit, so the units joined are the input. No delimiter: none.
 */
export function splitH264AccessUnits(annexB: Uint8Array): H264AccessUnit[] {
  const units: H264AccessUnit[] = [];
  let unitStart = 0;
  let idr = false;
  let seenDelimiter = false;
  for (const nal of annexBNalUnits(annexB)) {
    const type = annexB[nal.start] & 0x1f;
    if (type === NAL_ACCESS_UNIT_DELIMITER) {
      if (seenDelimiter) {
        units.push({ bytes: annexB.subarray(unitStart, nal.prefixStart), idr });
        unitStart = nal.prefixStart;
      }
      seenDelimiter = true;
      idr = false;
    } else if (type === NAL_IDR_SLICE) {
      idr = true;
    }
  }
  if (seenDelimiter) units.push({ bytes: annexB.subarray(unitStart), idr });
  return units;
}

export interface H264ClipSourceOptions {
  /** Default 0x100. */
  pid?: number;
  /** Frames per second of the clip; default 30. */
  frameRate?: number;
}

export class H264ClipSource implements ElementaryStreamSource {
  readonly pid: number;
  readonly streamType = 0x1b;
  readonly streamId = 0xe0;
  readonly descriptors = new Uint8Array(0);
  /** ISO 13818-1 2.4.3.7: PES_packet_length 0 (allowed for video) only when a unit would not fit a bounded PES. */
  readonly unboundedPes: boolean;
  /** The clip's average bitrate (bits/s). */
  readonly nominalBitrate: number;
  readonly frameRate: number;
  readonly accessUnits: readonly H264AccessUnit[];
  private readonly frameTicks: number;
  private decoderDelay90kHz = 0;
  private next = 0;

  /** Throws GeneratorError ERR_GENERATOR_OPTIONS when the clip has no access unit or does not start with an IDR. */
  constructor(clip: Uint8Array, options: H264ClipSourceOptions = {}) {
    this.pid = options.pid ?? 0x100;
    this.frameRate = options.frameRate ?? 30;
    if (!(Number.isFinite(this.frameRate) && this.frameRate > 0 && this.frameRate <= 300)) {
      throw new GeneratorError('ERR_GENERATOR_OPTIONS', `frameRate must be in (0, 300], got ${this.frameRate}`);
    }
    const units = splitH264AccessUnits(clip);
    if (units.length === 0) {
      throw new GeneratorError('ERR_GENERATOR_OPTIONS', 'the H.264 clip has no access unit delimiter (NAL unit type 9) to split it at');
    }
    if (!units[0].idr) throw new GeneratorError('ERR_GENERATOR_OPTIONS', 'the H.264 clip must start with an IDR access unit, so every loop can be decoded');
    this.accessUnits = units;
    this.frameTicks = PTS_HZ / this.frameRate;
    this.nominalBitrate = (clip.length * 8 * this.frameRate) / units.length;
    this.unboundedPes = units.some((u) => u.bytes.length + PES_HEADER_AFTER_LENGTH > MAX_PES_PACKET_LENGTH);
  }

  start(context: SourceContext): void {
    this.decoderDelay90kHz = context.decoderDelay90kHz;
    this.next = 0;
  }

  nextAccessUnits(upToSeconds: number): AccessUnit[] {
    const units: AccessUnit[] = [];
    const clip = this.accessUnits;
    for (;;) {
      const k = this.next;
      const readySeconds = k / this.frameRate;
      if (readySeconds > upToSeconds) return units;
      const unit = clip[k % clip.length];
      units.push({
        readySeconds,
        pts90kHz: Math.round(k * this.frameTicks) + this.decoderDelay90kHz,
        payload: unit.bytes,
        randomAccess: unit.idr,
      });
      this.next = k + 1;
    }
  }
}
