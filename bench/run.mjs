// `npm run bench`: throughput and peak memory of the engine on a generated
// ~200 MB stream (cached in .bench-cache/). Each figure is a whole process,
// timed from spawn to exit (Node start-up included), median of several runs;
// the baseline is a plain read of the same file through the same file adapter.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureStream } from './stream-cache.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function measure(script, args) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const child = spawnSync(process.execPath, [join(here, 'dist', script), ...args], { encoding: 'utf8' });
    const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
    if (child.status !== 0) throw new Error(`${script} failed: ${child.stderr}`);
    runs.push({ wallMs, ...JSON.parse(child.stdout.trim().split('\n').pop()) });
  }
  runs.sort((a, b) => a.wallMs - b.wallMs);
  const median = runs[Math.floor(runs.length / 2)];
  return { ...median, peakRssMb: Math.max(...runs.map((r) => r.maxRssKb)) / 1024 };
}

const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const cacheDir = join(here, '..', '.bench-cache');
mkdirSync(cacheDir, { recursive: true });
const big = await ensureStream(cacheDir, 'ts-200mb', { durationSeconds: 160, bitrate: 10_000_000 });
const small = await ensureStream(cacheDir, 'ts-20mb', { durationSeconds: 16, bitrate: 10_000_000 });

console.log(`klvscope bench — node ${process.version}, ${RUNS} runs each, median whole-process wall time`);
for (const file of [big, small]) {
  const size = statSync(file).size;
  const read = measure('measure-read.mjs', [file]);
  const demux = measure('measure-demux.mjs', [file]);
  console.log(`\n${file.split('/').pop()}: ${fmt(size / 1e6, 1)} MB, ${fmt(demux.packets)} packets, ${fmt(demux.observations)} observations`);
  console.log(`  read (baseline)   ${fmt(mbps(size, read.wallMs)).padStart(6)} MB/s  (${fmt(read.wallMs)} ms)   peak RSS ${fmt(read.peakRssMb)} MB`);
  console.log(`  demux             ${fmt(mbps(size, demux.wallMs)).padStart(6)} MB/s  (${fmt(demux.wallMs)} ms)   peak RSS ${fmt(demux.peakRssMb)} MB`);
  console.log(`  demux / read      ${fmt(read.wallMs / demux.wallMs, 2)}   (in-process demux ${fmt(mbps(size, demux.inProcessMs))} MB/s)`);
}
if (!existsSync(big)) process.exitCode = 1;
