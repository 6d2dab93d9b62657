/**
 * How many connections each remote address holds open to one service, and
 * the share of its connection cap one address may hold (issue 35: a burst of
 * 10,000 WebSocket connects from one client filled the 2,000-connection cap,
 * and every other client was refused with it).
 *
 * An address is a client here: behind a reverse proxy every client comes
 * from the proxy's address and shares one share (docs/hostile-clients.md).
 */
import type { Socket } from 'node:net';

export class ConnectionShares {
  /** Only addresses with connections open: the map never outgrows the connection cap. */
  private readonly openByAddress = new Map<string, number>();

  constructor(private readonly maxPerAddress: number) {}

  /**
   * The remote address a share is counted by. An IPv4 client of a dual-stack
   * listener shows as `::ffff:a.b.c.d`: the same client as `a.b.c.d`. A
   * socket reset before it was handed over has no address; those share one.
   */
  static addressOf(socket: Socket): string {
    const address = socket.remoteAddress ?? 'unknown';
    return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  }

  /** Counts a new connection from `address`; false, counting nothing, when the address already holds its share. */
  take(address: string): boolean {
    const open = this.openByAddress.get(address) ?? 0;
    if (open >= this.maxPerAddress) return false;
    this.openByAddress.set(address, open + 1);
    return true;
  }

  /** A connection counted by `take` has closed. */
  release(address: string): void {
    const open = (this.openByAddress.get(address) ?? 0) - 1;
    if (open > 0) this.openByAddress.set(address, open);
    else this.openByAddress.delete(address);
  }
}
