/**
 * The generator's options, their defaults, and the checks that turn bad
 * values into one clear GeneratorError (ERR_GENERATOR_OPTIONS).
 */
import type { ElementaryStreamSource } from './elementary-stream-source.js';
import type { FaultKind } from './fault-injector.js';
import type { FaultSpec } from './fault-spec.js';
import { GeneratorError } from './generator-error.js';
import { resolveKlvStreamOptions, type KlvStreamOptions, type ResolvedKlvStreamOptions } from './klv-stream-options.js';
import { PCR_HZ, PCR_MODULUS } from '../ts/clock.js';

export interface GeneratorOptions {
  /** Seconds of stream; Infinity: endless (chunks() never ends; no KLV faults). */
  durationSeconds: number;
  /** Transport stream bitrate in bits/s, counting 188-byte packets (see cbr-clock.ts). */
  bitrate: number;
  /** 188 (default), 192 (M2TS: 4-byte arrival time stamp first) or 204 (16 trailing parity bytes, zeros). */
  packetSize?: 188 | 192 | 204;
  /** Seed of every random choice (frame sizes); default 1. */
  seed?: number;
  /** Adds an AAC audio stream (default false). */
  audio?: boolean;
  faults?: FaultSpec[];
  /** Fault kinds beyond the built-in ones. */
  faultKinds?: FaultKind[];
  /** Default 1. */
  transportStreamId?: number;
  /** Default 1. */
  programNumber?: number;
  /** Default 0x1000. */
  pmtPid?: number;
  /** Default 0x100 (videoSource's PID when it is given). */
  videoPid?: number;
  /** Default 0x101. */
  audioPid?: number;
  /** The PID whose adaptation fields carry the PCR: the video PID (default) or any elementary stream's. */
  pcrPid?: number;
  /** Upper bound of the time between two PATs; default 100 ms. */
  patIntervalMs?: number;
  /** Upper bound of the time between two PMTs; default 100 ms. */
  pmtIntervalMs?: number;
  /** Upper bound of the time between two PCRs; default 40 ms (TR 101 290 1.5). */
  pcrIntervalMs?: number;
  /** Default 30. */
  videoFrameRate?: number;
  /** Default 0x1B (H.264). */
  videoStreamType?: number;
  /** Average video elementary stream bitrate; default 80 % of what PSI, PCR, audio and extra streams leave. */
  videoBitrate?: number;
  /** Frames from one I-frame to the next, a multiple of bFrames + 1; default about one second of frames. */
  gopLength?: number;
  /**
   * B-frames between reference frames; default 2 (PES of I/P frames then carry
   * PTS and DTS), 0 with a videoSource. With a videoSource it only says whether
   * its frames are reordered (> 0: by one frame), for the KLV stream's PTS.
   */
  bFrames?: number;
  /** false: video PES carry no PTS/DTS at all. Default true. */
  videoPts?: boolean;
  /** Default 128000. */
  audioBitrate?: number;
  /** How long after its arrival a unit is decoded (DTS - PCR at the PES start, at most); default 400 ms. */
  decoderDelayMs?: number;
  /**
   * The 27 MHz system time clock at the first byte of the stream; default
   * one hour (97 200 000 000). Pick a value close to 2^33 * 300 to put the
   * PCR and PTS wrap-around inside the stream.
   */
  initialPcr27MHz?: number;
  /**
   * Adds a MISB ST 0601 KLV metadata stream carried per MISB ST 1402 (see
   * klv-stream-options.ts; `{}` gives synchronous carriage at 30 Hz on PID
   * 0x102) and enables the `klv-*` fault kinds. It is the first extra stream.
   */
  klv?: KlvStreamOptions;
  /**
   * The video stream in place of the synthetic one (e.g. H264ClipSource, a
   * real clip in a loop): its PID, stream_type, units and timing are used;
   * videoFrameRate must be its frame rate, and videoStreamType, videoBitrate
   * and gopLength do not apply.
   */
  videoSource?: ElementaryStreamSource;
  /** More elementary streams (e.g. KLV metadata), after audio and before video in priority. */
  extraStreams?: ElementaryStreamSource[];
  /** Bytes per chunk yielded by `chunks()`, rounded down to whole packets; default 1 MiB. */
  chunkBytes?: number;
}

