/**
 * Sends datagrams to one UDP destination, each at its due time on the
 * `performance.now()` clock. Due times are absolute, so lateness never adds
 * up: every datagram that is due goes at once, then the sender sleeps on a
 * timer until the next one is due, never early.
 *
 * Timers only, no `setImmediate` spinning for the last millisecond: measured
 * at 100 Mb/s (9 500 datagrams/s) on a 2-core VM, spinning took a whole core
 * and made lateness worse (p99 11 ms, against 2-4 ms with timers at 11-14 %
 * of a core), since the receiver and the system lost that core; the VM's own
 * timer jitter (setTimeout(1) fires at p99 3.5 ms) is the floor either way.
 *
 * Datagrams are written by the caller into a ring of preallocated buffers;
 * a buffer is reused only once its send has completed, so at most
 * `SLOTS` datagrams are ever buffered here, whatever the network does.
 * Send errors are counted, not thrown: a replay goes on when a receiver
 * is missing for a while (ECONNREFUSED) or a buffer overflows (ENOBUFS).
 */
import type { Socket } from 'node:dgram';
import { openConnectedUdpSocket } from './connected-udp-socket.js';
import type { UdpDestination } from './udp-destination-url.js';

/** Datagrams in flight at most: sent but not yet confirmed by their callback (a few, unless the kernel queue is full). */
const SLOTS = 256;
/** How much later than asked a Node timer usually fires (its clock counts whole milliseconds). */
const TIMER_LATENESS_MS = 1;
/** Sends in a row without a pause before the event loop gets a turn (signals, timers, send callbacks). */
const SENDS_BETWEEN_TURNS = 64;
/** A socket send buffer that absorbs a burst of late datagrams. */
const SEND_BUFFER_BYTES = 4 * 1024 * 1024;

export class PacedDatagramSender {
  /** Datagrams the system took (a refused send is taken back when its error arrives). */
  datagrams = 0;
  /** UDP payload bytes of those datagrams. */
  bytes = 0;
  /** Sends the system refused. */
  sendErrors = 0;
  /** The message of the last send error, or null. */
  lastSendError: string | null = null;
  /** The most any datagram went later than due. */
  maxLatenessMs = 0;

  private readonly slots: Uint8Array[];
  /** The length sent from each slot, to take back a refused send. */
  private readonly lengths = new Int32Array(SLOTS);
  private slot = 0;
  private inFlight = 0;
  private sendsSinceTurn = 0;
  private slotFreed: (() => void) | null = null;
  private sleeper: (() => void) | null = null;
  private sleepTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly socket: Socket,
    datagramCapacity: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.slots = Array.from({ length: SLOTS }, () => new Uint8Array(datagramCapacity));
    signal?.addEventListener('abort', this.wake, { once: true });
  }

  /** A socket bound to the interface address (when given), with the TTL set, connected to the destination. Errors: AdapterError ERR_SOCKET. */
  static async open(url: string, destination: UdpDestination, datagramCapacity: number, signal?: AbortSignal): Promise<PacedDatagramSender> {
    const socket = await openConnectedUdpSocket(url, destination, SEND_BUFFER_BYTES);
    // Errors of sends go to their callbacks; this keeps any other from crashing the process.
    socket.on('error', () => undefined);
    return new PacedDatagramSender(socket, datagramCapacity, signal);
  }

  /** The buffer to write the next datagram into: free once `send` returned null or its promise resolved. */
  get buffer(): Uint8Array {
    return this.slots[this.slot];
  }

  /**
   * Sends the first `length` bytes of `buffer` when `dueMs` comes
   * (`performance.now()` clock; -Infinity for at once). Returns null when
   * the next buffer may be written at once, else a promise to wait for.
   * After an abort, nothing more is sent.
   */
  send(length: number, dueMs: number): Promise<void> | null {
    if (dueMs > performance.now()) return this.sendWhenDue(length, dueMs);
    this.sendNow(length, dueMs);
    if (this.inFlight === SLOTS) return this.nextSlotFree();
    if (++this.sendsSinceTurn >= SENDS_BETWEEN_TURNS) {
      this.sendsSinceTurn = 0;
      return new Promise((resolve) => setImmediate(resolve));
    }
    return null;
  }

  /** Waits for the sends in flight, then closes the socket. */
  async close(): Promise<void> {
    this.signal?.removeEventListener('abort', this.wake);
    while (this.inFlight > 0) await this.nextSlotFree();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private async sendWhenDue(length: number, dueMs: number): Promise<void> {
    for (;;) {
      const waitMs = dueMs - performance.now();
      if (waitMs <= 0 || this.signal?.aborted) break;
      // Node timers count whole milliseconds and fire late rather than early: aim a millisecond early, then look again.
      await this.sleep(Math.max(1, waitMs - TIMER_LATENESS_MS));
    }
    this.sendsSinceTurn = 0;
    if (this.signal?.aborted) return;
    this.sendNow(length, dueMs);
    if (this.inFlight === SLOTS) await this.nextSlotFree();
  }

  private sendNow(length: number, dueMs: number): void {
    const latenessMs = performance.now() - dueMs;
    if (latenessMs > this.maxLatenessMs && dueMs > -Infinity) this.maxLatenessMs = latenessMs;
    this.socket.send(this.slots[this.slot].subarray(0, length), this.sent);
    this.lengths[this.slot] = length;
    this.inFlight++;
    this.datagrams++;
    this.bytes += length;
    this.slot = this.slot + 1 === SLOTS ? 0 : this.slot + 1;
  }

  private readonly sent = (error: Error | null): void => {
    // Sends complete in order, so this one is the oldest in flight.
    const slot = (this.slot - this.inFlight + SLOTS) % SLOTS;
    this.inFlight--;
    if (error) {
      this.sendErrors++;
      this.lastSendError = error.message;
      this.datagrams--;
      this.bytes -= this.lengths[slot];
    }
    const freed = this.slotFreed;
    this.slotFreed = null;
    freed?.();
  };

  private nextSlotFree(): Promise<void> {
    return new Promise((resolve) => (this.slotFreed = resolve));
  }

  /** A timer of `ms`, cut short by an abort. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.sleeper = resolve;
      this.sleepTimer = setTimeout(this.wake, ms);
    });
  }

  private readonly wake = (): void => {
    if (this.sleepTimer !== null) clearTimeout(this.sleepTimer);
    this.sleepTimer = null;
    const sleeper = this.sleeper;
    this.sleeper = null;
    sleeper?.();
  };
}
