/** PES packet header (ISO 13818-1 2.4.3.6-7, Table 2-21). */
import { readTimestamp90kHz, timestampMarkersValid } from './clock.js';

/** stream_id values whose PES has no optional header (ISO 13818-1 Table 2-21). */
export function hasOptionalPesHeader(streamId: number): boolean {
  return !(
    streamId === 0xbc || // program_stream_map
    streamId === 0xbe || // padding_stream
    streamId === 0xbf || // private_stream_2
    streamId === 0xf0 || // ECM
    streamId === 0xf1 || // EMM
    streamId === 0xff || // program_stream_directory
    streamId === 0xf2 || // DSMCC_stream
    streamId === 0xf8 // ITU-T H.222.1 type E
  );
}

export interface PesHeader {
  streamId: number;
  pesPacketLength: number;
  pts90kHz: number | null;
  dts90kHz: number | null;
  /** Bytes from the start code to the first payload byte. */
  headerLength: number;
}

/** Bytes needed before the header can be parsed: 6, or 9 plus PES_header_data_length. */
export function pesHeaderBytesNeeded(bytes: Uint8Array, start: number, available: number): number {
  if (available < 6) return 9;
  if (!hasOptionalPesHeader(bytes[start + 3])) return 6;
  if (available < 9) return 9;
  return 9 + bytes[start + 8];
}

/**
 * Parses a PES header whose bytes `[start, start + pesHeaderBytesNeeded)` are
 * all present. A string names what is malformed.
 */
export function parsePesHeader(bytes: Uint8Array, start: number): PesHeader | string {
  if (bytes[start] !== 0 || bytes[start + 1] !== 0 || bytes[start + 2] !== 1) return 'no packet_start_code_prefix 0x000001';
  const streamId = bytes[start + 3];
  const pesPacketLength = (bytes[start + 4] << 8) | bytes[start + 5];
  if (!hasOptionalPesHeader(streamId)) return { streamId, pesPacketLength, pts90kHz: null, dts90kHz: null, headerLength: 6 };
  if ((bytes[start + 6] & 0xc0) !== 0x80) return "optional PES header does not begin with '10'";
  const ptsDtsFlags = bytes[start + 7] >>> 6;
  const headerDataLength = bytes[start + 8];
  const headerLength = 9 + headerDataLength;
  if (pesPacketLength !== 0 && headerLength > pesPacketLength + 6) return `PES_header_data_length ${headerDataLength} exceeds PES_packet_length ${pesPacketLength}`;
  if (ptsDtsFlags === 1) return "PTS_DTS_flags '01' is forbidden";
  let pts90kHz: number | null = null;
  let dts90kHz: number | null = null;
  if (ptsDtsFlags & 2) {
    const timestampBytes = ptsDtsFlags === 3 ? 10 : 5;
    if (headerDataLength < timestampBytes) return `PES_header_data_length ${headerDataLength} too short for the PTS/DTS it announces`;
    if (!timestampMarkersValid(bytes, start + 9)) return 'PTS marker bits not set';
    pts90kHz = readTimestamp90kHz(bytes, start + 9);
    if (ptsDtsFlags === 3) {
      if (!timestampMarkersValid(bytes, start + 14)) return 'DTS marker bits not set';
      dts90kHz = readTimestamp90kHz(bytes, start + 14);
    }
  }
  return { streamId, pesPacketLength, pts90kHz, dts90kHz, headerLength };
}
