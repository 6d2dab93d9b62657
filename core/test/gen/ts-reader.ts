/**
 * A deliberately small, independent MPEG-TS reader for the generator's
 * tests: it reads headers, adaptation fields, PCRs, PES headers and PSI
 * sections by hand (ISO 13818-1 2.4.3, 2.4.4), so the generator is checked
 * against the standard rather than against the demuxer or itself.
 */
import { crc32Mpeg2 } from '../../src/ts/crc32.js';

export interface ReadPacket {
  index: number;
  /** Offset of the sync byte. */
  offset: number;
  syncByte: number;
  tei: boolean;
  pusi: boolean;
  pid: number;
  scrambling: number;
  afc: number;
  cc: number;
  /** adaptation_field_length, or -1 without adaptation field. */
  afLength: number;
  discontinuity: boolean;
  randomAccess: boolean;
  pcr27MHz: number | null;
  /** Offsets of the payload in the whole stream (empty when start === end). */
  payloadStart: number;
  payloadEnd: number;
}

/** Every packet, at `packetSize` strides, the sync byte `prefix` bytes into each (4 for 192). */
export function readPackets(bytes: Uint8Array, packetSize: number): ReadPacket[] {
  const prefix = packetSize === 192 ? 4 : 0;
  const packets: ReadPacket[] = [];
  for (let start = 0, index = 0; start + packetSize <= bytes.length; start += packetSize, index++) {
    const p = start + prefix;
    const afc = (bytes[p + 3] >> 4) & 3;
    let afLength = -1;
    let discontinuity = false;
    let randomAccess = false;
    let pcr27MHz: number | null = null;
    let payloadStart = p + 4;
    if (afc & 2) {
      afLength = bytes[p + 4];
      payloadStart = p + 5 + afLength;
      if (afLength > 0) {
        const flags = bytes[p + 5];
        discontinuity = (flags & 0x80) !== 0;
        randomAccess = (flags & 0x40) !== 0;
        if (flags & 0x10) pcr27MHz = readPcr(bytes, p + 6);
      }
    }
    packets.push({
      index,
      offset: p,
      syncByte: bytes[p],
      tei: (bytes[p + 1] & 0x80) !== 0,
      pusi: (bytes[p + 1] & 0x40) !== 0,
      pid: ((bytes[p + 1] & 0x1f) << 8) | bytes[p + 2],
      scrambling: bytes[p + 3] >> 6,
      afc,
      cc: bytes[p + 3] & 0x0f,
      afLength,
      discontinuity,
      randomAccess,
      pcr27MHz,
      payloadStart: afc & 1 ? payloadStart : p + 188,
      payloadEnd: p + 188,
    });
  }
  return packets;
}

/** ISO 13818-1 2.4.3.5: base (33 bits) * 300 + extension (9 bits). */
export function readPcr(b: Uint8Array, p: number): number {
  const base = b[p] * 2 ** 25 + b[p + 1] * 2 ** 17 + b[p + 2] * 2 ** 9 + b[p + 3] * 2 + (b[p + 4] >> 7);
  return base * 300 + (b[p + 4] & 1) * 256 + b[p + 5];
}

/** ISO 13818-1 2.4.3.7: a 33-bit timestamp, with its prefix nibble and whether its three marker bits are set. */
export function readTimestamp(b: Uint8Array, p: number): { value: number; prefix: number; markers: boolean } {
  const value = ((b[p] >> 1) & 7) * 2 ** 30 + b[p + 1] * 2 ** 22 + (b[p + 2] >> 1) * 2 ** 15 + b[p + 3] * 2 ** 7 + (b[p + 4] >> 1);
  return { value, prefix: b[p] >> 4, markers: (b[p] & 1) === 1 && (b[p + 2] & 1) === 1 && (b[p + 4] & 1) === 1 };
}

