// The viewers of `npm run bench:stream`, in a process of their own (stream-load.mjs forks it):
// argv: the module's URL, the transport stream file the sender replays, the number of viewers
// that read, and 1 to add one that never reads. Each reading viewer is a `ws` WebSocket on
// /stream that checks its bytes against the file as they come: after the PAT and PMT copies the
// module sends first, a viewer's bytes must be the file's bytes from the random access point it
// started at, in order, none missing. A message that does not follow on is looked for further on
// in the file (the bytes skipped are lost); one not found at all is counted as wrong bytes. The
// viewer that never reads pauses its socket as soon as it is open (nothing more is read from the
// kernel), as a stalled browser tab would.
// Messages: it sends { type: 'connected' } once every viewer is open; it answers { type: 'report' }
// with each reading viewer's counts and the process's worst event-loop delay.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';

const [url, file, countText, slowText] = process.argv.slice(2);
const stream = readFileSync(file);
const count = Number(countText);
const withSlowViewer = slowText === '1';
const streamUrl = `${url.replace(/^http/, 'ws')}/stream`;

/** PAT and PMT copies come first, then the stream from a random access point (viewer-fanout.ts). */
const TABLE_MESSAGES = 2;

function readingViewer() {
  const viewer = {
    tablesSeen: 0,
    /** File offset of the viewer's first stream byte, or -1 before it. */
    start: -1,
    /** File offset of the byte expected next. */
    cursor: 0,
    matchedBytes: 0,
    wrongBytes: 0,
    /** Times bytes were missing between two messages. */
    gaps: 0,
    textMessages: 0,
    lastAt: 0,
    maxGapMs: 0,
    closeCode: null,
  };
  const socket = new WebSocket(streamUrl);
  socket.on('message', (data, isBinary) => {
    const now = performance.now();
    if (!isBinary) {
      viewer.textMessages++;
      return;
    }
    if (viewer.tablesSeen < TABLE_MESSAGES) {
      viewer.tablesSeen++;
      return;
    }
    if (viewer.start >= 0) viewer.maxGapMs = Math.max(viewer.maxGapMs, now - viewer.lastAt);
    viewer.lastAt = now;
    const end = viewer.cursor + data.length;
    if (viewer.start >= 0 && end <= stream.length && stream.compare(data, 0, data.length, viewer.cursor, end) === 0) {
      viewer.cursor = end;
      viewer.matchedBytes += data.length;
      return;
    }
    const at = stream.indexOf(data, viewer.start >= 0 ? viewer.cursor : 0);
    if (at < 0) {
      viewer.wrongBytes += data.length;
      return;
    }
    if (viewer.start < 0) viewer.start = at;
    else viewer.gaps++;
    viewer.cursor = at + data.length;
    viewer.matchedBytes += data.length;
  });
  socket.on('close', (code) => (viewer.closeCode = code));
  socket.on('error', () => undefined);
  return { viewer, opened: new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject))) };
}

// How late this process's timers ran: a pause at every viewer at once with a delay as long here is this process's stall.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
const viewers = Array.from({ length: count }, readingViewer);
const opened = viewers.map((v) => v.opened);
if (withSlowViewer) {
  const slow = new WebSocket(streamUrl);
  opened.push(new Promise((resolve, reject) => (slow.once('open', () => (slow.pause(), resolve())), slow.once('error', reject))));
  slow.on('error', () => undefined);
}
await Promise.all(opened);
loopDelay.enable();
process.send({ type: 'connected' });

process.on('message', (message) => {
  if (message.type === 'report') process.send({ type: 'report', viewers: viewers.map((v) => v.viewer), eventLoopDelayMaxMs: loopDelay.max / 1e6 });
  else if (message.type === 'stop') process.exit(0);
});
