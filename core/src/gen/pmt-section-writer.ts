/**
 * The TS program map section (ISO 13818-1 2.4.4.8, Table 2-33).
 */
import { writeLongSection } from './psi-section-writer.js';

export const PMT_TABLE_ID = 0x02;

export interface PmtStream {
  /** stream_type (ISO 13818-1 Table 2-34). */
  streamType: number;
  elementaryPid: number;
  /** The ES_info descriptor loop, whole descriptors (tag, length, body) back to back. */
  descriptors?: Uint8Array;
}

export interface PmtFields {
  programNumber: number;
  version?: number;
  pcrPid: number;
  /** The program_info descriptor loop. */
  programDescriptors?: Uint8Array;
  streams: readonly PmtStream[];
}

/**
 * A PMT section: reserved '111' and PCR_PID, reserved '1111' and
 * program_info_length with its descriptors, then per stream stream_type,
 * reserved '111', elementary_PID, reserved '1111', ES_info_length and its
 * descriptors.
 */
export function writePmtSection(fields: PmtFields): Uint8Array {
  const programInfo = fields.programDescriptors ?? new Uint8Array(0);
  let size = 4 + programInfo.length;
  for (const stream of fields.streams) size += 5 + (stream.descriptors?.length ?? 0);
  const body = new Uint8Array(size);
  body[0] = 0xe0 | (fields.pcrPid >>> 8);
  body[1] = fields.pcrPid & 0xff;
  writeLoopLength(body, 2, programInfo.length);
  body.set(programInfo, 4);
  let p = 4 + programInfo.length;
  for (const stream of fields.streams) {
    const esInfo = stream.descriptors ?? new Uint8Array(0);
    body[p] = stream.streamType;
    body[p + 1] = 0xe0 | (stream.elementaryPid >>> 8);
    body[p + 2] = stream.elementaryPid & 0xff;
    writeLoopLength(body, p + 3, esInfo.length);
    body.set(esInfo, p + 5);
    p += 5 + esInfo.length;
  }
  return writeLongSection({ tableId: PMT_TABLE_ID, tableIdExtension: fields.programNumber, version: fields.version, body });
}

/** ISO 13818-1 2.4.4.9: the first two bits of program_info_length and ES_info_length are '00' (at most 1023). */
function writeLoopLength(body: Uint8Array, pos: number, length: number): void {
  if (length > 0x3ff) throw new RangeError(`descriptor loop of ${length} bytes exceeds 1023`);
  body[pos] = 0xf0 | (length >>> 8);
  body[pos + 1] = length & 0xff;
}
