/**
 * The PES packet header (ISO 13818-1 2.4.3.6, Table 2-21) with PTS and DTS
 * (2.4.3.7).
 */

/** Stream ids whose PES packets have no optional header (ISO 13818-1 Table 2-21, the first branch). */
const STREAM_IDS_WITHOUT_OPTIONAL_HEADER = new Set([0xbc, 0xbe, 0xbf, 0xf0, 0xf1, 0xf2, 0xf8, 0xff]);

/** ISO 13818-1 2.4.3.7: at most 32 stuffing bytes in one PES header. */
export const MAX_PES_HEADER_STUFFING = 32;

/** The largest PES_packet_length (16 bits). */
export const MAX_PES_PACKET_LENGTH = 0xffff;

export interface PesHeaderFields {
  /** stream_id (ISO 13818-1 Table 2-22), e.g. 0xE0 video, 0xC0 audio, 0xFC metadata, 0xBD private_stream_1. */
  streamId: number;
  /**
   * Bytes of PES_packet_data after the header. With `unbounded`,
   * PES_packet_length is written as 0, which 2.4.3.7 allows only for video
   * elementary streams.
   */
  payloadLength: number;
  unbounded?: boolean;
  /** 33-bit PTS at 90 kHz, or null for none. */
  pts90kHz: number | null;
  /** 33-bit DTS at 90 kHz; only with a PTS. Null (or absent) when equal to the PTS. */
  dts90kHz?: number | null;
  dataAlignment?: boolean;
  /** Stuffing bytes (0xFF) in the header, counted in PES_header_data_length. */
  stuffingBytes?: number;
}

/** Length of the header `writePesHeader` writes for these fields. */
export function pesHeaderLength(fields: PesHeaderFields): number {
  if (STREAM_IDS_WITHOUT_OPTIONAL_HEADER.has(fields.streamId)) return 6;
  return 9 + timestampBytes(fields) + (fields.stuffingBytes ?? 0);
}

function timestampBytes(fields: PesHeaderFields): number {
  if (fields.pts90kHz === null) return 0;
  return fields.dts90kHz !== undefined && fields.dts90kHz !== null ? 10 : 5;
}

/**
 * ISO 13818-1 2.4.3.6: writes packet_start_code_prefix, stream_id,
 * PES_packet_length and (for the stream ids that have it) the optional
 * header with '10' marker bits, data_alignment_indicator, PTS_DTS_flags,
 * PES_header_data_length, the timestamps and stuffing bytes. Returns the
 * header length.
 */
export function writePesHeader(buf: Uint8Array, pos: number, fields: PesHeaderFields): number {
  const headerLength = pesHeaderLength(fields);
  const packetLength = fields.unbounded ? 0 : headerLength - 6 + fields.payloadLength;
  if (packetLength > MAX_PES_PACKET_LENGTH) {
    throw new RangeError(`PES_packet_length ${packetLength} exceeds 65535; only video may use an unbounded (0) length`);
  }
  const stuffing = fields.stuffingBytes ?? 0;
  if (stuffing < 0 || stuffing > MAX_PES_HEADER_STUFFING) throw new RangeError(`${stuffing} PES header stuffing bytes (0..32 allowed)`);
  if (fields.pts90kHz === null && fields.dts90kHz !== undefined && fields.dts90kHz !== null) {
    // ISO 13818-1 2.4.3.7: PTS_DTS_flags '01' is forbidden.
    throw new RangeError('a DTS needs a PTS');
  }
  buf[pos] = 0x00;
  buf[pos + 1] = 0x00;
  buf[pos + 2] = 0x01;
  buf[pos + 3] = fields.streamId;
  buf[pos + 4] = (packetLength >>> 8) & 0xff;
  buf[pos + 5] = packetLength & 0xff;
  if (headerLength === 6) return 6;

  const withDts = fields.pts90kHz !== null && fields.dts90kHz !== undefined && fields.dts90kHz !== null;
  const ptsDtsFlags = fields.pts90kHz === null ? 0b00 : withDts ? 0b11 : 0b10;
  buf[pos + 6] = 0x80 | (fields.dataAlignment ? 0x04 : 0);
  buf[pos + 7] = ptsDtsFlags << 6;
  buf[pos + 8] = headerLength - 9;
  let p = pos + 9;
  if (fields.pts90kHz !== null) {
    // ISO 13818-1 2.4.3.7: the 4-bit prefix is '0011' before a DTS, '0010' alone.
    writeTimestamp(buf, p, withDts ? 0b0011 : 0b0010, fields.pts90kHz);
    p += 5;
    if (withDts) {
      writeTimestamp(buf, p, 0b0001, fields.dts90kHz as number);
      p += 5;
    }
  }
  buf.fill(0xff, p, p + stuffing);
  return headerLength;
}

/**
 * ISO 13818-1 2.4.3.7: a 33-bit timestamp in 5 bytes: the 4-bit prefix,
 * bits 32..30, marker, bits 29..15, marker, bits 14..0, marker.
 */
export function writeTimestamp(buf: Uint8Array, pos: number, prefix: number, timestamp90kHz: number): void {
  const top = Math.floor(timestamp90kHz / 0x40000000) & 0x07;
  // The low 30 bits survive ToInt32 unchanged.
  const low = timestamp90kHz % 0x40000000;
  buf[pos] = (prefix << 4) | (top << 1) | 1;
  buf[pos + 1] = (low >>> 22) & 0xff;
  buf[pos + 2] = (((low >>> 15) & 0x7f) << 1) | 1;
  buf[pos + 3] = (low >>> 7) & 0xff;
  buf[pos + 4] = ((low & 0x7f) << 1) | 1;
}
