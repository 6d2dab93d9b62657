/**
 * Packet loss from RTP sequence numbers (RFC 3550 5.1: the number grows by
 * one per packet, modulo 2^16; A.1 for telling loss from reordering and
 * from a sender that restarted its numbering).
 */

/** A packet this far behind the newest is reordered or duplicated, not a restart (RFC 3550 A.1 MAX_MISORDER). */
export const MAX_MISORDER = 100;

const MODULUS = 0x10000;

export class RtpSequence {
  /** Packets missing: the sum of what `accept` returned. */
  lost = 0;
  /** Packets that came after a later one (reordered or duplicated); never counted as lost, and not taken back from `lost`. */
  late = 0;
  /** Times the sender restarted its numbering: a jump far back that the next packet confirmed. */
  restarts = 0;
  /** The sequence number expected next, or -1 before the first packet. */
  private expected = -1;
  /** After a jump far back, the number that would confirm a restart; -1 otherwise. */
  private restartCandidate = -1;

  /**
   * Takes the sequence number of the next packet received and returns how
   * many packets are missing just before it: 0 when it is the one expected,
   * late, or the start of a restarted numbering.
   */
  accept(sequenceNumber: number): number {
    const next = (sequenceNumber + 1) % MODULUS;
    if (this.expected < 0) {
      this.expected = next;
      return 0;
    }
    const ahead = (sequenceNumber - this.expected + MODULUS) % MODULUS;
    // Half the number space ahead counts as ahead: a gap of up to 32767 packets, wrap-around included.
    if (ahead < MODULUS / 2) {
      this.expected = next;
      this.restartCandidate = -1;
      this.lost += ahead;
      return ahead;
    }
    if (sequenceNumber === this.restartCandidate) {
      // The packet before started a new numbering: it was counted late, and this one confirms it.
      this.late--;
      this.restarts++;
      this.expected = next;
      this.restartCandidate = -1;
      return 0;
    }
    const behind = MODULUS - ahead;
    this.restartCandidate = behind > MAX_MISORDER ? next : -1;
    this.late++;
    return 0;
  }
}
