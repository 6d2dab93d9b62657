/**
 * One UDP output of a relay: datagrams sent as they come (no pacing: the
 * input's own timing passes through), to a unicast address or a multicast
 * group with its TTL and outgoing interface (udp-destination-url.ts).
 *
 * Sends never throw and never wait: a refused send is counted and its
 * message kept, so an output that cannot be reached reports its error while
 * the relay goes on with the other outputs. The socket is connected: a
 * unicast destination with no receiver reports ECONNREFUSED (the ICMP port
 * unreachable it answers), which is an output error too. Node copies nothing: the bytes
 * given must stay unchanged until the send's callback, which the relay
 * guarantees by never reusing a received datagram.
 */
import type { Socket } from 'node:dgram';
import { openConnectedUdpSocket } from './connected-udp-socket.js';
import { socketError } from './socket-error.js';
import { parseUdpDestinationUrl, type UdpDestination } from './udp-destination-url.js';

/** Enough for a burst of a 100 Mb/s input without ENOBUFS. */
const SEND_BUFFER_BYTES = 4 * 1024 * 1024;

export class UdpDatagramSink {
  /** Datagrams the system took. */
  datagrams = 0;
  bytes = 0;
  sendErrors = 0;
  /** The message of the last refused send, or null; cleared by the next send that succeeds. */
  lastError: string | null = null;
  /** When the last send error happened (ms since the epoch), or null. */
  lastErrorAt: number | null = null;

  private closed = false;

  private constructor(
    readonly url: string,
    readonly destination: UdpDestination,
    private readonly socket: Socket,
  ) {}

  /**
   * Binds a socket (to the interface address when given) and sets its TTL and
   * multicast interface. Errors: AdapterError ERR_DESTINATION_URL_INVALID
   * (the URL), ERR_SOCKET (bind or option refused, with the errno).
   */
  static async open(url: string): Promise<UdpDatagramSink> {
    const destination = parseUdpDestinationUrl(url);
    const socket = await openConnectedUdpSocket(url, destination, SEND_BUFFER_BYTES);
    const sink = new UdpDatagramSink(url, destination, socket);
    // Errors of sends go to their callbacks; this keeps any other from crashing the process.
    socket.on('error', (error) => sink.refused(error));
    return sink;
  }

  /** Sends one datagram; its outcome is counted when the system answers. */
  send(bytes: Uint8Array): void {
    if (this.closed) return;
    const length = bytes.length;
    this.socket.send(bytes, (error) => {
      if (error) {
        this.refused(error);
        return;
      }
      this.datagrams++;
      this.bytes += length;
      this.lastError = null;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }

  private refused(error: Error): void {
    this.sendErrors++;
    this.lastError = socketError(error, `send to ${this.destination.host}:${this.destination.port}`, this.url).message;
    this.lastErrorAt = Date.now();
  }
}
