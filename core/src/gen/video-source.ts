/**
 * A synthetic video elementary stream: the payload bytes are filler, but the
 * structure is an encoder's. Frames come in GOPs that start with an I-frame
 * (random_access_indicator set), with `bFrames` B-frames between reference
 * frames, sent in decode order: I0 P3 B1 B2 P6 B4 B5 ... I-frames are about
 * six times, P-frames twice the size of a B-frame, each varied by +-15 %.
 *
 * Timing (90 kHz, counted from the first byte): frame k in decode order is
 * ready at k / frameRate, its DTS is that plus the decoder delay, and its PTS
 * is DTS + (display index - k + reorder) frames, with a reorder delay of one
 * frame when there are B-frames. ISO 13818-1 2.4.3.7: when PTS equals DTS (B-
 * frames, or every frame without B-frames) only the PTS is coded.
 */
import type { AccessUnit, ElementaryStreamSource, SourceContext } from './elementary-stream-source.js';
import type { SeededRandom } from './seeded-random.js';
import { PTS_HZ } from '../ts/clock.js';

export interface VideoSourceOptions {
  pid: number;
  /** stream_type: 0x1B (H.264, default), 0x24 (HEVC), 0x02 (MPEG-2 video) ... */
  streamType: number;
  frameRate: number;
  /** Frames per GOP (I-frame to I-frame). */
  gopLength: number;
  /** B-frames between reference frames (0: I and P only). */
  bFrames: number;
  /** Average bitrate of the elementary stream (bits/s). */
  bitrate: number;
  /** false: PES without PTS or DTS. */
  timestamps: boolean;
}

const WEIGHT = { I: 6, P: 2, B: 1 } as const;
const JITTER = 0.15;

/**
 * The first bytes of every frame, so a reader sees a plausible access unit:
 * an access unit delimiter and the start of a filler-data NAL unit (H.264
 * 7.3.2.4 / 7.3.2.7, HEVC 7.3.2.5 / 7.3.2.8), or an MPEG-2 picture start code.
 */
function accessUnitPrefix(streamType: number): number[] {
  if (streamType === 0x1b) return [0, 0, 0, 1, 0x09, 0xf0, 0, 0, 1, 0x0c];
  if (streamType === 0x24) return [0, 0, 0, 1, 0x46, 0x01, 0x50, 0, 0, 1, 0x4c, 0x01];
  return [0, 0, 1, 0x00];
}

export class SyntheticVideoSource implements ElementaryStreamSource {
  readonly pid: number;
  readonly streamType: number;
  readonly streamId = 0xe0;
  readonly descriptors = new Uint8Array(0);
  // ISO 13818-1 2.4.3.7: PES_packet_length 0 is allowed for video, and I-frames exceed 65535 bytes.
  readonly unboundedPes = true;
  readonly nominalBitrate: number;
  private readonly frameTicks: number;
  private readonly unitBytes: number;
  private filler = new Uint8Array(0);
  private random: SeededRandom | null = null;
  private decoderDelay90kHz = 0;
  private next = 0;

  constructor(private readonly options: VideoSourceOptions) {
    this.pid = options.pid;
    this.streamType = options.streamType;
    this.nominalBitrate = options.bitrate;
    this.frameTicks = PTS_HZ / options.frameRate;
    const m = options.bFrames + 1;
    let weights = 0;
    for (let d = 0; d < options.gopLength; d++) weights += d === 0 ? WEIGHT.I : d % m === 0 ? WEIGHT.P : WEIGHT.B;
    const averageFrameBytes = options.bitrate / 8 / options.frameRate;
    this.unitBytes = (averageFrameBytes * options.gopLength) / weights;
  }

  start(context: SourceContext): void {
    this.random = context.random;
    this.decoderDelay90kHz = context.decoderDelay90kHz;
    this.next = 0;
    const prefix = accessUnitPrefix(this.streamType);
    const largest = Math.ceil(this.unitBytes * WEIGHT.I * (1 + JITTER)) + prefix.length + 1;
    this.filler = new Uint8Array(largest).fill(0xff);
    this.filler.set(prefix);
  }

  nextAccessUnits(upToSeconds: number): AccessUnit[] {
    const units: AccessUnit[] = [];
    for (;;) {
      const k = this.next;
      const readySeconds = k / this.options.frameRate;
      if (readySeconds > upToSeconds) return units;
      units.push(this.frame(k, readySeconds));
      this.next = k + 1;
    }
  }

  /** Display index of the frame with decode index `k` (see the class comment). */
  private displayIndex(k: number): number {
    const m = this.options.bFrames + 1;
    if (k === 0 || m === 1) return k;
    const group = Math.floor((k - 1) / m);
    const position = (k - 1) % m;
    return position === 0 ? (group + 1) * m : group * m + position;
  }

  private frame(k: number, readySeconds: number): AccessUnit {
    const { bFrames, gopLength, timestamps } = this.options;
    const m = bFrames + 1;
    const d = this.displayIndex(k);
    const reference = d % m === 0;
    const intra = d % gopLength === 0;
    const weight = intra ? WEIGHT.I : reference ? WEIGHT.P : WEIGHT.B;
    const random = this.random as SeededRandom;
    const size = Math.max(16, Math.round(this.unitBytes * weight * random.between(1 - JITTER, 1 + JITTER)));
    const reorder = bFrames > 0 ? 1 : 0;
    const dts = Math.round(k * this.frameTicks) + this.decoderDelay90kHz;
    const pts = Math.round((d + reorder) * this.frameTicks) + this.decoderDelay90kHz;
    return {
      readySeconds,
      pts90kHz: timestamps ? pts : null,
      dts90kHz: timestamps && dts !== pts ? dts : null,
      payload: this.filler.subarray(0, size),
      randomAccess: intra,
    };
  }
}
