/**
 * A synthetic AAC audio elementary stream (stream_type 0x0F): one ADTS frame
 * (ISO 14496-3 1.A.2) of 1024 samples at 48 kHz per PES, so every frame
 * lasts exactly 1920 ticks of 90 kHz; each PES carries a PTS. The frame
 * sizes average the configured bitrate exactly; the audio data is filler.
 */
import type { AccessUnit, ElementaryStreamSource, SourceContext } from './elementary-stream-source.js';

const SAMPLE_RATE = 48_000;
const SAMPLES_PER_FRAME = 1024;
/** ISO 14496-3 Table 1.18: sampling_frequency_index 3 is 48 kHz. */
const SAMPLING_FREQUENCY_INDEX = 3;
const FRAME_TICKS = (SAMPLES_PER_FRAME * 90_000) / SAMPLE_RATE;
const ADTS_HEADER_SIZE = 7;

export interface AudioSourceOptions {
  pid: number;
  /** Bits per second of the ADTS stream. */
  bitrate: number;
}

/** ISO 14496-3 1.A.2.2: an ADTS header for an AAC LC stereo frame of `frameLength` bytes (header included), no CRC. */
function writeAdtsHeader(frame: Uint8Array, frameLength: number): void {
  frame[0] = 0xff; // syncword 0xFFF ...
  frame[1] = 0xf1; // ... ID 0 (MPEG-4), layer 00, protection_absent 1
  frame[2] = (1 << 6) | (SAMPLING_FREQUENCY_INDEX << 2); // profile 1 (AAC LC), private 0, channel_configuration bit 2 = 0
  frame[3] = (2 << 6) | ((frameLength >>> 11) & 0x03); // channel_configuration 2 (low bits), frame_length bits 12-11
  frame[4] = (frameLength >>> 3) & 0xff;
  frame[5] = ((frameLength & 0x07) << 5) | 0x1f; // adts_buffer_fullness 0x7FF (VBR) ...
  frame[6] = 0xfc; // ... and number_of_raw_data_blocks_in_frame 0
}

export class SyntheticAudioSource implements ElementaryStreamSource {
  readonly pid: number;
  readonly streamType = 0x0f;
  readonly streamId = 0xc0;
  readonly descriptors = new Uint8Array(0);
  readonly nominalBitrate: number;
  private readonly bytesPerFrame: number;
  private decoderDelay90kHz = 0;
  private next = 0;

  constructor(options: AudioSourceOptions) {
    this.pid = options.pid;
    this.nominalBitrate = options.bitrate;
    this.bytesPerFrame = (options.bitrate * SAMPLES_PER_FRAME) / SAMPLE_RATE / 8;
  }

  /** Bytes of the largest frame. */
  get maxFrameBytes(): number {
    return Math.ceil(this.bytesPerFrame);
  }

  start(context: SourceContext): void {
    this.decoderDelay90kHz = context.decoderDelay90kHz;
    this.next = 0;
  }

  nextAccessUnits(upToSeconds: number): AccessUnit[] {
    const units: AccessUnit[] = [];
    for (;;) {
      const k = this.next;
      const readySeconds = (k * FRAME_TICKS) / 90_000;
      if (readySeconds > upToSeconds) return units;
      // Whole bytes per frame whose running total follows the bitrate exactly.
      const size = Math.max(ADTS_HEADER_SIZE + 1, Math.floor((k + 1) * this.bytesPerFrame) - Math.floor(k * this.bytesPerFrame));
      const frame = new Uint8Array(size).fill(0x21);
      writeAdtsHeader(frame, size);
      units.push({ readySeconds, pts90kHz: k * FRAME_TICKS + this.decoderDelay90kHz, payload: frame, randomAccess: false });
      this.next = k + 1;
    }
  }
}