export type ResolvedGeneratorOptions = Required<Omit<GeneratorOptions, 'videoBitrate' | 'gopLength' | 'klv' | 'videoSource'>> & {
  videoSource: ElementaryStreamSource | null;
  videoBitrate: number | null;
  gopLength: number;
  klv: ResolvedKlvStreamOptions | null;
};

export const DEFAULT_INITIAL_PCR_27MHZ = 3600 * PCR_HZ;

function fail(message: string): never {
  throw new GeneratorError('ERR_GENERATOR_OPTIONS', message);
}

function check(condition: boolean, message: string): void {
  if (!condition) fail(message);
}

/** The options with every default filled in, checked. */
export function resolveGeneratorOptions(options: GeneratorOptions): ResolvedGeneratorOptions {
  const frameRate = options.videoFrameRate ?? 30;
  const videoSource = options.videoSource ?? null;
  const bFrames = options.bFrames ?? (videoSource ? 0 : 2);
  const m = bFrames + 1;
  const videoPid = videoSource?.pid ?? options.videoPid ?? 0x100;
  const resolved: ResolvedGeneratorOptions = {
    durationSeconds: options.durationSeconds,
    bitrate: options.bitrate,
    packetSize: options.packetSize ?? 188,
    seed: options.seed ?? 1,
    audio: options.audio ?? false,
    faults: options.faults ?? [],
    faultKinds: options.faultKinds ?? [],
    transportStreamId: options.transportStreamId ?? 1,
    programNumber: options.programNumber ?? 1,
    pmtPid: options.pmtPid ?? 0x1000,
    videoPid,
    audioPid: options.audioPid ?? 0x101,
    pcrPid: options.pcrPid ?? videoPid,
    patIntervalMs: options.patIntervalMs ?? 100,
    pmtIntervalMs: options.pmtIntervalMs ?? 100,
    pcrIntervalMs: options.pcrIntervalMs ?? 40,
    videoFrameRate: frameRate,
    videoStreamType: videoSource?.streamType ?? options.videoStreamType ?? 0x1b,
    videoBitrate: options.videoBitrate ?? null,
    gopLength: options.gopLength ?? m * Math.max(1, Math.round(frameRate / m)),
    bFrames,
    videoPts: options.videoPts ?? true,
    audioBitrate: options.audioBitrate ?? 128_000,
    decoderDelayMs: options.decoderDelayMs ?? 400,
    initialPcr27MHz: options.initialPcr27MHz ?? DEFAULT_INITIAL_PCR_27MHZ,
    klv: options.klv ? resolveKlvStreamOptions(options.klv) : null,
    videoSource,
    extraStreams: options.extraStreams ?? [],
    chunkBytes: options.chunkBytes ?? 1 << 20,
  };
  const r = resolved;
  if (videoSource && options.videoPid !== undefined) check(options.videoPid === videoSource.pid, `videoPid 0x${options.videoPid.toString(16)} is not videoSource's PID 0x${videoSource.pid.toString(16)}`);
  check(r.durationSeconds > 0, `durationSeconds must be a positive number or Infinity, got ${r.durationSeconds}`);
  check(Number.isFinite(r.bitrate) && r.bitrate >= 100_000 && r.bitrate <= 1e10, `bitrate must be between 100000 and 1e10 bits/s, got ${r.bitrate}`);
  check([188, 192, 204].includes(r.packetSize), `packetSize must be 188, 192 or 204, got ${r.packetSize}`);
  check(Number.isInteger(r.seed), `seed must be an integer, got ${r.seed}`);
  check(Number.isInteger(r.transportStreamId) && r.transportStreamId >= 0 && r.transportStreamId <= 0xffff, `transportStreamId must be 0..65535, got ${r.transportStreamId}`);
  check(Number.isInteger(r.programNumber) && r.programNumber >= 1 && r.programNumber <= 0xffff, `programNumber must be 1..65535, got ${r.programNumber}`);
  const pids: [string, number][] = [['pmtPid', r.pmtPid], ['videoPid', r.videoPid]];
  if (r.audio) pids.push(['audioPid', r.audioPid]);
  if (r.klv) pids.push(['klv.pid', r.klv.pid]);
  r.extraStreams.forEach((s, i) => pids.push([`extraStreams[${i}].pid`, s.pid]));
  for (const [name, pid] of pids) {
    // ISO 13818-1 Table 2-3: 0x0000-0x000F are reserved, 0x1FFF is the null packet.
    check(Number.isInteger(pid) && pid >= 0x10 && pid <= 0x1ffe, `${name} must be 0x10..0x1FFE, got ${pid}`);
  }
  const seen = new Map<number, string>();
  for (const [name, pid] of pids) {
    const other = seen.get(pid);
    check(other === undefined, `${name} and ${other} are both 0x${pid.toString(16)}`);
    seen.set(pid, name);
  }
  check(
    pids.some(([name, pid]) => name !== 'pmtPid' && pid === r.pcrPid),
    `pcrPid 0x${r.pcrPid.toString(16)} is not the PID of an elementary stream`,
  );
  for (const [name, ms] of [['patIntervalMs', r.patIntervalMs], ['pmtIntervalMs', r.pmtIntervalMs], ['pcrIntervalMs', r.pcrIntervalMs]] as const) {
    check(Number.isFinite(ms) && ms > 0, `${name} must be positive, got ${ms}`);
  }
  check(Number.isFinite(r.videoFrameRate) && r.videoFrameRate > 0 && r.videoFrameRate <= 300, `videoFrameRate must be in (0, 300], got ${r.videoFrameRate}`);
  check(Number.isInteger(r.videoStreamType) && r.videoStreamType >= 0 && r.videoStreamType <= 0xff, `videoStreamType must be a byte, got ${r.videoStreamType}`);
  check(Number.isInteger(r.gopLength) && r.gopLength >= 1, `gopLength must be a positive integer, got ${r.gopLength}`);
  check(Number.isInteger(r.bFrames) && r.bFrames >= 0 && r.bFrames < r.gopLength, `bFrames must be an integer in [0, gopLength), got ${r.bFrames}`);
  // Each GOP starts on a reference frame, so the I-frame is never in a B-frame's place.
  check(r.gopLength % (r.bFrames + 1) === 0, `gopLength ${r.gopLength} must be a multiple of bFrames + 1 (${r.bFrames + 1})`);
  check(Number.isFinite(r.audioBitrate) && r.audioBitrate >= 8000 && r.audioBitrate <= 1_000_000, `audioBitrate must be 8000..1000000, got ${r.audioBitrate}`);
  check(Number.isFinite(r.decoderDelayMs) && r.decoderDelayMs >= 0 && r.decoderDelayMs <= 10_000, `decoderDelayMs must be 0..10000, got ${r.decoderDelayMs}`);
  check(
    Number.isInteger(r.initialPcr27MHz) && r.initialPcr27MHz >= 0 && r.initialPcr27MHz < PCR_MODULUS,
    `initialPcr27MHz must be an integer in [0, 2^33 * 300), got ${r.initialPcr27MHz}`,
  );
  check(Number.isInteger(r.chunkBytes) && r.chunkBytes >= 2 * r.packetSize, `chunkBytes must hold at least two packets, got ${r.chunkBytes}`);
  if (r.videoBitrate !== null) check(Number.isFinite(r.videoBitrate) && r.videoBitrate > 0, `videoBitrate must be positive, got ${r.videoBitrate}`);
  return resolved;
}

/** The video must fit the room the other streams leave on the link, and that room must be worth a video stream. */
export function checkVideoBitrate(videoBitrate: number, room: number): void {
  if (room < 10_000) {
    fail(`bitrate too low: PSI, PCR, audio and extra streams leave about ${Math.max(0, Math.round(room))} bits/s for video (at least 10000 needed)`);
  }
  if (videoBitrate > room) fail(`videoBitrate ${Math.round(videoBitrate)} does not fit: the stream leaves about ${Math.round(room)} bits/s for video`);
}
