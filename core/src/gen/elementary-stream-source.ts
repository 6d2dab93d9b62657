/**
 * The contract between the multiplexer and an elementary stream. Video and
 * audio are sources like any other, so a new stream (the KLV metadata of
 * MISB ST 1402) plugs in through `GeneratorOptions.extraStreams` without any
 * change to the multiplexer:
 *
 * - synchronous KLV (ISO 13818-1 2.12.4, metadata in PES): streamType 0x15,
 *   streamId 0xFC, `descriptors` = metadataDescriptor() + metadataStdDescriptor(...),
 *   `programDescriptors` = metadataPointerDescriptor({ programNumber }),
 *   each unit with the PTS of the video frame it describes;
 * - asynchronous KLV: streamType 0x06, streamId 0xBD (private_stream_1),
 *   `descriptors` = registrationDescriptor('KLVA'), units with `pts90kHz: null`.
 *
 * The multiplexer owns everything below the access unit: PES header,
 * packetisation, continuity counters, scheduling on the constant-bitrate
 * timeline, PMT entries. The source owns the payload bytes and the timing.
 */
import type { FaultSpec } from './fault-spec.js';
import type { SourceFaultMark } from './packet-info.js';
import type { SeededRandom } from './seeded-random.js';

/** One access unit: it becomes one PES packet. */
export interface AccessUnit {
  /**
   * Stream time (seconds since the first packet) from which the multiplexer
   * may send the unit: when an encoder would have produced it. Units of one
   * source are sent in order, each as soon as the link has room.
   */
  readySeconds: number;
  /**
   * PTS in 90 kHz ticks counted from the stream's first byte (0 = the system
   * time clock at that byte), not wrapped; the multiplexer adds the initial
   * clock and wraps at 2^33. Null: the PES has no PTS.
   */
  pts90kHz: number | null;
  /** DTS likewise; absent or null when equal to the PTS (ISO 13818-1 2.4.3.7: then it is not coded). */
  dts90kHz?: number | null;
  /** The PES payload (the multiplexer copies it and does not keep it). */
  payload: Uint8Array;
  /** Sets random_access_indicator in the packet that starts the PES (ISO 13818-1 2.4.3.5). */
  randomAccess?: boolean;
  /** Set when the source injected one of its faults into this unit; the ground truth then points at the packet that starts the PES. */
  fault?: SourceFaultMark;
}

/** What a source learns about the stream before the first unit. */
export interface SourceContext {
  durationSeconds: number;
  /** Total transport stream bitrate (bits/s). */
  bitrate: number;
  /** How far ahead of its arrival a unit is decoded (the usual PTS - PCR), 90 kHz ticks. */
  decoderDelay90kHz: number;
  /** Video frames per second (for sources that follow the video, e.g. synchronous metadata). */
  videoFrameRate: number;
  programNumber: number;
  /** A deterministic random sequence of the source's own (derived from the seed and the PID). */
  random: SeededRandom;
}

export interface ElementaryStreamSource {
  readonly pid: number;
  /** stream_type in the PMT (ISO 13818-1 Table 2-34). */
  readonly streamType: number;
  /** stream_id of its PES packets (ISO 13818-1 Table 2-22). */
  readonly streamId: number;
  /** The ES_info descriptor loop (whole descriptors back to back). */
  readonly descriptors: Uint8Array;
  /** Descriptors this stream needs in the program_info loop (e.g. metadata_pointer_descriptor). */
  readonly programDescriptors?: Uint8Array;
  /** PES_packet_length 0 ("unbounded"); ISO 13818-1 2.4.3.7 allows it for video only. */
  readonly unboundedPes?: boolean;
  /** data_alignment_indicator: each PES starts with an access unit (default true). */
  readonly dataAligned?: boolean;
  /** The stream's average bitrate in bits/s, so the generator can leave it room. */
  readonly nominalBitrate?: number;
  /** Called at the start of every run, before any unit is asked for: (re)start from the beginning. */
  start(context: SourceContext): void;
  /** The units with `readySeconds <= upToSeconds` not returned yet, in order (often none). */
  nextAccessUnits(upToSeconds: number): AccessUnit[];
  /**
   * Offered every fault spec whose kind the generator does not know. Return
   * true to inject it yourself; mark the unit that carries it with `fault`.
   */
  acceptFault?(spec: FaultSpec): boolean;
}
