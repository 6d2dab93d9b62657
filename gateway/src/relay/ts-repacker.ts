/**
 * Re-packs a TS byte stream into datagrams of 7 × 188 bytes (the usual
 * 1316-byte payload), whatever sizes the input datagrams have. Bytes that
 * do not fill a datagram wait for the next input, or go out as a short
 * datagram at flush() (the channel flushes after a short silence and at
 * stop, so the end of a feed is not kept back).
 */
import { TS_PACKET_SIZE } from '@klvscope/core';

export const PACKETS_PER_DATAGRAM = 7;
const DATAGRAM_BYTES = PACKETS_PER_DATAGRAM * TS_PACKET_SIZE;

export class TsRepacker {
  private pending = new Uint8Array(DATAGRAM_BYTES);
  private filled = 0;

  /** The complete datagrams the input makes; each a fresh buffer (a send keeps it until its callback). */
  push(bytes: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(DATAGRAM_BYTES - this.filled, bytes.length - at);
      this.pending.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === DATAGRAM_BYTES) {
        out.push(this.pending);
        this.pending = new Uint8Array(DATAGRAM_BYTES);
        this.filled = 0;
      }
    }
    return out;
  }

  /** The bytes waiting (a short datagram, a fresh buffer), or null when none. */
  flush(): Uint8Array | null {
    if (this.filled === 0) return null;
    const rest = this.pending.slice(0, this.filled);
    this.filled = 0;
    return rest;
  }
}
