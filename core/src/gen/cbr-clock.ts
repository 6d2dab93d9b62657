/**
 * The clock of a constant-bitrate transport stream: where each packet sits
 * in time, and the PCR it must carry.
 *
 * The rule (ISO 13818-1 2.4.2.2, equations 2-1 to 2-3): the PCR encodes the
 * system time clock when the byte holding the last bit of
 * program_clock_reference_base reaches the decoder. In a CBR stream byte `i`
 * arrives at `i * 8 / bitrate` seconds, so the PCR of packet `n` is
 *
 *   PCR(n) = initialPcr27MHz + (n * 188 + 10) * 8 * 27e6 / bitrate   (mod 2^33 * 300)
 *
 * rounded to the nearest 27 MHz tick (error at most 18.5 ns, far inside the
 * +-500 ns of 2.4.2.1). Byte 10 of the packet holds the last base bit when
 * the PCR is the first field of the adaptation field, which is the only place
 * the generator puts it. `bitrate` counts the 188-byte transport packets: the
 * M2TS time-stamp prefix and the 204-byte parity are outside the transport
 * stream, so they do not move the clock (all packets of a file have the same
 * size, so PCR stays linear in file offsets as well).
 */
import { PCR_HZ, PCR_MODULUS, PTS_MODULUS } from '../ts/clock.js';
import { TS_PACKET_SIZE } from '../ts/ts-packet.js';

/** Byte of the packet that holds the last bit of program_clock_reference_base (sync 0, header 1-3, AF length 4, flags 5, PCR 6-11). */
export const PCR_BASE_LAST_BYTE = 10;

export class CbrClock {
  /** 27 MHz ticks per transport stream byte. */
  readonly ticksPerByte: number;
  /** Seconds per 188-byte packet. */
  readonly secondsPerPacket: number;

  constructor(
    readonly bitrate: number,
    /** System time clock (27 MHz) when the first byte of the stream arrives. */
    readonly initialPcr27MHz: number,
  ) {
    this.ticksPerByte = (8 * PCR_HZ) / bitrate;
    this.secondsPerPacket = (TS_PACKET_SIZE * 8) / bitrate;
  }

  /** The PCR packet `packetIndex` must carry, wrapped at 2^33 * 300. */
  pcrAtPacket(packetIndex: number): number {
    return wrapPcr27MHz(this.initialPcr27MHz + Math.round((packetIndex * TS_PACKET_SIZE + PCR_BASE_LAST_BYTE) * this.ticksPerByte));
  }

  /** The system time clock (27 MHz, not wrapped) when the first byte of packet `packetIndex` arrives. */
  arrivalAtPacket27MHz(packetIndex: number): number {
    return this.initialPcr27MHz + Math.round(packetIndex * TS_PACKET_SIZE * this.ticksPerByte);
  }

  /** Seconds since the first byte when packet `packetIndex` starts. */
  secondsAtPacket(packetIndex: number): number {
    return packetIndex * this.secondsPerPacket;
  }

  /** The 90 kHz system time clock at the first byte: PTS/DTS values are this plus the unit's own 90 kHz time. */
  get initialStc90kHz(): number {
    return Math.floor(this.initialPcr27MHz / 300);
  }
}

/** A 27 MHz value modulo 2^33 * 300 (ISO 13818-1 2.4.2.2), for positive and negative inputs. */
export function wrapPcr27MHz(value: number): number {
  const wrapped = value % PCR_MODULUS;
  return wrapped < 0 ? wrapped + PCR_MODULUS : wrapped;
}

/** A 90 kHz value modulo 2^33 (ISO 13818-1 2.4.3.7). */
export function wrapPts90kHz(value: number): number {
  const wrapped = value % PTS_MODULUS;
  return wrapped < 0 ? wrapped + PTS_MODULUS : wrapped;
}
