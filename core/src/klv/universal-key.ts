/**
 * Registry of the 16-byte SMPTE universal label keys (SMPTE ST 336 section 4,
 * SMPTE ST 298) that MISB metadata is keyed with in the field.
 *
 * Version byte: byte index 7 of a UL is the "version" of the SMPTE registry
 * the label was first published in (SMPTE ST 298 5.2, ST 336 4). SMPTE asks
 * decoders to ignore it when comparing labels, and encoders in the field do
 * emit 0x01 through 0x0E there. So matching ignores byte 7; the matched entry
 * and the received version byte are both returned, and a caller that wants to
 * flag an unusual version can compare them.
 */
import { bytesToHex } from './hex.js';

/** Byte index of the UL version byte (SMPTE ST 298), ignored by {@link lookupUniversalKey}. */
export const UL_VERSION_BYTE_INDEX = 7;

/** SMPTE ST 298 5.1: every SMPTE universal label starts with the ISO/SMPTE object identifier 06 0E 2B 34. */
export const UL_PREFIX: readonly number[] = [0x06, 0x0e, 0x2b, 0x34];

export type UniversalKeyName =
  | 'st0601-uas-datalink-ls'
  | 'st0102-security-ls'
  | 'st0102-security-us'
  | 'st0806-rvt-ls'
  | 'st0808-ancillary-text-ls'
  | 'st0809-meteorological-ls'
  | 'st0903-vmti-ls'
  | 'st0903-vtrack-ls'
  | 'st1002-range-image-ls'
  | 'st1107-metric-geopositioning-ls'
  | 'st1108-interpretability-quality-ls'
  | 'st1202-generalized-transformation-ls'
  | 'st1206-sar-motion-imagery-ls'
  | 'st1507-sensor-timing-ls'
  | 'st1601-geo-registration-ls'
  | 'st1602-composite-imaging-ls'
  | 'eg0104-predator-uav-basic-us';

export interface UniversalKeyEntry {
  readonly name: UniversalKeyName;
  /** The document that defines the key, e.g. "MISB ST 0601". */
  readonly standard: string;
  readonly title: string;
  /** How the set under this key is encoded. */
  readonly setKind: 'local-set' | 'universal-set';
  /** The key as published, lower-case hex. */
  readonly keyHex: string;
  /** True for keys of retired documents (EG 0104 was withdrawn in favour of ST 0601). */
  readonly legacy: boolean;
  readonly bytes: Uint8Array;
}

function entry(
  name: UniversalKeyName,
  standard: string,
  title: string,
  setKind: 'local-set' | 'universal-set',
  keyHex: string,
  legacy = false,
): UniversalKeyEntry {
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(keyHex.slice(2 * i, 2 * i + 2), 16);
  return { name, standard, title, setKind, keyHex, legacy, bytes };
}

/**
 * Known keys. Sources: the "Local Set Key" / "Universal Key" sections of each
 * document (ST 0601.17 6.2, ST 0102.12 6, ST 0903.6 7, ST 1601.1 6.2, ST
 * 1108.3 6, EG 0104.5 Table 1), cross-checked against jmisb and KWIVER.
 */
