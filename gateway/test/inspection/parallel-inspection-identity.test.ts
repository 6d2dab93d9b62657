/**
 * Parallel inspection of one file (docs/parallel-inspection.md) gives what the
 * one-thread inspection gives: every observation in order (so every per-PID
 * count), every check's points and summary, and, through the store, every
 * stored dataset (sha256 of its NDJSON export), for 2, 3 and 4 threads, with
 * chunk boundaries forced inside a PES, a section, a KLV packet and the
 * longest PCR interval, at packet boundaries and inside packets.
 */
import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileChunks, readFileChunksInParallel } from '@klvscope/adapters';
import {
  BUILT_IN_FAULT_KIND_NAMES,
  createKlvAwareTsDemuxer,
  generateTransportStream,
  parseFaultSpec,
  runPipeline,
  type ByteSource,
  type Observation,
  type SourceChunk,
  type TsDemuxer,
} from '@klvscope/core';
import { Store } from '@klvscope/core/store';
import { FileWorkflow } from '@klvscope/core/workflow';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { fileSourcesOnThreads } from '../../src/inspection/file-sources.js';
import { fixturesDir } from '../../../test-support/fixtures.js';
import { inspectionFingerprint } from '../fleet/inspection-fingerprint.js';

const THREADS = [2, 3, 4];
/** Small chunks, so that a few-megabyte file has many boundaries besides the forced ones. */
const CHUNK_BYTES = 16 * 1024;

interface Inspection {
  observations: string[];
  checks: unknown;
  packets: number;
  packetsCountedInRuns: number;
}

/** An observation as text; KLV bytes as hex, so that a difference shows. */
function textOf(observation: Observation): string {
  return JSON.stringify(observation, (_key, value: unknown) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : typeof value === 'bigint' ? `${value}n` : value));
}

async function inspect(source: ByteSource): Promise<Inspection> {
  const observations: string[] = [];
  let demuxer: TsDemuxer | undefined;
  const session = await runPipeline(source, {
    checks: BUILT_IN_CHECKS,
    observationSinks: [(o) => observations.push(textOf(o))],
    demuxerFactory: (sink, options) => (demuxer = createKlvAwareTsDemuxer(sink, options) as TsDemuxer),
  });
  return { observations, checks: session.checks, packets: demuxer?.packets ?? 0, packetsCountedInRuns: demuxer?.packetsCountedInRuns ?? 0 };
}

/** Chunk boundaries inside a PES, a section, a KLV packet and the longest PCR interval of the one-thread observations. */
function boundariesOf(observations: string[], size: number): number[] {
  const parsed = observations.map((text) => JSON.parse(text) as Observation);
  const middle = (list: Observation[]): Observation | undefined => list[Math.floor(list.length / 2)];
  // The packet stride, from the file's size and its packet count (pid-stats carry the total).
  const totals = parsed.find((o) => o.kind === 'pid-stats');
  const stride = totals ? Math.round(size / Math.max(1, totals.packetIndex)) : 188;
  const at: number[] = [];
  const pes = middle(parsed.filter((o) => o.kind === 'pes'));
  if (pes) at.push(pes.offset + 7, pes.offset + stride);
  const section = middle(parsed.filter((o) => o.kind === 'psi-section'));
  if (section) at.push(section.offset + 20);
  const klv = middle(parsed.filter((o) => o.kind === 'klv-packet'));
  if (klv) at.push(klv.offset + 50, klv.offset + stride);
  const pcrs = parsed.filter((o) => o.kind === 'pcr');
  let widest = -1;
  for (let i = 1; i < pcrs.length; i++) if (widest < 0 || pcrs[i].offset - pcrs[i - 1].offset > pcrs[widest].offset - pcrs[widest - 1].offset) widest = i;
  if (widest > 0) {
    const [before, after] = [pcrs[widest - 1], pcrs[widest]];
    at.push(before.offset + Math.floor((after.offset - before.offset) / 2 / stride) * stride);
  }
  return at.filter((offset) => offset > 0 && offset < size);
}

function firstDifference(a: string[], b: string[]): string {
  const index = a.findIndex((text, i) => text !== b[i]);
  return index < 0 ? `lengths ${a.length} and ${b.length}` : `observation ${index}: ${a[index]} against ${b[index]}`;
}

