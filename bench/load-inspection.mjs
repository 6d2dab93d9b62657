// `npm run bench:load`: the inspection service under load, on 127.0.0.1 only.
// Starts `klvscope serve` (the built bundle) on a temporary data folder, inspects a generated
// 20-second stream with KLV once (so the answers below come from the cache), then runs
// autocannon with 100 concurrent connections for LOAD_SECONDS (default 20) on a cached
// detail endpoint and on a raw dataset export, and prints requests/s, p99 latency and the
// number of error responses (the target is none).
import autocannon from 'autocannon';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream } from '../core/dist/index.js';
import { startService } from './service-child.mjs';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);

const work = mkdtempSync(join(tmpdir(), 'klvscope-load-'));
const dataDir = join(work, 'data');
const file = join(work, 'flight.ts');
writeFileSync(file, generateTransportStream({ durationSeconds: 20, bitrate: 4_000_000, seed: 1, klv: { carriage: 'async' } }).bytes);

const service = await startService(dataDir, { stderr: 'inherit' });
try {
  const { base, key, call } = service;
  await call('PATCH', '/config', { browseRoots: [work] });
  const inspected = await call('POST', '/automation/file-session/inspect', { filePath: file });
  const detail = `${base}/analysis/file/mpegts-pcr-intervals?filePath=${encodeURIComponent(file)}&limit=100`;
  const dataset = `${base}/automation/ingest-runs/${inspected.latestIngestRunId}/mpegts/pcr-values?limit=100`;
  await call('GET', detail.slice(base.length));

  console.log(`klvscope load — ${CONNECTIONS} connections for ${SECONDS} s each, node ${process.version}, server on 127.0.0.1`);
  for (const [label, url] of [
    ['cached detail endpoint (mpegts-pcr-intervals, 100 points)', detail],
    ['dataset export (mpegts/pcr-values, 100 rows, JSON)', dataset],
  ]) {
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { 'x-api-key': key } });
    const errors = result.non2xx + result.errors + result.timeouts;
    console.log(`  ${label}`);
    console.log(`    ${Math.round(result.requests.average).toLocaleString('en-US')} requests/s, p99 ${result.latency.p99} ms, p50 ${result.latency.p50} ms, ${result.requests.total.toLocaleString('en-US')} requests, ${errors} errors or non-2xx`);
    if (errors > 0) process.exitCode = 1;
  }
} finally {
  await service.stop();
  rmSync(work, { recursive: true, force: true });
}
