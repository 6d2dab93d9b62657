import { expect } from 'chai';
import { z } from 'zod';
import { CoreError } from '../../src/kernel/core-error.js';
import { type AnyCheck, defineCheck } from '../../src/kernel/define-check.js';
import type { Observation, ObservationKind } from '../../src/kernel/observations.js';
import { generateTransportStream } from '../../src/gen/generator.js';
import { createKlvAwareTsDemuxer } from '../../src/klv/st1402-demuxer.js';
import { OBSERVATION_BATCH, type SourceChunk, runObservations, runPipeline } from '../../src/kernel/pipeline.js';
import { concatPackets, packet, patSection, pmtSection, psiPacket } from '../ts/packet-builder.js';
import { pcr, recorder } from './fake-checks.js';

/** PAT, PMT (PCR on 0x100), then adaptation-only packets with PCRs at these times. */
function stream(pcrMs: number[]): Uint8Array {
  return concatPackets([
    psiPacket(0, patSection([[1, 0x1000]])),
    psiPacket(0x1000, pmtSection(1, 0x100, [{ type: 0x1b, pid: 0x100 }])),
    ...pcrMs.map((ms) => packet({ pid: 0x100, adaptationOnly: true, pcr27MHz: ms * 27_000 })),
  ]);
}

function* chunks(bytes: Uint8Array, size: number, withOffsets = false): Generator<Uint8Array | SourceChunk> {
  for (let offset = 0; offset < bytes.length; offset += size) {
    const slice = bytes.subarray(offset, offset + size);
    yield withOffsets ? { bytes: slice, offset } : slice;
  }
}

const pcrIntervals = defineCheck({
  id: 'pcr-intervals',
  version: '1.0.0',
  title: 'PCR intervals',
  rules: z.object({ maxIntervalMs: z.number().positive().default(40) }),
  consumes: ['pcr'],
  create(ctx) {
    let last: number | null = null;
    return {
      pcr(obs) {
        if (last !== null) {
          const intervalMs = Math.round((obs.pcr27MHz - last) / 27) / 1000;
          const violation = intervalMs > ctx.rules.maxIntervalMs;
          ctx.point(obs, { value: intervalMs, unit: 'ms', violation, message: `${intervalMs} ms`, citation: 'ISO 13818-1 2.4.2.2' });
        }
        last = obs.pcr27MHz;
      },
    };
  },
});

