/** ST 0601 packets written by hand, well formed or not, for the decoder's tests and those of what reads its items. */
import { encodeBerLength } from '../../src/klv/ber-length.js';
import { st0601Checksum } from '../../src/klv/checksum.js';
import { hexToBytes } from '../../src/klv/hex.js';

export const KEY = '060e2b34020b01010e01030101000000';

/** Items 2 (time stamp) and 65 (version), as hex. */
export const TIME_AND_VERSION = '02080004605058 4e0180 41010d'.replace(/ /g, '');

/** A packet from hand-written item bytes "tag len value..." with a correct checksum appended. */
export function packetFromItems(itemsHex: string): Uint8Array {
  const body = hexToBytes(itemsHex + '01020000')!;
  const header = hexToBytes(KEY)!;
  const length = encodeBerLength(body.length);
  const packet = new Uint8Array(header.length + length.length + body.length);
  packet.set(header);
  packet.set(length, 16);
  packet.set(body, 16 + length.length);
  const sum = st0601Checksum(packet, 0, packet.length - 2);
  packet[packet.length - 2] = sum >> 8;
  packet[packet.length - 1] = sum & 0xff;
  return packet;
}

/**
 * Packets the decoder reports problems in: an unknown tag, an item of a length its definition does not allow, a
 * pack it cannot read, a nested set it reads with problems, a packet cut short, a bad BER length, too few bytes.
 */
export function malformedSt0601Packets(): Uint8Array[] {
  return [
    packetFromItems(TIME_AND_VERSION + '817002abcd'),
    packetFromItems(TIME_AND_VERSION + '050371c200'),
    packetFromItems(TIME_AND_VERSION + '7f028181'),
    packetFromItems(TIME_AND_VERSION + '3002ffff'),
    packetFromItems(TIME_AND_VERSION + '050271c2').subarray(0, 30),
    Uint8Array.from([...hexToBytes(KEY)!, 0x89, 1, 2, 3]),
    hexToBytes('060e2b34')!,
  ];
}
