/**
 * A loop seen at run time: the datagrams a channel sent come back to its
 * input (through a device, or a route the configuration cannot show). Each
 * datagram sent leaves a fingerprint (its length and a few bytes of each
 * TS packet's payload: a counter cycle of 16 repeats headers, not
 * payloads); an input datagram whose fingerprint was sent, among the last
 * RECENT datagrams, less than LOOP_MS before is a hit. A replay that loops
 * a short file sends the same datagrams again too, but a period later, not
 * within milliseconds. Datagrams of null packets only are left out:
 * stuffing repeats by nature.
 */
import { TS_PACKET_SIZE } from '@klvscope/core';

const RECENT = 1024;
/** A datagram back within this is a loop's: a loop through a device takes milliseconds, a replayed file's period is seconds. */
const LOOP_MS = 50;
/** Within a reading (a second), a loop is this many hits at least, and half the input at least: judged as they come, since a storm on loopback makes thousands a second. */
const MIN_HITS = 64;
const NULL_PID = 0x1fff;
/** Bytes of each packet mixed in: its counter and first payload bytes, two from the middle, the last four. */
const OFFSETS = [3, 4, 5, 6, 7, 60, 61, 120, 121, 184, 185, 186, 187];

export class LoopDetector {
  private readonly ring = new Int32Array(RECENT);
  private next = 0;
  /** Fingerprint -> how many of the ring hold it. */
  private readonly prints = new Map<number, number>();
  /** Fingerprint -> when it was last sent (ms). */
  private readonly sentAt = new Map<number, number>();
  private hits = 0;
  private arrived = 0;

  /** A datagram sent, because of an input that arrived at `now` (ms). */
  sent(bytes: Uint8Array, now: number): void {
    const print = fingerprint(bytes);
    if (print === null) return;
    const old = this.ring[this.next];
    const count = this.prints.get(old);
    if (count !== undefined) {
      if (count <= 1) {
        this.prints.delete(old);
        this.sentAt.delete(old);
      } else this.prints.set(old, count - 1);
    }
    this.sentAt.set(print, now);
    this.ring[this.next] = print;
    this.next = (this.next + 1) % RECENT;
    this.prints.set(print, (this.prints.get(print) ?? 0) + 1);
  }

  /** True when the datagrams received since the last reading came back as a loop makes them. */
  received(bytes: Uint8Array, now: number): boolean {
    const print = fingerprint(bytes);
    if (print === null) return false;
    this.arrived++;
    const sentAt = this.sentAt.get(print);
    if (sentAt === undefined || now - sentAt > LOOP_MS) return false;
    this.hits++;
    return this.hits >= MIN_HITS && this.hits * 2 >= this.arrived;
  }

  /** A reading ended: the next counts from zero. */
  reading(): void {
    this.hits = this.arrived = 0;
  }
}

function fingerprint(bytes: Uint8Array): number | null {
  let hash = 0x811c9dc5 ^ bytes.length;
  let payload = false;
  for (let at = 0; at + TS_PACKET_SIZE <= bytes.length; at += TS_PACKET_SIZE) {
    if ((((bytes[at + 1] & 0x1f) << 8) | bytes[at + 2]) !== NULL_PID) payload = true;
    for (const offset of OFFSETS) hash = Math.imul(hash ^ bytes[at + offset], 0x01000193);
  }
  if (bytes.length % TS_PACKET_SIZE !== 0 || bytes.length === 0) {
    payload = true;
    for (let at = 0; at < bytes.length; at += 61) hash = Math.imul(hash ^ bytes[at], 0x01000193);
  }
  return payload ? hash | 0 : null;
}