describe('runPipeline', () => {
  const bytes = stream([0, 40, 80, 120, 200, 240]);

  it('demultiplexes the bytes and runs the checks over the observations', async () => {
    const tables = recorder('tables', ['pat', 'pmt']);
    const result = await runPipeline([bytes], { checks: [pcrIntervals, tables.check] });
    expect(tables.seen).to.deep.equal(['pat@0', 'pmt@188']);
    const [intervals] = result.checks;
    expect(intervals.points.map((p) => [p.offset, p.packetIndex, p.pid, p.value, p.violation])).to.deep.equal([
      [564, 3, 0x100, 40, false],
      [752, 4, 0x100, 40, false],
      [940, 5, 0x100, 40, false],
      [1128, 6, 0x100, 80, true],
      [1316, 7, 0x100, 40, false],
    ]);
    expect(intervals.points[3].t).to.equal(0.2);
    expect(intervals.summary.value).to.deep.equal({ count: 5, min: 40, max: 80, mean: 48, unit: 'ms' });
    expect([intervals.summary.verdict, result.bytes, result.observations, result.errors]).to.deep.equal(['fail', 8 * 188, 13, []]);
  });

  it('gives the same results whatever the chunking, with or without offsets', async () => {
    const whole = await runPipeline([bytes], { checks: [pcrIntervals] });
    const small = await runPipeline(chunks(bytes, 100), { checks: [pcrIntervals] });
    const withOffsets = await runPipeline(chunks(bytes, 333, true), { checks: [pcrIntervals] });
    expect(small).to.deep.equal(whole);
    expect(withOffsets).to.deep.equal(whole);
  });

  it('reads an async source and reports progress after each chunk', async () => {
    async function* source() {
      yield* chunks(bytes, 500);
      await Promise.resolve();
    }
    const progress: number[] = [];
    await runPipeline(source(), { checks: [], onProgress: (done) => progress.push(done) });
    expect(progress).to.deep.equal([500, 1000, 1500, 1504]);
  });

  it('passes every observation to the observation sinks before the checks', async () => {
    const order: string[] = [];
    const watcher = defineCheck({ id: 'watcher', version: '1.0.0', title: 'w', consumes: ['pat'], create: () => ({ pat: () => void order.push('check') }) });
    const result = await runPipeline([bytes], {
      checks: [watcher],
      observationSinks: [(o) => o.kind === 'pat' && order.push('sink 1'), (o) => o.kind === 'pat' && order.push('sink 2')],
    });
    expect(order).to.deep.equal(['sink 1', 'sink 2', 'check']);
    expect(result.observations).to.equal(13);
  });

  it('uses the demuxer factory it is given', async () => {
    const { check, seen } = recorder('pcr-seen', ['pcr']);
    const pushed: number[] = [];
    await runPipeline([new Uint8Array(7), new Uint8Array(3)], {
      checks: [check],
      demuxerFactory: (sink) => ({ push: (chunk) => void pushed.push(chunk.length), end: () => sink(pcr(0, 42)) }),
    });
    expect([pushed, seen]).to.deep.equal([[7, 3], ['pcr@42']]);
  });

  it('refuses a source whose chunk offsets are not contiguous from 0', async () => {
    const source = [
      { bytes: bytes.subarray(0, 188), offset: 0 },
      { bytes: bytes.subarray(376, 564), offset: 376 },
    ];
    const error = await runPipeline(source, { checks: [] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CoreError);
    expect(error).to.include({ code: 'ERR_SOURCE_NOT_CONTIGUOUS', message: 'source chunk at offset 376, expected 188' });
  });

  it('rejects when an observation sink throws', async () => {
    const failure = new Error('database locked');
    const error = await runPipeline([bytes], {
      checks: [],
      observationSinks: [
        () => {
          throw failure;
        },
      ],
    }).catch((e: unknown) => e);
    expect(error).to.equal(failure);
  });

  describe('cancellation', () => {
    it('rejects with an AbortError between chunks and closes the source', async () => {
      const controller = new AbortController();
      let closed = false;
      let read = 0;
      function* source() {
        try {
          for (const chunk of chunks(bytes, 188)) {
            read++;
            yield chunk;
          }
        } finally {
          closed = true;
        }
      }
      const error = await runPipeline(source(), {
        checks: [pcrIntervals],
        onProgress: (done) => done === 376 && controller.abort(),
        signal: controller.signal,
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DOMException).with.property('name', 'AbortError');
      expect([read, closed]).to.deep.equal([2, true]);
    });

    it('rejects with the abort reason, without reading, when the signal is already aborted', async () => {
      let read = 0;
      function* source() {
        read++;
        yield bytes;
      }
      const reason = new Error('job cancelled');
      const error = await runPipeline(source(), { checks: [], signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
      expect([error, read]).to.deep.equal([reason, 0]);
    });
  });
});

describe('runObservations', () => {
  it('gives the same results over stored observations as the run over the bytes', async () => {
    const stored: Observation[] = [];
    const bytes = stream([0, 40, 100, 140]);
    const fromBytes = await runPipeline([bytes], { checks: [pcrIntervals], observationSinks: [(o) => stored.push(o)] });
    const fromStore = await runObservations(stored, { checks: [pcrIntervals] });
    expect(fromStore).to.deep.equal({ checks: fromBytes.checks, errors: [], observations: fromBytes.observations });
  });

  it('re-runs stored observations with new rules', async () => {
    const stored = [pcr(0, 0), pcr(27_000 * 60, 188)];
    const strict = await runObservations(stored, { checks: [pcrIntervals] });
    const lenient = await runObservations(stored, { checks: [pcrIntervals], rules: { 'pcr-intervals': { maxIntervalMs: 100 } } });
    expect([strict.checks[0].summary.verdict, lenient.checks[0].summary.verdict]).to.deep.equal(['fail', 'pass']);
  });

  it('reads an async iterable of observations', async () => {
    async function* stored() {
      yield pcr(0, 0);
      await Promise.resolve();
      yield pcr(27_000 * 40, 188);
    }
    const result = await runObservations(stored(), { checks: [pcrIntervals] });
    expect(result.checks[0].points.map((p) => p.value)).to.deep.equal([40]);
  });

  it('reports progress once per batch and at the end', async () => {
    const progress: number[] = [];
    const many = Array.from({ length: OBSERVATION_BATCH * 2 + 5 }, (_, i) => pcr(i * 27_000, i * 188));
    await runObservations(many, { checks: [], onProgress: (done) => progress.push(done) });
    expect(progress).to.deep.equal([OBSERVATION_BATCH, OBSERVATION_BATCH * 2, OBSERVATION_BATCH * 2 + 5]);
  });

  it('stops at the next batch once aborted, yielding to the event loop between batches', async () => {
    const controller = new AbortController();
    let consumed = 0;
    function* endless() {
      for (let i = 0; ; i++) {
        consumed++;
        yield pcr(i * 27_000, i * 188);
      }
    }
    setImmediate(() => controller.abort());
    const error = await runObservations(endless(), { checks: [pcrIntervals], signal: controller.signal }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DOMException).with.property('name', 'AbortError');
    expect(consumed).to.equal(OBSERVATION_BATCH);
  });
});

describe('runPipeline: klv-field observations are made only when something reads them', () => {
  const chunks = [generateTransportStream({ durationSeconds: 2, bitrate: 1_000_000, klv: { carriage: 'async', rateHz: 10 } }).bytes];

  async function observationsOf(options: { checks?: AnyCheck[]; sinkKinds?: ObservationKind[] }): Promise<Observation[]> {
    const seen: Observation[] = [];
    await runPipeline(chunks, { checks: options.checks ?? [], observationSinks: [(o) => seen.push(o)], sinkKinds: options.sinkKinds, demuxerFactory: createKlvAwareTsDemuxer });
    return seen;
  }
  const itemsIn = (observations: Observation[]): number =>
    observations.reduce((n, o) => n + (o.kind === 'metadata-packet' ? o.items.length : 0), 0);
  /** What a sink that does not say what it reads gets: everything (run once, shared by the tests). */
  let all: Observation[];
  before(async () => {
    all = await observationsOf({});
  });

  it('makes one klv-field per decoded item for a sink that does not say what it reads', () => {
    const fields = all.filter((o) => o.kind === 'klv-field');
    expect(itemsIn(all)).to.be.greaterThan(100);
    expect(fields).to.have.length(itemsIn(all));
  });

  it('leaves them unmade when neither the sinks nor the checks read them, and makes everything else the same', async () => {
    const checks = recorder('packets', ['metadata-packet']);
    const without = await observationsOf({ checks: [checks.check], sinkKinds: ['klv-packet', 'metadata-packet'] });
    expect(without.some((o) => o.kind === 'klv-field')).to.equal(false);
    expect(without).to.deep.equal(all.filter((o) => o.kind !== 'klv-field'));
    expect(itemsIn(without)).to.equal(itemsIn(all));
  });

  it('makes them for a check that consumes them', async () => {
    const fields = recorder('fields', ['klv-field']);
    await runPipeline(chunks, { checks: [fields.check], demuxerFactory: createKlvAwareTsDemuxer });
    expect(fields.seen).to.have.length(itemsIn(all));
  });

  it('makes them for a sink that says it reads them', async () => {
    const seen = await observationsOf({ sinkKinds: ['klv-field'] });
    expect(seen.filter((o) => o.kind === 'klv-field')).to.have.length(itemsIn(all));
  });
});