async function storedFingerprint(path: string, threads: number, splitAt: readonly number[]): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-parallel-'));
  const store = await Store.open({ dataDir });
  try {
    const files = fileSourcesOnThreads({ threads, minParallelBytes: 0, splitAt });
    const workflow = new FileWorkflow({ store, files, checks: BUILT_IN_CHECKS });
    const result = await workflow.inspect(path);
    const print = await inspectionFingerprint(store, result.fileHash, result.key);
    // The run's id is new with each run; everything else must be equal.
    const { runId: _runId, ...report } = result.report;
    return { print, report, process: result.process.checks, inventory: result.analyze.inventory, klv: result.analyze.klv };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Recording {
  name: string;
  path: () => string;
}

const generatedDir = mkdtempSync(join(tmpdir(), 'klvscope-parallel-streams-'));

function generated(name: string, fault: string | null, packetSize: 188 | 192 | 204 = 188): Recording {
  return {
    name,
    path: () => {
      const path = join(generatedDir, `${name}.ts`);
      const { bytes } = generateTransportStream({
        durationSeconds: 4,
        bitrate: 2_000_000,
        seed: 11,
        audio: true,
        packetSize,
        klv: { carriage: fault === 'klv-truncated' ? 'sync' : 'async', rateHz: 30 },
        faults: fault ? [parseFaultSpec(`${fault}@2`)] : [],
      });
      writeFileSync(path, bytes);
      return path;
    },
  };
}

const realDir = join(fixturesDir, 'real');
const realFixtures = ((): string[] => {
  try {
    return readdirSync(realDir).filter((name) => name.endsWith('.ts')).sort();
  } catch {
    return [];
  }
})();

const recordings: Recording[] = [
  generated('clean', null),
  generated('clean-192', null, 192),
  generated('clean-204', null, 204),
  ...BUILT_IN_FAULT_KIND_NAMES.map((kind) => generated(kind, kind)),
  ...realFixtures.map((name) => ({ name: `real/${name}`, path: () => join(realDir, name) })),
];

describe('parallel inspection of one file', function () {
  this.timeout(600_000);

  after(() => rmSync(generatedDir, { recursive: true, force: true }));

  it('has real recordings to compare (../shared/fixtures/real)', function () {
    if (realFixtures.length === 0) {
      console.log(`      skipped: no fixtures under ${realDir}`);
      this.skip();
    }
    expect(realFixtures.length).to.be.greaterThan(0);
  });

  it('counts most packets of a clean stream through the workers’ runs, not one by one', async () => {
    const path = generated('clean-runs', null).path();
    const parallel = await inspect(readFileChunksInParallel(path, { workers: 1, chunkSize: CHUNK_BYTES }));
    expect(parallel.packetsCountedInRuns).to.be.greaterThan(parallel.packets * 0.5);
  });

  it('gives the store the chunks with their runs when reading on more than one thread', async () => {
    const path = generated('clean-store-source', null).path();
    const chunks: Array<Uint8Array | SourceChunk> = [];
    const source = fileSourcesOnThreads({ threads: 2, minParallelBytes: 0 }).open(path, {}) as AsyncIterable<Uint8Array | SourceChunk>;
    for await (const chunk of source) chunks.push(chunk);
    expect(chunks.length).to.be.greaterThan(0);
    expect(chunks.every((chunk) => !(chunk instanceof Uint8Array) && (chunk.packetRuns?.runs.length ?? 0) > 0)).to.equal(true);
  });

  for (const recording of recordings) {
    describe(recording.name, () => {
      let path = '';
      let one: Inspection;
      let splitAt: number[] = [];
      before(async () => {
        path = recording.path();
        // The one-thread inspection, as `klvscope inspect` reads the file.
        one = await inspect(readFileChunks(path));
        splitAt = boundariesOf(one.observations, statSync(path).size);
      });

      for (const threads of THREADS) {
        it(`gives every observation and every check's points with ${threads} threads, boundaries forced inside a PES, a section, a KLV packet and a PCR interval`, async () => {
          expect(splitAt.length).to.be.greaterThan(0);
          const parallel = await inspect(readFileChunksInParallel(path, { workers: threads - 1, chunkSize: CHUNK_BYTES, splitAt }));
          expect(parallel.observations.length, firstDifference(parallel.observations, one.observations)).to.equal(one.observations.length);
          const same = parallel.observations.every((text, i) => text === one.observations[i]);
          expect(same, firstDifference(parallel.observations, one.observations)).to.equal(true);
          expect(parallel.checks).to.deep.equal(one.checks);
          expect(parallel.packets).to.equal(one.packets);
        });
      }

      it('stores the same datasets, report and per-PID counts with 2, 3 and 4 threads as with one', async () => {
        const oneThread = await storedFingerprint(path, 1, []);
        for (const threads of THREADS) {
          const stored = await storedFingerprint(path, threads, splitAt);
          expect(stored, `${threads} threads`).to.deep.equal(oneThread);
        }
      });
    });
  }
});
