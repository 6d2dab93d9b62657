/**
 * Hand-built TS packets for parser tests: small, explicit, independent of the
 * generator so the two check each other.
 */
import { crc32Mpeg2 } from '../../src/ts/crc32.js';

export interface PacketFields {
  pid: number;
  cc?: number;
  pusi?: boolean;
  tei?: boolean;
  scrambling?: number;
  /** Adaptation field: present when any of these is given. */
  pcr27MHz?: number;
  discontinuity?: boolean;
  randomAccess?: boolean;
  /** Force an adaptation field of this total length (adaptation_field_length value). */
  afLength?: number;
  /** No payload (adaptation_field_control '10'). */
  adaptationOnly?: boolean;
  payload?: Uint8Array | number[];
}

/** One 188-byte packet; the payload is padded with 0xFF stuffing bytes in the payload (or AF stuffing when `stuffInAf`). */
export function packet(fields: PacketFields): Uint8Array {
  const p = new Uint8Array(188).fill(0xff);
  const payload = fields.payload ? Uint8Array.from(fields.payload) : new Uint8Array(0);
  const hasAf = fields.pcr27MHz !== undefined || fields.discontinuity || fields.randomAccess || fields.afLength !== undefined || fields.adaptationOnly;
  const hasPayload = !fields.adaptationOnly;
  p[0] = 0x47;
  p[1] = (fields.tei ? 0x80 : 0) | (fields.pusi ? 0x40 : 0) | ((fields.pid >> 8) & 0x1f);
  p[2] = fields.pid & 0xff;
  p[3] = ((fields.scrambling ?? 0) << 6) | ((hasAf ? 2 : 0) | (hasPayload ? 1 : 0)) << 4 | ((fields.cc ?? 0) & 0x0f);
  let pos = 4;
  if (hasAf) {
    const afLength = fields.afLength ?? (fields.adaptationOnly ? 183 : fields.pcr27MHz !== undefined ? 7 : 1);
    p[4] = afLength;
    if (afLength > 0) {
      p[5] = (fields.discontinuity ? 0x80 : 0) | (fields.randomAccess ? 0x40 : 0) | (fields.pcr27MHz !== undefined ? 0x10 : 0);
      if (fields.pcr27MHz !== undefined) writePcr(p, 6, fields.pcr27MHz);
    }
    pos = 5 + afLength;
  }
  p.set(payload.subarray(0, Math.max(0, 188 - pos)), pos);
  return p;
}

export function writePcr(p: Uint8Array, pos: number, pcr27MHz: number): void {
  const base = Math.floor(pcr27MHz / 300);
  const ext = pcr27MHz % 300;
  p[pos] = Math.floor(base / 0x2000000) & 0xff;
  p[pos + 1] = Math.floor(base / 0x20000) & 0xff;
  p[pos + 2] = Math.floor(base / 0x200) & 0xff;
  p[pos + 3] = Math.floor(base / 2) & 0xff;
  p[pos + 4] = ((base % 2) << 7) | 0x7e | (ext >> 8);
  p[pos + 5] = ext & 0xff;
}

/** The 5 bytes of a PTS or DTS with prefix bits `prefix` (0b0010 PTS only, 0b0011 PTS with DTS, 0b0001 DTS). */
export function timestamp(prefix: number, ts90kHz: number): number[] {
  const high = Math.floor(ts90kHz / 0x40000000) & 0x07;
  const low = ts90kHz % 0x40000000;
  return [
    (prefix << 4) | (high << 1) | 1,
    (low >>> 22) & 0xff,
    (((low >>> 15) & 0x7f) << 1) | 1,
    (low >>> 7) & 0xff,
    ((low & 0x7f) << 1) | 1,
  ];
}

