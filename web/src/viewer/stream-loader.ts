/**
 * mpegts.js's loader for the streaming module's `/stream` WebSocket. The
 * socket carries MPEG-TS bytes (binary messages) and JSON StreamMessages
 * (text messages) in one order; mpegts.js's own WebSocket loader takes only
 * bytes and fails on text, so this one hands the bytes to mpegts.js and the
 * text to the page. It runs on the main thread: mpegts.js must not be given
 * `enableWorker`, which would need the loader class inside a worker.
 */
import type { StreamMessage } from '@klvscope/core/browser';
import mpegts from 'mpegts.js';

export interface StreamSocketHandlers {
  onMessage: (message: StreamMessage, arrivedMs: number) => void;
  /** TS bytes as they arrive, before mpegts.js gets them. */
  onBytes: (chunk: Uint8Array) => void;
  /** The socket closed without the player asking: the server's close code and reason (1013: the viewer limit). */
  onClose: (code: number, reason: string) => void;
}

/** A loader class (mpegts.js's `customLoader`) bound to the page's handlers. */
export function streamLoaderFor(handlers: StreamSocketHandlers): mpegts.CustomLoaderConstructor {
  return class StreamLoader extends mpegts.BaseLoader {
    private socket: WebSocket | null = null;
    private receivedBytes = 0;

    constructor() {
      super('klvscope-stream-loader');
      // Deliver bytes as they come: the live stream is already paced by the server.
      this._needStash = false;
    }

    override open(dataSource: mpegts.MediaSegment): void {
      const socket = new WebSocket(dataSource.url);
      this.socket = socket;
      socket.binaryType = 'arraybuffer';
      this._status = mpegts.LoaderStatus.kConnecting;
      socket.onopen = () => {
        this._status = mpegts.LoaderStatus.kBuffering;
      };
      socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
        // Messages already queued when the player let go of this socket.
        if (this.socket !== socket) return;
        if (typeof event.data === 'string') {
          handlers.onMessage(JSON.parse(event.data) as StreamMessage, performance.now());
          return;
        }
        handlers.onBytes(new Uint8Array(event.data));
        const start = this.receivedBytes;
        this.receivedBytes += event.data.byteLength;
        this.onDataArrival(event.data, start, this.receivedBytes);
      };
      socket.onclose = (event) => {
        if (this.socket !== socket) return;
        this.socket = null;
        this._status = mpegts.LoaderStatus.kComplete;
        handlers.onClose(event.code, event.reason);
        this.onComplete(0, this.receivedBytes - 1);
      };
    }

    override abort(): void {
      const socket = this.socket;
      this.socket = null;
      if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
      this._status = mpegts.LoaderStatus.kComplete;
    }

    override destroy(): void {
      this.abort();
      super.destroy();
    }
  };
}
