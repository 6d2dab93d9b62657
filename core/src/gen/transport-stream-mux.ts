/**
 * The constant-bitrate multiplexer: every packet slot of the stream gets
 * exactly one packet, chosen in this order:
 *
 * 1. the PCR when due (every `pcrIntervalSlots`, on the PCR PID's next PES
 *    packet, or alone in an adaptation field when that stream has nothing to
 *    send): first, so PCR intervals never exceed the configured one;
 * 2. the PAT and PMT when due;
 * 3. the elementary streams, in priority order, as soon as a unit is ready;
 * 4. a null packet (ISO 13818-1 2.4.3.3, PID 0x1FFF), which keeps the rate
 *    constant.
 *
 * The schedule depends only on the slot number, never on faults: a fault
 * that removes something puts stuffing or a null packet in its place, so a
 * faulty stream differs from a clean run of the same seed only where the
 * fault is.
 */
import type { CbrClock } from './cbr-clock.js';
import { wrapPcr27MHz } from './cbr-clock.js';
import type { ElementaryStreamChannel } from './elementary-stream-channel.js';
import type { FaultSet } from './fault-set.js';
import type { PacketInfo } from './packet-info.js';
import type { PsiCarousel } from './psi-carousel.js';
import { NULL_PID } from '../ts/pid.js';
import { TS_PACKET_SIZE } from '../ts/ts-packet.js';
import { AFC_PAYLOAD_ONLY, writePacketHeader } from './packet-header-writer.js';

/** The null packet: header, then 184 bytes of 0xFF. */
const NULL_PACKET = (() => {
  const packet = new Uint8Array(TS_PACKET_SIZE).fill(0xff);
  writePacketHeader(packet, 0, NULL_PID, false, AFC_PAYLOAD_ONLY, 0);
  return packet;
})();

export interface MuxPlan {
  clock: CbrClock;
  totalSlots: number;
  /** PAT first, then the PMT. */
  carousels: readonly PsiCarousel[];
  /** Elementary streams in priority order. */
  channels: readonly ElementaryStreamChannel[];
  pcrChannel: ElementaryStreamChannel;
  pcrIntervalSlots: number;
  /** Slot of the first PCR (after the first PAT and PMT, so a reader finds the tables first). */
  firstPcrSlot: number;
}

export class TransportStreamMux {
  private nextPcrSlot: number;

  constructor(
    private readonly plan: MuxPlan,
    private readonly faults: FaultSet,
  ) {
    this.nextPcrSlot = plan.firstPcrSlot;
  }

  /**
   * Writes the packet of `slot` at `buf[pos, pos + 188)` and describes it in
   * `info` (whose position fields the caller has set). The PCR value is the
   * CBR clock's for the packet's output index `info.outputIndex`.
   */
  writeSlot(slot: number, buf: Uint8Array, pos: number, info: PacketInfo): void {
    const plan = this.plan;
    const t = info.slotSeconds;
    const slotsLeft = plan.totalSlots - slot;

    if (slot >= this.nextPcrSlot) {
      this.nextPcrSlot += plan.pcrIntervalSlots;
      const channel = plan.pcrChannel;
      const omit = this.faults.omitsPcr(channel.pid, t);
      let pcr27MHz = -1;
      if (!omit) {
        const shift = this.faults.pcrShift27MHz(channel.pid, t);
        pcr27MHz = wrapPcr27MHz(plan.clock.pcrAtPacket(info.outputIndex) + shift);
        info.hasPcr = true;
        info.pcrShift27MHz = shift;
      }
      if (channel.ready(t, slotsLeft)) {
        channel.packetizer.writePacket(buf, pos, true, pcr27MHz);
        describePes(channel, info);
        return;
      }
      if (!omit) {
        channel.packetizer.writePcrOnlyPacket(buf, pos, pcr27MHz);
        info.pid = channel.pid;
        info.content = 'pcr-only';
        info.hasAdaptationField = true;
        return;
      }
      buf.set(NULL_PACKET, pos);
      info.pid = NULL_PID;
      return;
    }

    for (const carousel of plan.carousels) {
      if (!carousel.wants(slot)) continue;
      if (carousel.idle) {
        const omit = this.faults.omitsTable(carousel.pid, t);
        carousel.begin(omit, !omit && this.faults.corruptsTableCrc(carousel.pid, t));
      }
      const index = carousel.writeNext(buf, pos);
      if (index < 0) {
        buf.set(NULL_PACKET, pos);
        info.pid = NULL_PID;
      } else {
        info.pid = carousel.pid;
        info.content = 'psi';
        info.hasPayload = true;
        info.payloadUnitStart = index === 0;
        info.tableStart = index === 0;
      }
      return;
    }

    for (const channel of plan.channels) {
      if (!channel.ready(t, slotsLeft)) continue;
      channel.packetizer.writePacket(buf, pos, false, -1);
      describePes(channel, info);
      return;
    }

    buf.set(NULL_PACKET, pos);
    info.pid = NULL_PID;
  }
}

function describePes(channel: ElementaryStreamChannel, info: PacketInfo): void {
  const packetizer = channel.packetizer;
  info.pid = channel.pid;
  info.content = 'pes';
  info.hasPayload = true;
  info.payloadUnitStart = packetizer.lastStarted;
  info.hasAdaptationField = packetizer.lastHadAdaptationField;
  info.pesEnd = packetizer.lastEnded;
  if (packetizer.lastStarted) {
    info.pesStart = true;
    info.pesHasPts = channel.startedWithPts;
    info.randomAccess = channel.startedRandomAccess;
    info.sourceFault = channel.startedFault;
  }
}
