/**
 * The options of the generator's KLV metadata stream (MISB ST 0601 carried
 * per MISB ST 1402), their defaults, and the checks that turn bad values
 * into one clear GeneratorError (ERR_GENERATOR_OPTIONS).
 */
import { GeneratorError } from './generator-error.js';

/** MISB ST 1402 carriage: synchronous (metadata AU cells, ISO 13818-1 2.12.4) or asynchronous (KLV bytes in PES). */
export type KlvCarriage = 'sync' | 'async';

export interface KlvStreamOptions {
  /** Default 'sync'. */
  carriage?: KlvCarriage;
  /** ST 0601 packets per second; default 30 (one per video frame at the default frame rate). */
  rateHz?: number;
  /** Default 0x102 (0x101 is the audio PID's default). */
  pid?: number;
  /** Asynchronous carriage only: 0xBD (private_stream_1, the default) or 0xFC (metadata stream). Synchronous uses 0xFC. */
  streamId?: number;
  /** Whether the PES carry a PTS. Synchronous carriage always does; asynchronous default false. */
  pts?: boolean;
  /** ST 0601 item 65; default 17. */
  st0601Version?: number;
  /** Item 2 of the first packet, µs since 1970-01-01T00:00:00Z; default 2026-01-01T00:00:00Z. */
  startTimeMicros?: number;
  /** Item 3; default 'KLVSCOPE-SYN-01'. */
  missionId?: string;
  /** Seed of the flight path; default: derived from the generator's seed. */
  seed?: number;
}

/** Every option but the seed has its value; a resolved set is a valid KlvStreamOptions again. */
export type ResolvedKlvStreamOptions = Required<Omit<KlvStreamOptions, 'seed'>> & Pick<KlvStreamOptions, 'seed'>;

export const DEFAULT_KLV_PID = 0x102;
export const DEFAULT_KLV_RATE_HZ = 30;
export const DEFAULT_ST0601_VERSION = 17;
/** 2026-01-01T00:00:00Z in µs: a fixed start, so the same options give the same bytes. */
export const DEFAULT_KLV_START_TIME_MICROS = Date.UTC(2026, 0, 1) * 1000;
export const DEFAULT_MISSION_ID = 'KLVSCOPE-SYN-01';

/** ISO 13818-1 Table 2-22: private_stream_1 and metadata stream. */
export const PRIVATE_STREAM_1 = 0xbd;
export const METADATA_STREAM_ID = 0xfc;

function check(condition: boolean, message: string): void {
  if (!condition) throw new GeneratorError('ERR_GENERATOR_OPTIONS', `klv.${message}`);
}

/** The options with every default filled in, checked. */
export function resolveKlvStreamOptions(options: KlvStreamOptions): ResolvedKlvStreamOptions {
  const carriage = options.carriage ?? 'sync';
  const r: ResolvedKlvStreamOptions = {
    carriage,
    rateHz: options.rateHz ?? DEFAULT_KLV_RATE_HZ,
    pid: options.pid ?? DEFAULT_KLV_PID,
    streamId: options.streamId ?? (carriage === 'sync' ? METADATA_STREAM_ID : PRIVATE_STREAM_1),
    pts: options.pts ?? carriage === 'sync',
    st0601Version: options.st0601Version ?? DEFAULT_ST0601_VERSION,
    startTimeMicros: options.startTimeMicros ?? DEFAULT_KLV_START_TIME_MICROS,
    missionId: options.missionId ?? DEFAULT_MISSION_ID,
  };
  if (options.seed !== undefined) r.seed = options.seed;
  check(r.carriage === 'sync' || r.carriage === 'async', `carriage must be 'sync' or 'async', got ${String(r.carriage)}`);
  check(Number.isFinite(r.rateHz) && r.rateHz > 0 && r.rateHz <= 1000, `rateHz must be in (0, 1000], got ${r.rateHz}`);
  // ISO 13818-1 Table 2-3: 0x0000-0x000F are reserved, 0x1FFF is the null packet.
  check(Number.isInteger(r.pid) && r.pid >= 0x10 && r.pid <= 0x1ffe, `pid must be 0x10..0x1FFE, got ${r.pid}`);
  if (r.carriage === 'sync') {
    // ISO 13818-1 2.12.4: synchronous metadata travels in metadata-stream PES that carry a PTS.
    check(r.streamId === METADATA_STREAM_ID, `streamId must be 0xFC for synchronous carriage, got 0x${r.streamId.toString(16)}`);
    check(r.pts, 'pts cannot be false for synchronous carriage (ISO 13818-1 2.12.4: each metadata AU has a PTS)');
  } else {
    // MISB ST 1402: asynchronous KLV uses private_stream_1 or the metadata stream id.
    check(r.streamId === PRIVATE_STREAM_1 || r.streamId === METADATA_STREAM_ID, `streamId must be 0xBD or 0xFC for asynchronous carriage, got 0x${r.streamId.toString(16)}`);
  }
  check(Number.isInteger(r.st0601Version) && r.st0601Version >= 0 && r.st0601Version <= 255, `st0601Version must be 0..255, got ${r.st0601Version}`);
  check(Number.isSafeInteger(r.startTimeMicros) && r.startTimeMicros >= 0, `startTimeMicros must be a non-negative integer, got ${r.startTimeMicros}`);
  // ST 0601 item 3 is a string of at most 127 bytes.
  check(typeof r.missionId === 'string' && new TextEncoder().encode(r.missionId).length <= 127, 'missionId must be a string of at most 127 bytes');
  if (r.seed !== undefined) check(Number.isInteger(r.seed), `seed must be an integer, got ${r.seed}`);
  return r;
}
