/**
 * From one framed KLV triplet to observations: the raw `klv-packet`, and by
 * its key the decoded `metadata-packet` with one `klv-field` per top-level
 * item (ST 0601, ST 0903, EG 0104; unless the run reads none), plus a
 * `klv-error` for every problem.
 */
import type {
  KlvErrorObservation,
  KlvErrorType,
  KlvItem,
  KlvPacketObservation,
  MetadataPacketObservation,
  Observation,
} from '../kernel/observations.js';
import type { KlvProblem } from './decoded-item.js';
import { decodeEg0104Packet } from './eg0104-packet.js';
import { KLV_ERROR_CATALOG } from './klv-error-catalog.js';
import type { KlvOrigin } from './klv-reassembler.js';
import { decodeSt0601 } from './st0601-packet.js';
import { decodeSt0903Packet } from './st0903-vmti-packet.js';
import { keyToHex, lookupUniversalKey } from './universal-key.js';

export interface KlvPacketContext {
  pid: number;
  klvIndex: number;
  carriage: 'sync' | 'async' | 'raw';
  origin: KlvOrigin;
  /** Make a `klv-field` per decoded item (default true): see DemuxerFactoryOptions. */
  klvFields?: boolean;
}

const KLV_PROBLEM_TYPES: Readonly<Record<KlvProblem['type'], KlvErrorType>> = {
  'raw-decode-error': 'klv-raw-decode-error',
  'unknown-key': 'klv-unknown-key',
  'checksum-error': 'klv-checksum-error',
  'unknown-tag': 'klv-unknown-tag',
  'duplicate-tag': 'klv-duplicate-tag',
  'missing-mandatory': 'klv-missing-mandatory',
  'bad-item-length': 'klv-bad-item-length',
};

/** A `klv-error` observation at the packet's position. */
export function klvErrorObservation(
  pid: number,
  klvIndex: number | null,
  origin: KlvOrigin,
  type: KlvErrorType,
  tag: number | null,
  message: string,
  details?: KlvErrorObservation['details'],
  severity = KLV_ERROR_CATALOG[type].severity,
): KlvErrorObservation {
  const observation: KlvErrorObservation = {
    kind: 'klv-error',
    pid,
    klvIndex,
    type,
    severity,
    tag,
    message,
    citation: KLV_ERROR_CATALOG[type].citation,
    offset: origin.offset,
    packetIndex: origin.packetIndex,
    t: null,
  };
  if (details) observation.details = details;
  return observation;
}

/** The key as hex: the registry's text when the received key is exactly the registered one (the common case). */
function keyHexOf(bytes: Uint8Array, start: number, match: ReturnType<typeof lookupUniversalKey>): string {
  if (match && bytes[start + 7] === match.entry.bytes[7]) return match.entry.keyHex;
  return keyToHex(bytes, start);
}

function metadataOf(ctx: KlvPacketContext, standard: string, keyName: string, items: KlvItem[]): MetadataPacketObservation {
  return {
    kind: 'metadata-packet',
    pid: ctx.pid,
    klvIndex: ctx.klvIndex,
    standard,
    keyName,
    version: null,
    timestampMicros: null,
    checksum: null,
    pts90kHz: ctx.origin.pts90kHz,
    items,
    offset: ctx.origin.offset,
    packetIndex: ctx.origin.packetIndex,
    t: null,
  };
}

function emitProblems(ctx: KlvPacketContext, start: number, list: readonly KlvProblem[], skip: KlvProblem['type'] | null, emit: (o: Observation) => void): void {
  for (const p of list) {
    if (p.type === skip) continue;
    emit(klvErrorObservation(ctx.pid, ctx.klvIndex, ctx.origin, KLV_PROBLEM_TYPES[p.type], p.tag, p.message, { byteOffset: ctx.origin.offset + (p.byteOffset - start) }));
  }
}

/**
 * Each metadata packet this observer decoded, with the klv-packet observation
 * of its triplet: a store may keep the triplet's bytes only and decode the
 * items again (metadataItemsOfTriplet), knowing they are what was emitted.
 */
const TRIPLET_OF = new WeakMap<MetadataPacketObservation, KlvPacketObservation>();

/** The klv-packet observation whose triplet this observer decoded into `packet`, if it did. */
export function tripletOf(packet: MetadataPacketObservation): KlvPacketObservation | undefined {
  return TRIPLET_OF.get(packet);
}

/**
 * The items of the metadata packet of key `keyName` that observeKlvPacket
 * decodes from `raw` (a whole triplet), or null when it decodes none from
 * that key. The same decoders, so the same items.
 */
