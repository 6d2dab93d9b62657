/**
 * A PSI table repeated at a fixed cadence (ISO 13818-1 2.4.4; TR 101 290
 * 1.3/1.5 want PAT and PMT at least every 0.5 s). The packets are built once;
 * sending one copies it and sets its continuity counter.
 */
import { TS_PACKET_SIZE } from '../ts/ts-packet.js';
import { nextContinuityCounter } from './packet-header-writer.js';
import { packetizeSection } from './psi-packetizer.js';

export class PsiCarousel {
  private readonly packets: Uint8Array;
  private readonly corruptPackets: Uint8Array;
  readonly packetCount: number;
  private cc = 0x0f;
  /** Index of the next packet of the repetition being sent, or -1. */
  private cursor = -1;
  private omitting = false;
  private corrupting = false;
  private nextDueSlot: number;

  constructor(
    readonly pid: number,
    section: Uint8Array,
    /** Slots between repetitions. */
    private readonly intervalSlots: number,
    /** Slot of the first repetition. */
    firstSlot: number,
  ) {
    this.packets = packetizeSection(pid, section);
    // ISO 13818-1 Annex A: inverting the last CRC byte makes the section fail the check.
    const corrupt = section.slice();
    corrupt[corrupt.length - 1] ^= 0xff;
    this.corruptPackets = packetizeSection(pid, corrupt);
    this.packetCount = this.packets.length / TS_PACKET_SIZE;
    this.nextDueSlot = firstSlot;
  }

  /** Whether the carousel has a packet to send in `slot`. */
  wants(slot: number): boolean {
    return this.cursor >= 0 || slot >= this.nextDueSlot;
  }

  /** Starts a repetition; `omit` sends null packets in its place, `corrupt` sends the section with a bad CRC. */
  begin(omit: boolean, corrupt: boolean): void {
    this.cursor = 0;
    this.omitting = omit;
    this.corrupting = corrupt;
    // Keep the grid: a repetition sent a slot late does not delay the next one.
    this.nextDueSlot += this.intervalSlots;
  }

  /** Whether no repetition is being sent (so the next `wants` is a new one). */
  get idle(): boolean {
    return this.cursor < 0;
  }

  /**
   * Writes the next packet of the repetition at `buf[pos]` and returns its
   * index in the section's packets (0 starts the section), or -1 when the
   * repetition is omitted (the caller writes a null packet; the counter does
   * not advance, ISO 13818-1 2.4.3.3).
   */
  writeNext(buf: Uint8Array, pos: number): number {
    const index = this.cursor;
    this.cursor = index + 1 < this.packetCount ? index + 1 : -1;
    if (this.omitting) return -1;
    const from = index * TS_PACKET_SIZE;
    buf.set((this.corrupting ? this.corruptPackets : this.packets).subarray(from, from + TS_PACKET_SIZE), pos);
    this.cc = nextContinuityCounter(this.cc);
    buf[pos + 3] = (buf[pos + 3] & 0xf0) | this.cc;
    return index;
  }
}