export interface ReadPes {
  packetIndex: number;
  pid: number;
  streamId: number;
  pesPacketLength: number;
  ptsDtsFlags: number;
  headerDataLength: number;
  pts: number | null;
  dts: number | null;
  markersValid: boolean;
  randomAccess: boolean;
  /** Payload bytes after the header in the whole PES (across packets), up to the next start. */
  payloadBytes: number;
}

/** The PES packets started on `pid` (their headers must sit in the first packet, as the generator's do). */
export function readPes(bytes: Uint8Array, packets: ReadPacket[], pid: number): ReadPes[] {
  const list: ReadPes[] = [];
  for (const pk of packets) {
    if (pk.pid !== pid || pk.payloadStart >= pk.payloadEnd) continue;
    const current = list[list.length - 1];
    if (!pk.pusi) {
      if (current) current.payloadBytes += pk.payloadEnd - pk.payloadStart;
      continue;
    }
    const p = pk.payloadStart;
    if (bytes[p] !== 0 || bytes[p + 1] !== 0 || bytes[p + 2] !== 1) throw new Error(`packet ${pk.index}: no PES start code`);
    const flags = bytes[p + 7] >> 6;
    const headerDataLength = bytes[p + 8];
    let pts: number | null = null;
    let dts: number | null = null;
    let markersValid = (bytes[p + 6] & 0xc0) === 0x80;
    if (flags & 2) {
      const t = readTimestamp(bytes, p + 9);
      pts = t.value;
      markersValid &&= t.markers && t.prefix === (flags === 3 ? 3 : 2);
    }
    if (flags === 3) {
      const t = readTimestamp(bytes, p + 14);
      dts = t.value;
      markersValid &&= t.markers && t.prefix === 1;
    }
    list.push({
      packetIndex: pk.index,
      pid,
      streamId: bytes[p + 3],
      pesPacketLength: (bytes[p + 4] << 8) | bytes[p + 5],
      ptsDtsFlags: flags,
      headerDataLength,
      pts,
      dts,
      markersValid,
      randomAccess: pk.randomAccess,
      payloadBytes: pk.payloadEnd - (p + 9 + headerDataLength),
    });
  }
  return list;
}

export interface ReadSection {
  /** The packet that started the section. */
  packetIndex: number;
  pid: number;
  tableId: number;
  tableIdExtension: number;
  section: Uint8Array;
  crcValid: boolean;
}

/** The PSI sections on `pid` (ISO 13818-1 2.4.4.2: pointer_field, then sections spanning packets). */
export function readSections(bytes: Uint8Array, packets: ReadPacket[], pid: number): ReadSection[] {
  const sections: ReadSection[] = [];
  let parts: number[] = [];
  let startIndex = -1;
  const flush = (): void => {
    if (startIndex < 0 || parts.length < 3) return;
    const length = 3 + (((parts[1] & 0x0f) << 8) | parts[2]);
    if (parts.length < length) return;
    const section = Uint8Array.from(parts.slice(0, length));
    sections.push({
      packetIndex: startIndex,
      pid,
      tableId: section[0],
      tableIdExtension: (section[3] << 8) | section[4],
      section,
      crcValid: crc32Mpeg2(section) === 0,
    });
    startIndex = -1;
    parts = [];
  };
  for (const pk of packets) {
    if (pk.pid !== pid || pk.payloadStart >= pk.payloadEnd) continue;
    let p = pk.payloadStart;
    if (pk.pusi) {
      const pointer = bytes[p];
      parts.push(...bytes.subarray(p + 1, p + 1 + pointer));
      flush();
      parts = [];
      startIndex = pk.index;
      p += 1 + pointer;
    }
    if (startIndex >= 0) {
      parts.push(...bytes.subarray(p, pk.payloadEnd));
      flush();
    }
  }
  return sections;
}

/** The 188 bytes of packet `index` (without M2TS prefix or parity). */
export function packetBytes(bytes: Uint8Array, packetSize: number, index: number): Uint8Array {
  const start = index * packetSize + (packetSize === 192 ? 4 : 0);
  return bytes.subarray(start, start + 188);
}
