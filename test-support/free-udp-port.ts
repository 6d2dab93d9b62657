/** A UDP port free on 127.0.0.1 now (bound by the system, then released), for a live source in a test. */
import { createSocket } from 'node:dgram';

export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}
