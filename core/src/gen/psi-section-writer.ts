/**
 * The long form of a PSI section (ISO 13818-1 2.4.4.10 and Tables 2-30,
 * 2-33): the 8-byte header, the table body and the CRC_32.
 */
import { crc32Mpeg2 } from '../ts/crc32.js';

/** ISO 13818-1 2.4.4.11: section_length of PAT and PMT sections is at most 1021 (0x3FD). */
export const MAX_PSI_SECTION_LENGTH = 1021;

export interface LongSectionFields {
  tableId: number;
  /** transport_stream_id in a PAT, program_number in a PMT. */
  tableIdExtension: number;
  /** version_number, 5 bits. */
  version?: number;
  currentNext?: boolean;
  sectionNumber?: number;
  lastSectionNumber?: number;
  /** The bytes between last_section_number and CRC_32. */
  body: Uint8Array;
}

/**
 * A whole section: table_id, section_syntax_indicator 1, '0', reserved '11',
 * section_length, table_id_extension, reserved '11', version_number,
 * current_next_indicator, section_number, last_section_number, the body and
 * the CRC_32 of Annex A over everything before it.
 */
export function writeLongSection(fields: LongSectionFields): Uint8Array {
  const sectionLength = 5 + fields.body.length + 4;
  if (sectionLength > MAX_PSI_SECTION_LENGTH) {
    throw new RangeError(`section_length ${sectionLength} exceeds ${MAX_PSI_SECTION_LENGTH} (ISO 13818-1 2.4.4.11)`);
  }
  const section = new Uint8Array(3 + sectionLength);
  section[0] = fields.tableId;
  section[1] = 0xb0 | (sectionLength >>> 8);
  section[2] = sectionLength & 0xff;
  section[3] = (fields.tableIdExtension >>> 8) & 0xff;
  section[4] = fields.tableIdExtension & 0xff;
  section[5] = 0xc0 | (((fields.version ?? 0) & 0x1f) << 1) | (fields.currentNext === false ? 0 : 1);
  section[6] = fields.sectionNumber ?? 0;
  section[7] = fields.lastSectionNumber ?? 0;
  section.set(fields.body, 8);
  const crcAt = section.length - 4;
  const crc = crc32Mpeg2(section, 0, crcAt);
  section[crcAt] = crc >>> 24;
  section[crcAt + 1] = (crc >>> 16) & 0xff;
  section[crcAt + 2] = (crc >>> 8) & 0xff;
  section[crcAt + 3] = crc & 0xff;
  return section;
}
