/**
 * A raw TCP connection to a service on 127.0.0.1 that keeps whatever the
 * server answers, for tests that write requests byte by byte or watch when
 * the server closes (hostile clients, kept-alive connections).
 */
import { connect, type Socket } from 'node:net';

export interface RawHttpClient {
  socket: Socket;
  /** Everything the server has sent so far. */
  received: () => string;
  /** Whether the server (or a reset) has closed the connection. */
  closed: () => boolean;
}

/**
 * Connects; resolves once connected. A later error (a reset) only shows as
 * the connection closed. `localAddress` binds the client's end to another
 * loopback address (127.0.0.2, 127.0.0.3, … are all loopback on Linux): to
 * the service, another client.
 */
export function rawHttpClient(port: number, localAddress?: string): Promise<RawHttpClient> {
  return new Promise((resolve, reject) => {
    let text = '';
    let closed = false;
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => resolve({ socket, received: () => text, closed: () => closed }));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => (closed = true));
    // Before the connection is made an error fails the promise; after it, rejecting is a no-op.
    socket.on('error', reject);
  });
}
