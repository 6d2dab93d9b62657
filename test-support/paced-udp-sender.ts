/**
 * Sends a transport stream to 127.0.0.1 in 7-packet datagrams, paced at its
 * constant bit rate, and notes when each datagram left: so a test can tell
 * how long after the packet that reveals a fault was sent the page showed
 * the finding. (The adapters' replay paces by PCR but does not say when each
 * packet went.) Bounded: it ends with the stream, or after `timeoutMs`.
 */
import { createSocket } from 'node:dgram';

const TS_PACKET_BYTES = 188;
const PACKETS_PER_DATAGRAM = 7;
const TICK_MS = 4;

export interface PacedSend {
  /** Wall-clock time (ms since the epoch) at which the datagram holding this packet was handed to the socket. */
  sentAt(packetIndex: number): number;
}

export async function sendPaced(bytes: Uint8Array, port: number, bitsPerSecond: number, timeoutMs = 30_000): Promise<PacedSend> {
  const packets = Math.floor(bytes.length / TS_PACKET_BYTES);
  const datagrams = Math.ceil(packets / PACKETS_PER_DATAGRAM);
  const packetsPerMs = bitsPerSecond / (TS_PACKET_BYTES * 8) / 1000;
  const sentAt = new Float64Array(datagrams);
  const socket = createSocket('udp4');
  const start = performance.now();
  const deadline = start + timeoutMs;
  let pending = 0;
  try {
    let next = 0;
    while (next < datagrams && performance.now() < deadline) {
      const duePackets = Math.min(packets, Math.floor((performance.now() - start) * packetsPerMs) + 1);
      for (; next * PACKETS_PER_DATAGRAM < duePackets && next < datagrams; next++) {
        const from = next * PACKETS_PER_DATAGRAM * TS_PACKET_BYTES;
        const to = Math.min(bytes.length, from + PACKETS_PER_DATAGRAM * TS_PACKET_BYTES);
        sentAt[next] = performance.timeOrigin + performance.now();
        pending++;
        socket.send(bytes.subarray(from, to), port, '127.0.0.1', () => pending--);
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
    if (next < datagrams) throw new Error(`sent ${next} of ${datagrams} datagrams in ${timeoutMs} ms`);
  } finally {
    // Datagrams still queued in the socket would be dropped by closing it.
    for (let i = 0; i < 100 && pending > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
  return { sentAt: (packetIndex) => sentAt[Math.floor(packetIndex / PACKETS_PER_DATAGRAM)] };
}

/**
 * Sends a transport stream to 127.0.0.1 (or `host`: a multicast group inside
 * a private network namespace) in 7-packet datagrams at a constant bit rate,
 * from its start again at its end (as an operator's looping sender does),
 * until stopped.
 */
export function sendPacedLoop(bytes: Uint8Array, port: number, bitsPerSecond: number, host = '127.0.0.1'): { stop(): void } {
  const datagramBytes = PACKETS_PER_DATAGRAM * TS_PACKET_BYTES;
  const datagrams = Math.floor(bytes.length / datagramBytes);
  const socket = createSocket('udp4');
  const start = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor((((performance.now() - start) / 1000) * bitsPerSecond) / 8 / datagramBytes);
    for (; sent < due; sent++) {
      const at = (sent % datagrams) * datagramBytes;
      socket.send(bytes.subarray(at, at + datagramBytes), port, host);
    }
  }, TICK_MS);
  return {
    stop() {
      clearInterval(timer);
      socket.close();
    },
  };
}