export const UNIVERSAL_KEYS: readonly UniversalKeyEntry[] = [
  entry('st0601-uas-datalink-ls', 'MISB ST 0601', 'UAS Datalink Local Set', 'local-set', '060e2b34020b01010e01030101000000'),
  entry('st0102-security-ls', 'MISB ST 0102', 'Security Metadata Local Set', 'local-set', '060e2b34020301010e01030302000000'),
  entry('st0102-security-us', 'MISB ST 0102', 'Security Metadata Universal Set', 'universal-set', '060e2b34020101010208020000000000'),
  entry('st0806-rvt-ls', 'MISB ST 0806', 'Remote Video Terminal Local Set', 'local-set', '060e2b34020b01010e01030102000000'),
  entry('st0808-ancillary-text-ls', 'MISB ST 0808', 'Ancillary Text Local Set', 'local-set', '060e2b34020301010e01030502000000'),
  entry('st0809-meteorological-ls', 'MISB ST 0809', 'Meteorological Metadata Local Set', 'local-set', '060e2b34022b01010e0103010e000000'),
  entry('st0903-vmti-ls', 'MISB ST 0903', 'Video Moving Target Indicator Local Set', 'local-set', '060e2b34020b01010e01030306000000'),
  entry('st0903-vtrack-ls', 'MISB ST 0903', 'VTrack Local Set', 'local-set', '060e2b34020301010e0103031e000000'),
  entry('st1002-range-image-ls', 'MISB ST 1002', 'Range Image Local Set', 'local-set', '060e2b34020b01010e0103030c000000'),
  entry('st1107-metric-geopositioning-ls', 'MISB ST 1107', 'Metric Geopositioning Local Set', 'local-set', '060e2b34020b01010e01030322000000'),
  entry('st1108-interpretability-quality-ls', 'MISB ST 1108', 'Motion Imagery Interpretability and Quality Local Set', 'local-set', '060e2b34020301010e0103031c000000'),
  entry('st1202-generalized-transformation-ls', 'MISB ST 1202', 'Generalized Transformation Local Set', 'local-set', '060e2b34020b01010e01030505000000'),
  entry('st1206-sar-motion-imagery-ls', 'MISB ST 1206', 'SAR Motion Imagery Local Set', 'local-set', '060e2b34020b01010e0103030d000000'),
  entry('st1507-sensor-timing-ls', 'MISB ST 1507', 'Sensor Timing Local Set', 'local-set', '060e2b34020b01010e01030201000000'),
  entry('st1601-geo-registration-ls', 'MISB ST 1601', 'Geo-Registration Local Set', 'local-set', '060e2b34020b01010e01030301000000'),
  entry('st1602-composite-imaging-ls', 'MISB ST 1602', 'Composite Imaging Local Set', 'local-set', '060e2b34020b01010e01030302000000'),
  entry('eg0104-predator-uav-basic-us', 'MISB EG 0104', 'Predator UAV Basic Universal Set', 'universal-set', '060e2b34020101010e01010201010000', true),
];

export interface UniversalKeyMatch {
  readonly entry: UniversalKeyEntry;
  /** The version byte as received (byte index 7), which matching ignored. */
  readonly versionByte: number;
}

/**
 * The registry entry whose key equals the 16 bytes at `offset`, ignoring the
 * version byte; null when no entry matches or fewer than 16 bytes remain.
 * Compares bytes in place: no allocation on the hot path.
 */
export function lookupUniversalKey(bytes: Uint8Array, offset: number): UniversalKeyMatch | null {
  if (offset < 0 || offset + 16 > bytes.length) return null;
  if (bytes[offset] !== 0x06 || bytes[offset + 1] !== 0x0e || bytes[offset + 2] !== 0x2b || bytes[offset + 3] !== 0x34) return null;
  for (const candidate of UNIVERSAL_KEYS) {
    const key = candidate.bytes;
    let same = true;
    for (let i = 4; i < 16; i++) {
      if (i !== UL_VERSION_BYTE_INDEX && key[i] !== bytes[offset + i]) {
        same = false;
        break;
      }
    }
    if (same) return { entry: candidate, versionByte: bytes[offset + UL_VERSION_BYTE_INDEX] };
  }
  return null;
}

/** True when the 16 bytes at `offset` are the ST 0601 UAS Datalink LS key (version byte ignored). */
export function isSt0601Key(bytes: Uint8Array, offset: number): boolean {
  return lookupUniversalKey(bytes, offset)?.entry.name === 'st0601-uas-datalink-ls';
}

/** The 16 key bytes at `offset` as lower-case hex (shorter when the buffer ends first). */
export function keyToHex(bytes: Uint8Array, offset = 0): string {
  return bytesToHex(bytes, offset, Math.min(offset + 16, bytes.length));
}

/** A registry entry by name. */
export function universalKey(name: UniversalKeyName): UniversalKeyEntry {
  const found = UNIVERSAL_KEYS.find((k) => k.name === name);
  if (!found) throw new RangeError(`unknown universal key ${name}`);
  return found;
}
