// The streaming module under test, in a process of its own (so that its CPU and memory are its
// own), for `npm run bench:stream` (stream-load.mjs forks it with an IPC channel). It starts the
// built module (gateway/dist) on 127.0.0.1 at a free port, with the source URL given as argv[2]
// ('demo': none, so the module plays its built-in demo) and the data folder argv[3], and keeps
// the latency of each chunk from its arrival to its bytes handed to the viewers' sockets
// (onViewerSend) in a bounded histogram: two of them, before and after the module first dropped
// a viewer for not reading.
// Messages: it sends { type: 'ready', url }; it answers { type: 'status' } with the viewer
// counts and { type: 'report' } with the histograms, its CPU, its peak RSS and its worst
// event-loop delay since { type: 'measure' }.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startStreamingServer } from '../gateway/dist/streaming/start-streaming-server.js';
import { LatencyHistogram } from './latency-histogram.mjs';

const source = process.argv[2] === 'demo' ? null : process.argv[2];
const dataDir = process.argv[3];
const beforeDrop = new LatencyHistogram();
const afterDrop = new LatencyHistogram();
let droppedAt = null;
let server = null;
// How late its timers ran from 'measure' on: a stall of this process (a long task, a GC pause, no CPU given) shows here.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

const onViewerSend = (latencyMs) => {
  if (server === null || server.module.droppedViewers === 0) beforeDrop.add(latencyMs);
  else {
    droppedAt ??= Date.now();
    afterDrop.add(latencyMs);
  }
};

server = await startStreamingServer({ dataDir, port: 0, env: {}, config: { source, concurrentClients: 60 }, onViewerSend });

process.on('message', (message) => {
  if (message.type === 'measure') loopDelay.enable();
  else if (message.type === 'status') {
    process.send({ type: 'status', viewers: server.module.viewerCount, dropped: server.module.droppedViewers, droppedAt, source: server.module.sourceStatusNow.state });
  } else if (message.type === 'report') {
    const cpu = process.cpuUsage();
    process.send({
      type: 'report',
      viewers: server.module.viewerCount,
      dropped: server.module.droppedViewers,
      droppedAt,
      beforeDrop: beforeDrop.summary(),
      afterDrop: afterDrop.summary(),
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      eventLoopDelayMaxMs: loopDelay.max / 1e6,
    });
  }
});
process.send({ type: 'ready', url: server.url });
