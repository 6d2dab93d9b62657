/**
 * A UDP socket for sending to one destination: bound to the interface
 * address (when given), with the TTL (or a group's TTL and outgoing
 * interface) set, a large send buffer asked for, and connected, so that a
 * send skips Node's per-datagram address lookup. Used by the replay's paced
 * sender and the relay's outputs. Errors: AdapterError ERR_SOCKET naming the
 * step that failed.
 */
import { createSocket, type Socket } from 'node:dgram';
import { socketError } from './socket-error.js';
import type { UdpDestination } from './udp-destination-url.js';

export async function openConnectedUdpSocket(url: string, destination: UdpDestination, sendBufferBytes: number): Promise<Socket> {
  const socket = createSocket({ type: 'udp4' });
  let step = 'bind';
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ port: 0, address: destination.interfaceAddress ?? undefined }, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    step = 'set the TTL or interface';
    if (destination.multicast) {
      if (destination.interfaceAddress !== null) socket.setMulticastInterface(destination.interfaceAddress);
      socket.setMulticastTTL(destination.ttl ?? 1);
    } else if (destination.ttl !== null) {
      socket.setTTL(destination.ttl);
    }
    try {
      socket.setSendBufferSize(sendBufferBytes);
    } catch {
      // The kernel's default is smaller but works.
    }
    step = `send to ${destination.host}:${destination.port}`;
    await new Promise<void>((resolve, reject) => {
      socket.connect(destination.port, destination.host, (error?: Error) => (error ? reject(error) : resolve()));
    });
  } catch (cause) {
    try {
      socket.close();
    } catch {
      // Never bound: nothing to release.
    }
    throw socketError(cause, step, url);
  }
  return socket;
}
