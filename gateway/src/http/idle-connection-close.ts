/**
 * How a service closes an idle kept-alive connection (issue 35). Node closes
 * it from a timer, `keepAliveTimeoutMs` plus its own second after the last
 * answer. Two races come from an event loop busy past that timer (a long
 * synchronous job; in issue 35's fuzz run, fast-check making 33,334
 * requests for 5 to 45 s in the process serving them):
 *
 * - a request the client sent meanwhile waits unread in the socket, and
 *   closing then resets it: the client gets no answer. So the closing
 *   happens one turn of the loop later, which reads what has arrived, and
 *   only if nothing has; a request that did arrive is served under the
 *   headers and request timeouts like any other.
 * - every idle connection's timer expires at once when the loop is freed,
 *   and a client whose own timers were late too (a busy client; the fuzz
 *   runner, in the same process) still takes the connection for its next
 *   request just as the service closes it: "other side closed", no answer.
 *   So a timer that fires more than LATE_MS past its time closes nothing:
 *   the connection gets one more keep-alive period, in which the client's
 *   own keep-alive bound (2 s shorter, for undici) lets it go first.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Node keeps an idle socket this long past the bound it advertises (its HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER). */
const NODE_KEEP_ALIVE_BUFFER_MS = 1_000;
/** A timer later than this fired after a busy loop, not on time (a loaded machine's timers run late by tens of ms). */
const LATE_MS = 500;

export function installIdleConnectionClose(server: Server, keepAliveTimeoutMs: number): void {
  const keptMs = keepAliveTimeoutMs + NODE_KEEP_ALIVE_BUFFER_MS;
  /** When each connection last finished an answer: the start of its idle time. */
  const answeredAt = new WeakMap<Socket, number>();
  /** Connections given their one more period since their last answer. */
  const graced = new WeakSet<Socket>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    response.once('finish', () => {
      answeredAt.set(socket, performance.now());
      graced.delete(socket);
    });
  });
  server.on('timeout', (socket: Socket) => {
    const bytesRead = socket.bytesRead;
    const answered = answeredAt.get(socket);
    if (answered !== undefined && performance.now() - answered > keptMs + LATE_MS && !graced.has(socket)) {
      graced.add(socket);
      socket.setTimeout(keptMs);
      return;
    }
    setImmediate(() => {
      if (socket.bytesRead === bytesRead) socket.destroy();
    });
  });
}
