/**
 * What an ingest run stores, `process` reads back: observations written to a
 * run database and replayed are deep-equal to the emitted ones, in the same
 * order, for every kind, from generated streams with faults and from real
 * recordings.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Database } from 'sql.js';
import { fixtureOrSkip } from '../../../../test-support/fixtures.js';
import { OBSERVATION_KINDS } from '../../../src/kernel/observation-kinds.js';
import type { Observation, ObservationOf } from '../../../src/kernel/observations.js';
import { countObservations } from '../../../src/store/datasets/observation-counts.js';
import { replayObservations } from '../../../src/store/datasets/observation-replay.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { countByKind, demuxObservations, GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { useRunDatabase } from './run-database-in-memory.js';

function store(db: Database, observations: readonly Observation[], rowsPerTransaction?: number): void {
  const writer = createObservationWriter(db, { rowsPerTransaction });
  for (const o of observations) writer.write(o);
  writer.finish();
}

function replayed(db: Database): Observation[] {
  return [...replayObservations(db)];
}

const position = { offset: 1316, packetIndex: 7, t: 0.25 };

describe('observation round trip through a run database', function () {
  this.timeout(60_000);
  const run = useRunDatabase();

  for (const generated of GENERATED_CASES) {
    describe(generated.name, () => {
      let observations: Observation[];
      before(() => {
        observations = generatedObservations(generated.options).observations;
      });

      it('makes every observation kind, so the round trip covers them all', () => {
        expect(Object.keys(countByKind(observations))).to.have.members([...OBSERVATION_KINDS]);
      });

      it('replays the observations deep-equal to the emitted ones, in emission order', () => {
        store(run.db, observations);
        const back = replayed(run.db);
        expect(back).to.have.length(observations.length);
        expect(back.map((o) => o.kind)).to.deep.equal(observations.map((o) => o.kind));
        expect(back).to.deep.equal(observations);
      });

      it('keeps each klv-field as an item of its metadata packet, not as a row of its own', () => {
        store(run.db, observations);
        const fields = observations.filter((o) => o.kind === 'klv-field').length;
        expect(fields).to.be.greaterThan(0);
        expect(run.db.exec('SELECT count(*) FROM klv_field')[0].values[0][0]).to.equal(0);
        expect(run.db.exec('SELECT sum(fields) FROM metadata_fields')[0].values[0][0]).to.equal(fields);
      });

      it('stores a field that is not its packet\'s next item as a row of its own, and replays it where it was', () => {
        const at = observations.findIndex((o) => o.kind === 'klv-field');
        const moved = [...observations];
        const [field] = moved.splice(at, 1);
        moved.splice(at + 1, 0, { ...field, value: 'not the item' } as Observation);
        store(run.db, moved);
        expect(run.db.exec('SELECT count(*) FROM klv_field')[0].values[0][0]).to.be.greaterThan(0);
        expect(replayed(run.db)).to.deep.equal(moved);
      });

      it('stores as many rows of each kind as the engine emitted', () => {
        store(run.db, observations);
        expect(countObservations(run.db)).to.deep.equal({ ...Object.fromEntries(OBSERVATION_KINDS.map((k) => [k, 0])), ...countByKind(observations) });
      });

      it('replays the same when written in many small transactions', () => {
        store(run.db, observations, 7);
        expect(replayed(run.db)).to.deep.equal(observations);
      });
    });
  }

  const realFixtures: Array<[string, string]> = [
    ['osh-addons_sample-stream.ts', 'asynchronous ST 0601 with nested ST 0102 and ST 0903 sets'],
    ['kwiver_h265_tricky_klv.ts', 'synchronous and asynchronous ST 0601 on two PIDs'],
    ['kwiver_aphill_klv_10s.ts', 'EG 0104 with IEEE floats'],
    ['kwiver_h264_klv.ts', 'ST 0601 version 17 with every tag'],
  ];
  for (const [file, what] of realFixtures) {
    it(`replays the observations of the real recording ${file} (${what}) deep-equal and in order`, function () {
      const bytes = readFileSync(fixtureOrSkip(this, 'real', file));
      const observations = demuxObservations(bytes);
      expect(observations.filter((o) => o.kind === 'klv-field')).to.not.be.empty;
      store(run.db, observations);
      expect(replayed(run.db)).to.deep.equal(observations);
    });
  }

  it('gives back NaN, both infinities and -0 inside KLV values and error details', () => {
    const field: ObservationOf<'klv-field'> = {
      kind: 'klv-field',
      pid: 0x102,
      klvIndex: 3,
      tag: 96,
      name: 'Target Width Extended',
      rawHex: 'ff',
      value: { nan: NaN, up: Infinity, down: [-Infinity, -0, 0], text: 'n5', empty: undefined },
      units: 'm',
      ...position,
    };
    const scalar: ObservationOf<'klv-field'> = { ...field, klvIndex: 4, value: NaN };
    const long: ObservationOf<'klv-field'> = { ...field, klvIndex: 5, value: { text: 'x'.repeat(1000), nan: NaN } };
    const error: ObservationOf<'ts-error'> = {
      kind: 'ts-error',
      pid: 0x100,
      type: 'sync-loss',
      severity: 'error',
      tr101290: '1.1',
      message: 'sync lost',
      details: { ratio: -Infinity, zero: -0, note: 'u' },
      ...position,
    };
    store(run.db, [field, scalar, long, error]);
    const back = replayed(run.db);
    expect(back).to.deep.equal([field, scalar, long, error]);
    const value = (back[0] as ObservationOf<'klv-field'>).value as { down: number[]; empty: unknown };
    expect(Object.is(value.down[1], -0)).to.be.true;
    expect(value).to.have.property('empty');
    expect((back[1] as ObservationOf<'klv-field'>).value).to.be.NaN;
  });

  it('stores nested values as JSON text whether short or long, so SQL can read them', () => {
    const short: ObservationOf<'klv-field'> = { kind: 'klv-field', pid: 1, klvIndex: 0, tag: 10, name: 'Platform Designation', rawHex: '41', value: 'A', units: null, ...position };
    const long: ObservationOf<'klv-field'> = { ...short, klvIndex: 1, value: 'é'.repeat(600) };
    store(run.db, [short, long]);
    const rows = run.db.exec('SELECT typeof(value), value FROM klv_field ORDER BY seq')[0].values;
    expect(rows).to.deep.equal([
      ['text', '"A"'],
      ['text', JSON.stringify(long.value)],
    ]);
  });

  it('keeps optional details absent when they were absent, and null values null', () => {
    const withDetails: ObservationOf<'klv-error'> = {
      kind: 'klv-error',
      pid: 0x102,
      klvIndex: null,
      type: 'klv-raw-decode-error',
      severity: 'error',
      tag: null,
      message: 'cut short',
      citation: 'SMPTE ST 336',
      details: { byteOffset: 99, reason: null },
      ...position,
    };
    const { details: _dropped, ...withoutDetails } = withDetails;
    const nullField: ObservationOf<'klv-field'> = { kind: 'klv-field', pid: 1, klvIndex: 0, tag: 2, name: 'x', rawHex: '', value: null, units: null, ...position, t: null };
    store(run.db, [withDetails, withoutDetails, nullField]);
    const back = replayed(run.db);
    expect(back).to.deep.equal([withDetails, withoutDetails, nullField]);
    expect(back[1]).to.not.have.property('details');
  });

  it('merges the kinds back in emission order when they alternate one by one', () => {
    const observations: Observation[] = [];
    for (let i = 0; i < 50; i++) {
      observations.push({ kind: 'pcr', pid: 0x100, pcr27MHz: 2 ** 41 + i, discontinuity: i % 7 === 0, offset: i * 188, packetIndex: i, t: i / 100 });
      if (i % 3 === 0) observations.push({ kind: 'discontinuity', pid: 0x100, hasPcr: i % 2 === 0, offset: i * 188, packetIndex: i, t: null });
      observations.push({ kind: 'pes', pid: 0x101, streamId: 0xc0, pesPacketLength: 0, pts90kHz: i % 5 === 0 ? null : 2 ** 33 - i, dts90kHz: null, randomAccess: true, offset: i * 188, packetIndex: i, t: i / 100 });
    }
    store(run.db, observations);
    expect(replayed(run.db)).to.deep.equal(observations);
  });

  it('gives the KLV bytes back as a Uint8Array equal to the bytes received', () => {
    const raw = Uint8Array.from([0x06, 0x0e, 0x2b, 0x34, 0x00, 0xff, 0x80, 0x01, 0x02]);
    const packet: ObservationOf<'klv-packet'> = { kind: 'klv-packet', pid: 0x102, klvIndex: 0, carriage: 'raw', keyHex: '060e2b34', keyName: null, length: 2, raw, pts90kHz: null, ...position, packetIndex: -1 };
    store(run.db, [packet]);
    const [back] = replayed(run.db) as Array<ObservationOf<'klv-packet'>>;
    expect(back.raw).to.be.an.instanceOf(Uint8Array);
    expect([...back.raw]).to.deep.equal([...raw]);
  });

  it('replays nothing from an empty run database', () => {
    expect(replayed(run.db)).to.deep.equal([]);
  });

  it('frees its statements when the reader stops early, so the tables can be changed again', () => {
    store(run.db, [
      { kind: 'pcr', pid: 1, pcr27MHz: 0, discontinuity: false, ...position },
      { kind: 'pcr', pid: 1, pcr27MHz: 1, discontinuity: false, ...position },
    ]);
    for (const observation of replayObservations(run.db)) {
      expect(observation.kind).to.equal('pcr');
      break;
    }
    // SQLite refuses to drop a table that a live statement still reads.
    expect(() => run.db.run('DROP TABLE pcr')).to.not.throw();
  });
});