export function metadataItemsOfTriplet(raw: Uint8Array, keyName: string): KlvItem[] | null {
  switch (keyName) {
    case 'st0601-uas-datalink-ls':
      return decodeSt0601(raw, 0, raw.length).items;
    case 'st0903-vmti-ls':
      return decodeSt0903Packet(raw, 0, raw.length).items;
    case 'eg0104-predator-uav-basic-us':
      return decodeEg0104Packet(raw, 0, raw.length).items;
    default:
      return null;
  }
}

/** Emits the observations of the triplet in `bytes[start, end)`. */
export function observeKlvPacket(bytes: Uint8Array, start: number, end: number, ctx: KlvPacketContext, emit: (o: Observation) => void): void {
  const { pid, klvIndex, origin } = ctx;
  const match = lookupUniversalKey(bytes, start);
  const keyHex = keyHexOf(bytes, start, match);
  const name = match?.entry.name;
  const triplet: KlvPacketObservation = {
    kind: 'klv-packet',
    pid,
    klvIndex,
    carriage: ctx.carriage,
    keyHex,
    keyName: name ?? null,
    length: end - start - 16 - berSize(bytes[start + 16]),
    raw: bytes.slice(start, end),
    pts90kHz: origin.pts90kHz,
    offset: origin.offset,
    packetIndex: origin.packetIndex,
    t: null,
  };
  emit(triplet);

  if (name === 'st0601-uas-datalink-ls') {
    const packet = decodeSt0601(bytes, start, end);
    const m = metadataOf(ctx, 'MISB ST 0601', name, packet.items);
    m.version = packet.version;
    m.timestampMicros = packet.precisionTimeStamp;
    m.checksum = packet.checksum;
    TRIPLET_OF.set(m, triplet);
    emitMetadata(m, ctx, emit);
    emitProblems(ctx, start, packet.problems, null, emit);
    return;
  }
  if (name === 'st0903-vmti-ls') {
    const packet = decodeSt0903Packet(bytes, start, end);
    const m = metadataOf(ctx, 'MISB ST 0903', name, packet.items);
    m.version = numberItem(packet.items, 4);
    m.timestampMicros = numberItem(packet.items, 2);
    m.checksum = packet.checksum ? { present: true, ...packet.checksum } : null;
    TRIPLET_OF.set(m, triplet);
    emitMetadata(m, ctx, emit);
    emitProblems(ctx, start, packet.problems, 'unknown-key', emit);
    return;
  }
  if (name === 'eg0104-predator-uav-basic-us') {
    const packet = decodeEg0104Packet(bytes, start, end);
    const m = metadataOf(ctx, 'MISB EG 0104', name, packet.items);
    m.timestampMicros = packet.timeStampMicros;
    TRIPLET_OF.set(m, triplet);
    emitMetadata(m, ctx, emit);
    // A legacy universal set that real recordings still carry: recognised and decoded, noted once per packet as not ST 0601.
    emit(klvErrorObservation(pid, klvIndex, origin, 'klv-legacy-set', null, 'legacy EG 0104 Predator UAV Basic Universal Set, not the ST 0601 UAS Datalink LS', { keyHex, keyName: name }));
    emitProblems(ctx, start, packet.problems, 'unknown-key', emit);
    return;
  }
  if (match) {
    emit(klvErrorObservation(pid, klvIndex, origin, 'klv-undecoded-set', null, `${match.entry.standard} ${match.entry.title}: not an ST 0601 packet, not decoded`, { keyHex, keyName: match.entry.name }));
    return;
  }
  emit(klvErrorObservation(pid, klvIndex, origin, 'klv-unknown-key', null, `unknown universal key ${keyHex}`, { keyHex }));
}

function emitMetadata(m: MetadataPacketObservation, ctx: KlvPacketContext, emit: (o: Observation) => void): void {
  emit(m);
  if (ctx.klvFields === false) return;
  for (const item of m.items) emit(fieldOf(m, item));
}

function fieldOf(m: MetadataPacketObservation, item: KlvItem): Observation {
  return {
    kind: 'klv-field',
    pid: m.pid,
    klvIndex: m.klvIndex,
    tag: item.tag,
    name: item.name,
    rawHex: item.rawHex,
    value: item.value,
    units: item.units,
    offset: m.offset,
    packetIndex: m.packetIndex,
    t: null,
  };
}

function numberItem(items: readonly KlvItem[], tag: number): number | null {
  const value = items.find((i) => i.tag === tag)?.value;
  return typeof value === 'number' ? value : null;
}

/** Bytes of a BER length field from its first byte (SMPTE 336 / X.690 8.1.3). */
function berSize(first: number): number {
  return first < 0x80 ? 1 : 1 + (first & 0x7f);
}