/** A PES packet: header with optional PTS/DTS, then the payload. */
export function pes(streamId: number, payload: number[], opts: { pts?: number; dts?: number; length?: number } = {}): number[] {
  const optional: number[] = [];
  let flags = 0;
  if (opts.pts !== undefined && opts.dts !== undefined) {
    flags = 0xc0;
    optional.push(...timestamp(0b0011, opts.pts), ...timestamp(0b0001, opts.dts));
  } else if (opts.pts !== undefined) {
    flags = 0x80;
    optional.push(...timestamp(0b0010, opts.pts));
  }
  const body = [0x80, flags, optional.length, ...optional, ...payload];
  const length = opts.length ?? body.length;
  return [0, 0, 1, streamId, (length >> 8) & 0xff, length & 0xff, ...body];
}

/** A long-syntax PSI section with a correct CRC_32 (or a wrong one). */
export function section(tableId: number, tableIdExtension: number, body: number[], opts: { version?: number; badCrc?: boolean } = {}): number[] {
  const sectionLength = 5 + body.length + 4;
  const head = [
    tableId,
    0xb0 | ((sectionLength >> 8) & 0x0f),
    sectionLength & 0xff,
    (tableIdExtension >> 8) & 0xff,
    tableIdExtension & 0xff,
    0xc1 | ((opts.version ?? 0) << 1),
    0,
    0,
    ...body,
  ];
  const crc = crc32Mpeg2(Uint8Array.from(head)) ^ (opts.badCrc ? 1 : 0);
  return [...head, (crc >>> 24) & 0xff, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff];
}

export function patSection(programs: Array<[number, number]>, opts: { version?: number; badCrc?: boolean; tsId?: number } = {}): number[] {
  const body = programs.flatMap(([number, pid]) => [number >> 8, number & 0xff, 0xe0 | (pid >> 8), pid & 0xff]);
  return section(0x00, opts.tsId ?? 1, body, opts);
}

export interface PmtStream {
  type: number;
  pid: number;
  descriptors?: number[];
}

export function pmtSection(programNumber: number, pcrPid: number, streams: PmtStream[], opts: { version?: number; badCrc?: boolean; programDescriptors?: number[] } = {}): number[] {
  const programDescriptors = opts.programDescriptors ?? [];
  const body = [0xe0 | (pcrPid >> 8), pcrPid & 0xff, 0xf0 | (programDescriptors.length >> 8), programDescriptors.length & 0xff, ...programDescriptors];
  for (const s of streams) {
    const d = s.descriptors ?? [];
    body.push(s.type, 0xe0 | (s.pid >> 8), s.pid & 0xff, 0xf0 | (d.length >> 8), d.length & 0xff, ...d);
  }
  return section(0x02, programNumber, body, opts);
}

/** A PSI section in one packet: pointer_field 0, then the section. */
export function psiPacket(pid: number, sectionBytes: number[], cc = 0): Uint8Array {
  return packet({ pid, cc, pusi: true, payload: [0, ...sectionBytes] });
}

export function concatPackets(packets: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(packets.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const p of packets) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** The payload of a PES split over packets of one PID (first with PUSI). */
export function pesPackets(pid: number, pesBytes: number[], firstCc = 0, firstFields: Partial<PacketFields> = {}): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let cc = firstCc;
  let pos = 0;
  let first = true;
  while (pos < pesBytes.length) {
    const fields: PacketFields = first ? { pid, cc, pusi: true, ...firstFields } : { pid, cc };
    const room = 188 - 4 - (first && (firstFields.pcr27MHz !== undefined || firstFields.randomAccess) ? (firstFields.pcr27MHz !== undefined ? 8 : 2) : 0);
    const chunk = pesBytes.slice(pos, pos + room);
    // Stuff a short last packet through its adaptation field (ISO 13818-1 2.4.3.5) so the payload ends the packet.
    if (chunk.length < room) fields.afLength = 183 - chunk.length;
    fields.payload = chunk;
    const p = packet(fields);
    packets.push(p);
    pos += chunk.length;
    cc = (cc + 1) & 0x0f;
    first = false;
  }
  return packets;
}
