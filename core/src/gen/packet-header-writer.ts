/**
 * The 4-byte transport packet header (ISO 13818-1 2.4.3.2, Table 2-2).
 */
import { TS_PACKET_SIZE, TS_SYNC_BYTE } from '../ts/ts-packet.js';

export const TS_HEADER_SIZE = 4;
/** Payload bytes of a packet without adaptation field. */
export const TS_PAYLOAD_SIZE = TS_PACKET_SIZE - TS_HEADER_SIZE;

/** adaptation_field_control values (ISO 13818-1 Table 2-5). */
export const AFC_PAYLOAD_ONLY = 0b01;
export const AFC_ADAPTATION_ONLY = 0b10;
export const AFC_ADAPTATION_AND_PAYLOAD = 0b11;

/** Optional header bits; all default to 0. */
export interface PacketHeaderExtras {
  transportError?: boolean;
  /** transport_scrambling_control, 2 bits (ISO 13818-1 Table 2-4). */
  scrambling?: number;
  transportPriority?: boolean;
}

/**
 * ISO 13818-1 2.4.3.2: writes sync_byte, transport_error_indicator,
 * payload_unit_start_indicator, transport_priority, PID,
 * transport_scrambling_control, adaptation_field_control and
 * continuity_counter at `buf[pos, pos + 4)`. Positional arguments because
 * the multiplexer calls it once per packet.
 */
export function writePacketHeader(
  buf: Uint8Array,
  pos: number,
  pid: number,
  payloadUnitStart: boolean,
  adaptationFieldControl: number,
  continuityCounter: number,
  extras?: PacketHeaderExtras,
): void {
  let b1 = (pid >>> 8) & 0x1f;
  let b3 = ((adaptationFieldControl & 0x03) << 4) | (continuityCounter & 0x0f);
  if (payloadUnitStart) b1 |= 0x40;
  if (extras !== undefined) {
    if (extras.transportError) b1 |= 0x80;
    if (extras.transportPriority) b1 |= 0x20;
    b3 |= ((extras.scrambling ?? 0) & 0x03) << 6;
  }
  buf[pos] = TS_SYNC_BYTE;
  buf[pos + 1] = b1;
  buf[pos + 2] = pid & 0xff;
  buf[pos + 3] = b3;
}

/**
 * ISO 13818-1 2.4.3.3: continuity_counter increments only in packets that
 * carry payload; returns the counter the next payload packet gets.
 */
export function nextContinuityCounter(counter: number): number {
  return (counter + 1) & 0x0f;
}
