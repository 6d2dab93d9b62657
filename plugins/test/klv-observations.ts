/**
 * Hand-made KLV observations for unit tests: ST 0601 packets (or any
 * triplet) go through the engine's own observer (`observeKlvPacket`), so
 * the klv-packet, metadata-packet, klv-field and klv-error observations are
 * exactly what the demuxer would make; the test chooses their position, PTS
 * and stream time.
 */
import {
  encodeBerOid,
  encodeSt0601,
  klvErrorObservation,
  observeKlvPacket,
  runObservations,
  st0601Checksum,
  universalKey,
  type AnyCheck,
  type CheckResult,
  type KlvErrorType,
  type Observation,
  type Point,
} from '@klvscope/core';

export const KLV_PID = 0x102;
/** 2026-01-01T00:00:00Z in µs. */
export const T0_MICROS = Date.UTC(2026, 0, 1) * 1000;

export interface HandMadeKlvPacket {
  /** Default KLV_PID. */
  pid?: number;
  packetIndex: number;
  /** Stream time in s; default packetIndex / 1000 (one TS packet per ms). */
  t?: number | null;
  pts90kHz?: number | null;
  /** ST 0601 item 2 in µs; null leaves item 2 out. Ignored when `bytes` is given. */
  timestampMicros?: number | null;
  /** Further ST 0601 items (item 65 = 17 is added unless given). */
  items?: Array<{ tag: number; value: unknown }>;
  /** A whole KLV triplet instead of an ST 0601 packet. */
  bytes?: Uint8Array;
  carriage?: 'sync' | 'async' | 'raw';
}

/** An ST 0601 packet with item 2 (when not null), item 65 and the checksum. */
export function st0601Bytes(timestampMicros: number | null, items: Array<{ tag: number; value: unknown }> = []): Uint8Array {
  const all = [...(timestampMicros === null ? [] : [{ tag: 2, value: timestampMicros }]), ...items];
  if (!all.some((i) => i.tag === 65)) all.push({ tag: 65, value: 17 });
  return encodeSt0601(all);
}

/**
 * An ST 0601 packet built byte by byte from raw items (tag, value bytes), so
 * a test can repeat a tag or use one the encoder refuses; the checksum is
 * right unless `checksum` is given.
 */
export function rawSt0601Bytes(items: Array<[number, Uint8Array]>, checksum?: number): Uint8Array {
  const body: number[] = [];
  for (const [tag, value] of items) {
    if (value.length > 127) throw new Error('rawSt0601Bytes writes short-form lengths only');
    body.push(...encodeBerOid(tag), value.length, ...value);
  }
  body.push(1, 2, 0, 0);
  if (body.length > 127) throw new Error('rawSt0601Bytes writes short-form lengths only');
  const bytes = Uint8Array.from([...universalKey('st0601-uas-datalink-ls').bytes, body.length, ...body]);
  const sum = checksum ?? st0601Checksum(bytes, 0, bytes.length - 2);
  bytes[bytes.length - 2] = sum >> 8;
  bytes[bytes.length - 1] = sum & 0xff;
  return bytes;
}

/** Item 2's eight bytes. */
export function timestampItem(micros: number): [number, Uint8Array] {
  const value = new Uint8Array(8);
  new DataView(value.buffer).setBigUint64(0, BigInt(micros));
  return [2, value];
}

/** The observations the engine makes of these packets, in order, positioned as given. */
export function handMadeKlv(packets: readonly HandMadeKlvPacket[]): Observation[] {
  const out: Observation[] = [];
  const klvIndex = new Map<number, number>();
  for (const p of packets) {
    const pid = p.pid ?? KLV_PID;
    const bytes = p.bytes ?? st0601Bytes(p.timestampMicros === undefined ? T0_MICROS : p.timestampMicros, p.items);
    const index = klvIndex.get(pid) ?? 0;
    klvIndex.set(pid, index + 1);
    const t = p.t === undefined ? p.packetIndex / 1000 : p.t;
    observeKlvPacket(
      bytes,
      0,
      bytes.length,
      { pid, klvIndex: index, carriage: p.carriage ?? 'sync', origin: { offset: p.packetIndex * 188, packetIndex: p.packetIndex, pts90kHz: p.pts90kHz ?? null } },
      (o) => out.push({ ...o, t }),
    );
  }
  return out;
}

/** A klv-error observation made by hand (for problems no packet can produce here, such as a framing error). */
export function handMadeKlvError(type: KlvErrorType, packetIndex: number, message: string, details?: Record<string, number>, pid = KLV_PID): Observation {
  return { ...klvErrorObservation(pid, null, { offset: packetIndex * 188, packetIndex, pts90kHz: null }, type, null, message, details), t: packetIndex / 1000 };
}

export interface RegularKlvOptions {
  rateHz?: number;
  /** Default true. */
  pts?: boolean;
  pid?: number;
  /** Moves packet k's item 2 alone, µs. */
  shiftMicros?: (k: number) => number;
  /** Moves packet k as a whole (stream time, PTS and item 2), ms. */
  jitterMs?: (k: number) => number;
  /** Leaves packet k out. */
  drop?: (k: number) => boolean;
}

/**
 * ST 0601 packets at `rateHz` from packet 0: packet k at TS packet k * 100,
 * stream time k / rateHz, PTS k / rateHz (when `pts`), item 2 = T0 + k / rateHz
 * (plus `shiftMicros(k)`); `jitterMs(k)` moves all three.
 */
export function regularKlv(count: number, options: RegularKlvOptions = {}): HandMadeKlvPacket[] {
  const rateHz = options.rateHz ?? 30;
  const packets: HandMadeKlvPacket[] = [];
  for (let k = 0; k < count; k++) {
    if (options.drop?.(k)) continue;
    const seconds = k / rateHz + (options.jitterMs?.(k) ?? 0) / 1000;
    packets.push({
      pid: options.pid,
      packetIndex: k * 100,
      t: seconds,
      pts90kHz: options.pts === false ? null : Math.round(seconds * 90_000),
      timestampMicros: T0_MICROS + Math.round(seconds * 1e6) + (options.shiftMicros?.(k) ?? 0),
    });
  }
  return packets;
}

export interface ObservationRun {
  result: CheckResult;
  violations: Point[];
}

/** Runs one check over hand-made observations (every point kept). */
export async function runOnObservations(check: AnyCheck, observations: Iterable<Observation>, rules?: unknown): Promise<ObservationRun> {
  const session = await runObservations(observations, {
    checks: [check],
    rules: rules === undefined ? {} : { [check.id]: rules },
    maxPointsPerCheck: Number.MAX_SAFE_INTEGER,
  });
  const [result] = session.checks;
  if (result.error) throw new Error(`check ${check.id} failed in ${result.error.hook}: ${String(result.error.cause)}`);
  return { result, violations: result.points.filter((p) => p.violation) };
}

/** A KLV triplet: a registered key (by name) or any 16 bytes, a short BER length and the value. */
export function tripletBytes(key: Parameters<typeof universalKey>[0] | Uint8Array, value: Uint8Array = new Uint8Array(0)): Uint8Array {
  const keyBytes = key instanceof Uint8Array ? key : universalKey(key).bytes;
  if (value.length > 127) throw new Error('tripletBytes writes short-form lengths only');
  return Uint8Array.from([...keyBytes, value.length, ...value]);
}

/** An unregistered key: the ST 0601 key with byte 12 changed to 0x7F. */
export const UNREGISTERED_KEY = Uint8Array.from([0x06, 0x0e, 0x2b, 0x34, 0x02, 0x0b, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x01, 0x7f, 0x00, 0x00, 0x00]);
