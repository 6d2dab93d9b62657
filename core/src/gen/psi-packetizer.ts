/**
 * Carriage of one PSI section in transport packets (ISO 13818-1 2.4.4.1-2):
 * a pointer_field of 0 in the first packet, the section split across as many
 * packets as it needs, 0xFF stuffing after its end.
 */
import { TS_PACKET_SIZE } from '../ts/ts-packet.js';
import { AFC_PAYLOAD_ONLY, TS_HEADER_SIZE, writePacketHeader } from './packet-header-writer.js';

/**
 * The packets that carry `section` on `pid`, back to back in one array
 * (188 bytes each), continuity_counter 0: the caller sets the counter of
 * each packet as it sends it.
 */
export function packetizeSection(pid: number, section: Uint8Array): Uint8Array {
  // The first packet loses one payload byte to the pointer_field.
  const count = Math.ceil((section.length + 1) / (TS_PACKET_SIZE - TS_HEADER_SIZE));
  const packets = new Uint8Array(count * TS_PACKET_SIZE).fill(0xff);
  let from = 0;
  for (let i = 0; i < count; i++) {
    const pos = i * TS_PACKET_SIZE;
    writePacketHeader(packets, pos, pid, i === 0, AFC_PAYLOAD_ONLY, 0);
    let p = pos + TS_HEADER_SIZE;
    if (i === 0) packets[p++] = 0x00; // pointer_field: the section starts right after it
    const take = Math.min(section.length - from, pos + TS_PACKET_SIZE - p);
    packets.set(section.subarray(from, from + take), p);
    from += take;
  }
  return packets;
}
