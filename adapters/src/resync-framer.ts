/**
 * The common part of the serial framers: bytes arrive in arbitrary pieces
 * with noise anywhere; what leaves is whole packets only, back to back, and
 * an account of every byte skipped. A framer keeps at most one unfinished
 * packet between pieces, so its memory is bounded by the largest packet it
 * accepts. The packet rules themselves (a KLV triplet, a TS packet) live in
 * the subclasses.
 */

/** A run of skipped bytes, as found in one push. */
export interface NoiseRun {
  /** Bytes skipped. */
  count: number;
  /** Index in the push's `bytes` of the first packet byte after the noise (`bytes.length` when none followed yet). */
  at: number;
  /** Why the bytes were skipped (one reason, or several joined by '; '). */
  message: string;
}

/** What one push (or the final flush) produced. */
export interface FramedBytes {
  /** Whole packets back to back; a fresh array the caller owns (empty when none was completed). */
  bytes: Uint8Array;
  /** The noise skipped, in stream order. Counted once: bytes held for later are not in it. */
  noise: NoiseRun[];
}

/** Where a framing pass stopped: bytes before `next` are dealt with; the pass wants `need` bytes from `next` before it runs again. */
export interface FrameStop {
  next: number;
  /** 0 when any new byte may settle the question. */
  need: number;
}

/** What a framing pass reports into. */
export interface FrameSink {
  packet(start: number, end: number): void;
  noise(start: number, count: number, reason: string): void;
}

export abstract class ResyncFramer {
  private buffer = new Uint8Array(4096);
  private length = 0;
  /** Bytes to hold before the next pass can decide anything (a long packet still arriving). */
  private need = 0;

  /** Bytes held for a packet not yet complete or not yet confirmed. */
  get pending(): number {
    return this.length;
  }

  push(chunk: Uint8Array): FramedBytes {
    if (chunk.length === 0) return { bytes: new Uint8Array(0), noise: [] };
    this.append(chunk);
    // Waiting for the rest of a long packet: no need to rescan what is held on every small read.
    if (this.length < this.need) return { bytes: new Uint8Array(0), noise: [] };
    return this.run(false);
  }

  /** No more bytes will come: what is held becomes a packet if it is one, noise otherwise. */
  flush(): FramedBytes {
    const framed = this.run(true);
    this.length = 0;
    this.need = 0;
    return framed;
  }

  /** The most bytes held between pushes (the bound on `pending`). */
  abstract get maxPending(): number;

  /** Frames `bytes[0, end)`; with `final`, nothing is held back. */
  protected abstract frame(bytes: Uint8Array, end: number, final: boolean, sink: FrameSink): FrameStop;

  private run(final: boolean): FramedBytes {
    const packets: number[] = [];
    const noise: Array<NoiseRun & { end: number }> = [];
    let outLength = 0;
    const sink: FrameSink = {
      packet: (start, end) => {
        packets.push(start, end);
        outLength += end - start;
      },
      noise: (start, count, reason) => {
        if (count <= 0) return;
        const last = noise.at(-1);
        // One run per stretch of noise with no packet inside it.
        if (last && last.at === outLength && last.end === start) {
          last.count += count;
          last.end += count;
          if (!last.message.split('; ').includes(reason)) last.message += `; ${reason}`;
          return;
        }
        noise.push({ count, at: outLength, message: reason, end: start + count });
      },
    };
    const stop = this.frame(this.buffer, this.length, final, sink);
    if (final && stop.next < this.length) sink.noise(stop.next, this.length - stop.next, 'bytes left over at the end of the stream');
    const bytes = new Uint8Array(outLength);
    let at = 0;
    for (let i = 0; i < packets.length; i += 2) {
      bytes.set(this.buffer.subarray(packets[i], packets[i + 1]), at);
      at += packets[i + 1] - packets[i];
    }
    this.compact(stop.next);
    this.need = stop.need;
    return { bytes, noise: noise.map(({ count, at: where, message }) => ({ count, at: where, message })) };
  }

  private append(chunk: Uint8Array): void {
    if (this.length + chunk.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.length + chunk.length, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.length);
    this.length += chunk.length;
  }

  private compact(next: number): void {
    if (next >= this.length) {
      this.length = 0;
    } else if (next > 0) {
      this.buffer.copyWithin(0, next, this.length);
      this.length -= next;
    }
    // A buffer grown for one large read goes back to a modest size once it is drained.
    if (this.length === 0 && this.buffer.length > 1 << 20) this.buffer = new Uint8Array(4096);
  }
}
