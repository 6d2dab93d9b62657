/**
 * Carriage of PES packets in transport packets (ISO 13818-1 2.4.3.2-2.4.3.5):
 * the first packet has payload_unit_start_indicator set, every payload
 * packet advances the continuity counter, and the last packet is filled up
 * with adaptation field stuffing (2.4.3.5: the only stuffing allowed in
 * packets carrying PES data).
 */
import { minimumAdaptationFieldLength, writeAdaptationField, AF_RANDOM_ACCESS } from './adaptation-field-writer.js';
import {
  AFC_ADAPTATION_AND_PAYLOAD,
  AFC_ADAPTATION_ONLY,
  AFC_PAYLOAD_ONLY,
  TS_HEADER_SIZE,
  TS_PAYLOAD_SIZE,
  writePacketHeader,
} from './packet-header-writer.js';
import { pesHeaderLength, writePesHeader, type PesHeaderFields } from './pes-header-writer.js';

export class PesPacketizer {
  /** continuity_counter of the last payload packet (the first one sent is 0). */
  private cc = 0x0f;
  private readonly header = Buffer.alloc(64);
  private headerLength = 0;
  private payload: Buffer = Buffer.alloc(0);
  private total = 0;
  private sent = 0;
  private randomAccess = false;

  // What the last written packet was, for the multiplexer's PacketInfo.
  lastStarted = false;
  lastEnded = false;
  lastHadAdaptationField = false;

  constructor(readonly pid: number) {}

  /** Whether a PES is being sent. */
  get active(): boolean {
    return this.sent < this.total;
  }

  /** Packets a PES of this header and payload needs at most (every one carrying a PCR). */
  static packetsFor(fields: PesHeaderFields, payloadLength: number): number {
    return Math.ceil((pesHeaderLength(fields) + payloadLength) / (TS_PAYLOAD_SIZE - 1 - minimumAdaptationFieldLength(0, true)));
  }

  /** Begins the PES of `payload` with the header `fields` (ISO 13818-1 2.4.3.6). */
  start(fields: PesHeaderFields, payload: Uint8Array, randomAccess: boolean): void {
    if (this.active) throw new Error(`PES on PID 0x${this.pid.toString(16)} started before the previous one ended`);
    this.headerLength = writePesHeader(this.header, 0, { ...fields, payloadLength: payload.length });
    this.payload = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    this.total = this.headerLength + payload.length;
    this.sent = 0;
    this.randomAccess = randomAccess;
  }

  /**
   * Writes the next packet of the PES at `buf[pos, pos + 188)`. With
   * `pcrSlot` the adaptation field makes room for a PCR: `pcr27MHz >= 0` is
   * written there, a negative value leaves the room as stuffing (a PCR left
   * out without moving any payload byte).
   */
  writePacket(buf: Uint8Array, pos: number, pcrSlot: boolean, pcr27MHz: number): void {
    const remaining = this.total - this.sent;
    const starts = this.sent === 0;
    const flags = starts && this.randomAccess ? AF_RANDOM_ACCESS : 0;
    let payloadBytes = TS_PAYLOAD_SIZE;
    let fieldLength = -1;
    if (flags !== 0 || pcrSlot || remaining < TS_PAYLOAD_SIZE) {
      payloadBytes = Math.min(remaining, TS_PAYLOAD_SIZE - 1 - minimumAdaptationFieldLength(flags, pcrSlot));
      fieldLength = TS_PAYLOAD_SIZE - 1 - payloadBytes;
    }
    this.cc = (this.cc + 1) & 0x0f;
    writePacketHeader(buf, pos, this.pid, starts, fieldLength < 0 ? AFC_PAYLOAD_ONLY : AFC_ADAPTATION_AND_PAYLOAD, this.cc);
    let p = pos + TS_HEADER_SIZE;
    if (fieldLength >= 0) p = writeAdaptationField(buf, p, fieldLength, flags, pcrSlot ? pcr27MHz : -1);
    let n = payloadBytes;
    if (this.sent < this.headerLength) {
      const h = Math.min(n, this.headerLength - this.sent);
      this.header.copy(buf, p, this.sent, this.sent + h);
      p += h;
      n -= h;
      this.sent += h;
    }
    if (n > 0) {
      const from = this.sent - this.headerLength;
      this.payload.copy(buf, p, from, from + n);
      this.sent += n;
    }
    this.lastStarted = starts;
    this.lastEnded = this.sent === this.total;
    this.lastHadAdaptationField = fieldLength >= 0;
  }

  /**
   * Writes a packet with only an adaptation field carrying `pcr27MHz` on
   * this PID (ISO 13818-1 2.4.3.3: no payload, so the counter keeps its value).
   */
  writePcrOnlyPacket(buf: Uint8Array, pos: number, pcr27MHz: number): void {
    writePacketHeader(buf, pos, this.pid, false, AFC_ADAPTATION_ONLY, this.cc);
    writeAdaptationField(buf, pos + TS_HEADER_SIZE, TS_PAYLOAD_SIZE - 1, 0, pcr27MHz);
  }
}
