// Child process of bench/run.mjs: demuxes FILE with its KLV decoded (MISB ST 1402
// carriage, every observation produced). With --decoder it then decodes the
// KLV packets it gathered again in memory, to isolate the KLV decoder's own
// rate (a separate run, so that the loop does not count in the wall time).
// With --no-klv-fields it makes what the checks' run makes (measure-checks.mjs):
// every observation but the klv-field ones, which no check reads.
import { readFileChunks } from '@klvscope/adapters';
import { createKlvAwareTsDemuxer, observeKlvPacket } from '@klvscope/core';
import { statSync } from 'node:fs';

const path = process.argv[2];
const half = statSync(path).size / 2;
const isolateDecoder = process.argv.includes('--decoder');
const klvFields = !process.argv.includes('--no-klv-fields');
let bytes = 0;
let observations = 0;
let klvPackets = 0;
let klvBytes = 0;
/** The KLV packets, kept only with --decoder: holding them would cost the timed run memory and GC. */
const raws = [];
const start = performance.now();
/** When the first half of the file was done: the second half shows the rate once the JIT has warmed up. */
let halfDoneAt = NaN;
const demuxer = createKlvAwareTsDemuxer((o) => {
  observations++;
  if (o.kind !== 'klv-packet') return;
  klvPackets++;
  klvBytes += o.raw.length;
  if (isolateDecoder) raws.push(o.raw);
}, { klvFields });
for await (const chunk of readFileChunks(path)) {
  bytes += chunk.bytes.length;
  demuxer.push(chunk.bytes);
  if (Number.isNaN(halfDoneAt) && bytes >= half) halfDoneAt = performance.now();
}
demuxer.end();
const endAt = performance.now();
const inProcessMs = endAt - start;

const origin = { offset: 0, packetIndex: 0, pts90kHz: null };
let decoded = 0;
let rounds = 0;
const decodeStart = performance.now();
// At least 0.5 s of decoding, so the rate is not dominated by timer resolution.
while (isolateDecoder && raws.length > 0 && (rounds === 0 || performance.now() - decodeStart < 500)) {
  for (let i = 0; i < raws.length; i++) {
    observeKlvPacket(raws[i], 0, raws[i].length, { pid: 0x102, klvIndex: i, carriage: 'async', origin }, () => decoded++);
  }
  rounds++;
}
const decodeMs = performance.now() - decodeStart;
console.log(JSON.stringify({
  bytes,
  observations,
  klvPackets,
  klvBytes,
  inProcessMs,
  secondHalfMs: endAt - halfDoneAt,
  decodeRounds: rounds,
  decodeMs,
  decodedObservations: decoded,
  maxRssKb: process.resourceUsage().maxRSS,
}));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
