/**
 * The content faults of one KLV packet: each breaks one rule of MISB ST
 * 0601 (or SMPTE 336 framing) and nothing else, so an analyzer reports
 * exactly one problem of the expected type.
 */
import { bytesToHex } from '../klv/hex.js';
import { encodeSt0601 } from '../klv/st0601-packet.js';
import type { FlightSample } from './klv-flight-path.js';
import type { FaultDetails } from './klv-fault-plan.js';
import type { KlvContentFaultKind } from './klv-fault-kinds.js';
import { KLV_DUPLICATED_TAG, KLV_UNKNOWN_TAG } from './klv-fault-kinds.js';
import { writeSt0601Checksum, type St0601PacketWriter } from './klv-packet-writer.js';

/**
 * A universal label no registry of ours knows: the ST 0601 key with item
 * designator byte 12 set to 0x7F (SMPTE ST 336 keys; MISB ST 0601 is
 * 06 0E 2B 34 02 0B 01 01 0E 01 03 01 01 00 00 00).
 */
export const UNREGISTERED_KLV_KEY = Uint8Array.of(0x06, 0x0e, 0x2b, 0x34, 0x02, 0x0b, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x01, 0x7f, 0x00, 0x00, 0x00);

/** Share of a truncated packet that is still sent. */
const TRUNCATED_SHARE = 2 / 3;

export interface FaultyPacket {
  bytes: Uint8Array;
  details: FaultDetails;
}

/** The packet `writer` would write for (timestampMicros, f), with the fault `kind` in it. */
export function faultyPacket(kind: KlvContentFaultKind, writer: St0601PacketWriter, timestampMicros: number, f: FlightSample): FaultyPacket {
  switch (kind) {
    case 'klv-checksum': {
      // ST 0601 6.3: a receiver compares item 1 with its own sum; every bit flipped makes them differ.
      const bytes = writer.write(timestampMicros, f);
      const end = bytes.length - 2;
      const computed = (bytes[end] << 8) | bytes[end + 1];
      const stored = computed ^ 0xffff;
      bytes[end] = stored >> 8;
      bytes[end + 1] = stored & 0xff;
      return { bytes, details: { storedChecksum: stored, computedChecksum: computed } };
    }
    case 'klv-unknown-tag': {
      // One value byte; encodeSt0601 writes bytes as they are for a tag the table does not define.
      const items = [...writer.items(timestampMicros, f), { tag: KLV_UNKNOWN_TAG, value: Uint8Array.of(0) }];
      return { bytes: encodeSt0601(items), details: { tag: KLV_UNKNOWN_TAG } };
    }
    case 'klv-duplicate-tag': {
      const items = writer.items(timestampMicros, f);
      const repeated = items.find((i) => i.tag === KLV_DUPLICATED_TAG);
      return { bytes: encodeSt0601([...items, { tag: KLV_DUPLICATED_TAG, value: repeated?.value }]), details: { tag: KLV_DUPLICATED_TAG } };
    }
    case 'klv-missing-timestamp':
    case 'klv-missing-version': {
      // ST 0601.17 6.2: items 2 and 65 are mandatory in every packet.
      const tag = kind === 'klv-missing-timestamp' ? 2 : 65;
      return { bytes: encodeSt0601(writer.items(timestampMicros, f).filter((i) => i.tag !== tag)), details: { tag } };
    }
    case 'klv-wrong-key': {
      // The checksum covers the key (6.3), so it is computed again: only the key is wrong.
      const bytes = writer.write(timestampMicros, f);
      bytes.set(UNREGISTERED_KLV_KEY, 0);
      writeSt0601Checksum(bytes);
      return { bytes, details: { keyHex: bytesToHex(UNREGISTERED_KLV_KEY, 0, UNREGISTERED_KLV_KEY.length) } };
    }
    case 'klv-truncated': {
      const whole = writer.write(timestampMicros, f);
      const sent = Math.floor(whole.length * TRUNCATED_SHARE);
      return { bytes: whole.subarray(0, sent), details: { bytesSent: sent, bytesDeclared: whole.length } };
    }
  }
}
