/**
 * Not a test: measures how fast observations go into a run database and
 * come back out (rows/s), per common kind and for the mix of a generated
 * stream with KLV. Run it with
 *   node --conditions=source --import tsx core/test/store/datasets/measure-dataset-rates.ts
 */
import type { Database } from 'sql.js';
import type { Observation } from '../../../src/kernel/observations.js';
import { exportDataset } from '../../../src/store/datasets/dataset-export.js';
import { replayObservations } from '../../../src/store/datasets/observation-replay.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { generatedObservations } from './generated-observations.js';
import { runDatabaseInMemory } from './run-database-in-memory.js';

function rate(rows: number, ms: number): string {
  return `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s`;
}

function insert(db: Database, observations: Iterable<Observation>): { rows: number; ms: number } {
  const started = performance.now();
  const writer = createObservationWriter(db);
  let rows = 0;
  for (const o of observations) {
    writer.write(o);
    rows++;
  }
  writer.finish();
  return { rows, ms: performance.now() - started };
}

function replay(db: Database): { rows: number; ms: number } {
  const started = performance.now();
  let rows = 0;
  for (const _ of replayObservations(db)) rows++;
  return { rows, ms: performance.now() - started };
}

/** Best of three runs (the first ones warm the JIT up). */
async function measure(label: string, observations: () => Iterable<Observation>): Promise<void> {
  let bestInsert = Infinity;
  let bestReplay = Infinity;
  let rows = 0;
  for (let round = 0; round < 3; round++) {
    const db = await runDatabaseInMemory();
    const written = insert(db, observations());
    const back = replay(db);
    rows = written.rows;
    bestInsert = Math.min(bestInsert, written.ms);
    bestReplay = Math.min(bestReplay, back.ms);
    db.close();
  }
  console.log(`${label.padEnd(40)} ${String(rows).padStart(8)} rows  insert ${rate(rows, bestInsert).padStart(18)}  replay ${rate(rows, bestReplay).padStart(18)}`);
}

const COUNT = 1_000_000;
const at = (i: number) => ({ offset: i * 188, packetIndex: i, t: i * 1e-4 });

// Made as they are written, as the demuxer does: a million kept objects would measure the garbage collector.
function* synthetic(make: (i: number) => Observation): Generator<Observation> {
  for (let i = 0; i < COUNT; i++) yield make(i);
}

await measure('pcr (synthetic)', () => synthetic((i) => ({ kind: 'pcr', pid: 0x100, pcr27MHz: 97_200_000_000 + i * 2700, discontinuity: false, ...at(i) })));
await measure('pes (synthetic)', () =>
  synthetic((i) => ({
    kind: 'pes',
    pid: 0x100,
    streamId: 0xe0,
    pesPacketLength: 0,
    pts90kHz: 324_000_000 + i * 3000,
    dts90kHz: i % 3 === 0 ? 324_000_000 + i * 3000 - 3000 : null,
    randomAccess: i % 30 === 0,
    ...at(i),
  })),
);
await measure('klv-field (synthetic, number values)', () =>
  synthetic((i) => ({
    kind: 'klv-field',
    pid: 0x102,
    klvIndex: i >> 5,
    tag: (i % 32) + 1,
    name: 'Sensor Latitude',
    rawHex: '3c1a9f4e',
    value: 34.72115 + i * 1e-7,
    units: '°',
    ...at(i),
  })),
);
const { observations } = generatedObservations({ durationSeconds: 120, bitrate: 3_000_000, seed: 3, audio: true, klv: { carriage: 'sync' } });
await measure('generated 120 s stream with KLV (mix)', () => observations);
await measure('  of which metadata-packet', () => observations.filter((o) => o.kind === 'metadata-packet'));

const db = await runDatabaseInMemory();
insert(db, observations);
for (const format of ['json', 'ndjson', 'csv'] as const) {
  const started = performance.now();
  const output = exportDataset(db, 'klv/fields', format);
  let chars = 0;
  for (const chunk of output) chars += chunk.length;
  const ms = performance.now() - started;
  console.log(`export klv/fields as ${format.padEnd(6)} ${String(output.rows).padStart(8)} rows  ${rate(output.rows, ms).padStart(18)}  ${(chars / 1e6).toFixed(1)} MB of text`);
}
db.close();
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
