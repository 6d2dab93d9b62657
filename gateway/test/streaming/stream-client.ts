/** A viewer for tests: a real WebSocket to /stream that keeps the TS bytes and the JSON messages it gets. */
import type { StreamMessage } from '@klvscope/core';
import WebSocket from 'ws';

export interface StreamClient {
  socket: WebSocket;
  /** The TS bytes received, in order. */
  bytes(): Uint8Array;
  messages: StreamMessage[];
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Waits until `condition` holds (checked at each message), or fails after `timeoutMs`. */
  until(condition: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): void;
}

export function connectViewer(baseUrl: string): Promise<StreamClient> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/stream`);
  const chunks: Buffer[] = [];
  const messages: StreamMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer, isBinary) => {
    if (isBinary) chunks.push(data);
    else messages.push(JSON.parse(data.toString('utf8')) as StreamMessage);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  const client: StreamClient = {
    socket,
    bytes: () => new Uint8Array(Buffer.concat(chunks)),
    messages,
    closed,
    until(condition, timeoutMs = 10_000, what = 'the condition') {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!condition()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs);
        waiters.add(check);
        void closed.then(check);
        check();
      });
    },
    close: () => socket.close(),
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
  });
}
