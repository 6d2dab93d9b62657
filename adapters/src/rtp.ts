/**
 * RTP framing of MPEG-TS: the RTP header (RFC 3550 5.1) before a whole
 * number of 188-byte transport packets (RFC 2250 2, payload type 33 MP2T,
 * or a dynamic type 96-127 as some senders use). Reading works on the
 * datagram in place, by index, with no allocation: the hot path of a live
 * source calls it for every datagram.
 */
import { TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';

export const RTP_VERSION = 2;
/** RFC 3551 table 5: MP2T. */
export const MP2T_PAYLOAD_TYPE = 33;
/** The fixed part of the header, without CSRCs or extension. */
export const RTP_HEADER_SIZE = 12;
/** RFC 2250 2: MPEG-TS timestamps run at 90 kHz. */
export const RTP_CLOCK_HZ = 90_000;

/**
 * RFC 3550 5.1: the offset of the payload of an RTP version 2 packet, after
 * the CSRC list and the header extension; -1 when the datagram is too short
 * to be one or is not version 2.
 */
export function rtpPayloadOffset(datagram: Uint8Array): number {
  if (datagram.length < RTP_HEADER_SIZE || datagram[0] >>> 6 !== RTP_VERSION) return -1;
  let offset = RTP_HEADER_SIZE + (datagram[0] & 0x0f) * 4;
  // RFC 3550 5.3.1: the extension's own 4-byte header, then `length` 32-bit words.
  if (datagram[0] & 0x10) {
    if (offset + 4 > datagram.length) return -1;
    offset += 4 + ((datagram[offset + 2] << 8) | datagram[offset + 3]) * 4;
  }
  return offset <= rtpPayloadEnd(datagram) ? offset : -1;
}

/** RFC 3550 5.1: the end of the payload, before the padding whose length is the last byte when P is set. */
export function rtpPayloadEnd(datagram: Uint8Array): number {
  return datagram[0] & 0x20 ? datagram.length - datagram[datagram.length - 1] : datagram.length;
}

/** Whether the datagram is RTP carrying MPEG-TS: version 2, type MP2T or dynamic, a payload of whole packets starting with a sync byte. */
export function isRtpTransportStream(datagram: Uint8Array): boolean {
  const start = rtpPayloadOffset(datagram);
  if (start < 0) return false;
  const payloadType = datagram[1] & 0x7f;
  if (payloadType !== MP2T_PAYLOAD_TYPE && payloadType < 96) return false;
  const length = rtpPayloadEnd(datagram) - start;
  return length > 0 && length % TS_PACKET_SIZE === 0 && datagram[start] === TS_SYNC_BYTE;
}

/** The 16-bit sequence number (RFC 3550 5.1). */
export function rtpSequenceNumber(datagram: Uint8Array): number {
  return (datagram[2] << 8) | datagram[3];
}

/** The 32-bit timestamp (RFC 3550 5.1). */
export function rtpTimestamp(datagram: Uint8Array): number {
  return ((datagram[4] << 24) | (datagram[5] << 16) | (datagram[6] << 8) | datagram[7]) >>> 0;
}

export interface RtpHeaderFields {
  /** Taken modulo 2^16. */
  sequenceNumber: number;
  /** Taken modulo 2^32. */
  timestamp: number;
  ssrc: number;
  /** Default MP2T (33). */
  payloadType?: number;
  marker?: boolean;
}

/** Writes a 12-byte RTP header (no CSRC, no extension, no padding) at the start of `target`. */
export function writeRtpHeader(target: Uint8Array, fields: RtpHeaderFields): void {
  const sequence = fields.sequenceNumber & 0xffff;
  const timestamp = fields.timestamp % 2 ** 32;
  const ssrc = fields.ssrc >>> 0;
  target[0] = RTP_VERSION << 6;
  target[1] = (fields.marker ? 0x80 : 0) | ((fields.payloadType ?? MP2T_PAYLOAD_TYPE) & 0x7f);
  target[2] = sequence >>> 8;
  target[3] = sequence & 0xff;
  target[4] = timestamp >>> 24;
  target[5] = (timestamp >>> 16) & 0xff;
  target[6] = (timestamp >>> 8) & 0xff;
  target[7] = timestamp & 0xff;
  target[8] = ssrc >>> 24;
  target[9] = (ssrc >>> 16) & 0xff;
  target[10] = (ssrc >>> 8) & 0xff;
  target[11] = ssrc & 0xff;
}

/** A new RTP packet: the header of `fields`, then the payload. */
export function wrapRtp(payload: Uint8Array, fields: RtpHeaderFields): Uint8Array {
  const packet = new Uint8Array(RTP_HEADER_SIZE + payload.length);
  writeRtpHeader(packet, fields);
  packet.set(payload, RTP_HEADER_SIZE);
  return packet;
}

/** The payload of an RTP packet as a view on it (no copy), or null when the datagram is not RTP version 2. */
export function unwrapRtp(datagram: Uint8Array): Uint8Array | null {
  const start = rtpPayloadOffset(datagram);
  return start < 0 ? null : datagram.subarray(start, rtpPayloadEnd(datagram));
}
