// Preloaded into a measured service (`node --import ./bench/memory-probe.mjs ...`) with
// KLVSCOPE_MEMORY_PROBE=FILE: every second it appends one JSON line of process.memoryUsage() in MB
// (`rss`, `heapTotal`, `heapUsed`, `external`, `arrayBuffers`), the open descriptors and the event loop's
// delay p99 over the second (`eventLoopDelayP99Ms`), so a bench can tell V8's heap from the buffers outside
// it (what /proc/PID/status alone cannot).
import { appendFileSync, readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.KLVSCOPE_MEMORY_PROBE;
if (file) {
  const startedAt = Date.now();
  const mb = (bytes) => Math.round((bytes / 1_048_576) * 10) / 10;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    const usage = process.memoryUsage();
    const sample = { t: (Date.now() - startedAt) / 1_000, rss: mb(usage.rss), heapTotal: mb(usage.heapTotal), heapUsed: mb(usage.heapUsed), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers), fds: readdirSync('/proc/self/fd').length, eventLoopDelayP99Ms: Math.round(delay.percentile(99) / 1e4) / 100 };
    delay.reset();
    appendFileSync(file, `${JSON.stringify(sample)}\n`);
  }, 1_000).unref();
}
