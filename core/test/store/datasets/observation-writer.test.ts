import { expect } from 'chai';
import type { Database, SqlValue } from 'sql.js';
import { OBSERVATION_KINDS } from '../../../src/kernel/observation-kinds.js';
import type { MetadataPacketObservation, Observation, ObservationKind } from '../../../src/kernel/observations.js';
import { packedRows } from '../../../src/store/datasets/observation-block-codec.js';
import { rowCodecOf } from '../../../src/store/datasets/observation-row-codec.js';
import { countObservations, emptyObservationCounts, totalObservations } from '../../../src/store/datasets/observation-counts.js';
import { createObservationWriter, DEFAULT_ROWS_PER_STATEMENT, type ObservationWriterOptions } from '../../../src/store/datasets/observation-writer.js';
import { createKlvAwareTsDemuxer } from '../../../src/klv/st1402-demuxer.js';
import { generateTransportStream } from '../../../src/gen/index.js';
import { replayObservations } from '../../../src/store/datasets/observation-replay.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { packetsKeptAsTriplets, runDatabaseInMemory, useRunDatabase } from './run-database-in-memory.js';
import { datasetErrorOf } from './dataset-error-of.js';

const at = (i: number) => ({ offset: i * 188, packetIndex: i, t: null });

function pcr(i: number): Observation {
  return { kind: 'pcr', pid: 0x100, pcr27MHz: i * 1000, discontinuity: false, ...at(i) };
}

function pes(i: number): Observation {
  return { kind: 'pes', pid: 0x100, streamId: 0xe0, pesPacketLength: 0, pts90kHz: i, dts90kHz: null, randomAccess: false, ...at(i) };
}

/** The seqs stored of a kind, from its table rows or its blocks (observation-block-codec.ts). */
function seqs(db: Database, kind: ObservationKind): number[] {
  return Array.from(packedRows(db, rowCodecOf(kind), 0, 0), (row) => Number(row[0]));
}

describe('observation writer', () => {
  const run = useRunDatabase();

  it('numbers the observations 1, 2, 3, … in emission order across the kinds', () => {
    const writer = createObservationWriter(run.db);
    [pcr(0), pes(1), pes(2), pcr(3), pes(4)].forEach(writer.write);
    writer.finish();
    expect(seqs(run.db, 'pcr')).to.deep.equal([1, 4]);
    expect(seqs(run.db, 'pes')).to.deep.equal([2, 3, 5]);
  });

  it('returns the counts per kind from finish(), every kind listed', () => {
    const writer = createObservationWriter(run.db);
    [pcr(0), pes(1), pes(2)].forEach(writer.write);
    expect(writer.finish()).to.deep.equal({ ...emptyObservationCounts(), pcr: 1, pes: 2 });
  });

  it('counts what the tables hold, for the ingest-run summary', () => {
    const writer = createObservationWriter(run.db);
    [pcr(0), pes(1), pes(2)].forEach(writer.write);
    writer.finish();
    const counts = countObservations(run.db);
    expect(Object.keys(counts)).to.deep.equal([...OBSERVATION_KINDS]);
    expect(counts).to.deep.equal({ ...emptyObservationCounts(), pcr: 1, pes: 2 });
    expect(totalObservations(counts)).to.equal(3);
  });

  it('commits every rowsPerTransaction rows, so abort() rolls back only the open transaction', () => {
    const writer = createObservationWriter(run.db, { rowsPerTransaction: 10 });
    for (let i = 0; i < 25; i++) writer.write(i % 2 === 0 ? pcr(i) : pes(i));
    writer.abort();
    expect(countObservations(run.db)).to.deep.equal({ ...emptyObservationCounts(), pcr: 10, pes: 10 });
    expect(writer.counts()).to.deep.equal({ ...emptyObservationCounts(), pcr: 10, pes: 10 });
  });

  it('rolls back everything on abort() before the first commit', () => {
    const writer = createObservationWriter(run.db);
    for (let i = 0; i < 5; i++) writer.write(pcr(i));
    writer.abort();
    writer.abort();
    expect(totalObservations(countObservations(run.db))).to.equal(0);
  });

  it('leaves the database ready for other transactions after finish() and abort()', () => {
    createObservationWriter(run.db).finish();
    const aborted = createObservationWriter(run.db);
    aborted.write(pcr(0));
    aborted.abort();
    expect(() => run.db.run('BEGIN; COMMIT;')).to.not.throw();
  });

  it('goes on after the last seq of a database that already holds rows', () => {
    const first = createObservationWriter(run.db);
    [pcr(0), pes(1)].forEach(first.write);
    first.finish();
    const second = createObservationWriter(run.db);
    [pes(2), pcr(3)].forEach(second.write);
    expect(second.finish()).to.deep.equal({ ...emptyObservationCounts(), pcr: 1, pes: 1 });
    expect(seqs(run.db, 'pcr')).to.deep.equal([1, 4]);
    expect(seqs(run.db, 'pes')).to.deep.equal([2, 3]);
  });

  it('refuses writes after finish() with ERR_DATASET_WRITER_CLOSED', () => {
    const writer = createObservationWriter(run.db);
    writer.finish();
    expect(datasetErrorOf(() => writer.write(pcr(0))).code).to.equal('ERR_DATASET_WRITER_CLOSED');
    expect(datasetErrorOf(() => writer.finish()).code).to.equal('ERR_DATASET_WRITER_CLOSED');
  });

  it('refuses an observation of a kind it has no table for with ERR_DATASET_UNSUPPORTED_KIND', () => {
    const writer = createObservationWriter(run.db);
    const error = datasetErrorOf(() => writer.write({ ...pcr(0), kind: 'scte35' } as unknown as Observation));
    expect(error.code).to.equal('ERR_DATASET_UNSUPPORTED_KIND');
    expect(error.message).to.contain("'scte35'");
    writer.abort();
  });

  it('refuses a rowsPerTransaction below 1', () => {
    expect(datasetErrorOf(() => createObservationWriter(run.db, { rowsPerTransaction: 0 })).code).to.equal('ERR_DATASET_INVALID_PARAMETER');
  });

  it('serves as the sink of a demuxer, unbound', () => {
    const writer = createObservationWriter(run.db);
    const seen: Observation[] = [];
    const demuxer = createKlvAwareTsDemuxer((o) => {
      seen.push(o);
      writer.write(o);
    });
    demuxer.push(generateTransportStream({ durationSeconds: 1, bitrate: 2_000_000, klv: {} }).bytes);
    demuxer.end();
    const counts = writer.finish();
    expect(totalObservations(counts)).to.equal(seen.length);
    expect(counts['klv-field']).to.be.greaterThan(0);
  });
});

describe('metadata packets kept as their triplet', () => {
  const run = useRunDatabase();
  const { observations } = generatedObservations(GENERATED_CASES[0].options);

  it('stores a packet the KLV decoder made from the triplet just before it without its items, and replays it equal', () => {
    const writer = createObservationWriter(run.db);
    observations.forEach(writer.write);
    writer.finish();
    const kept = packetsKeptAsTriplets(run.db);
    expect(kept.length).to.be.above(0);
    expect(kept.every(Boolean)).to.equal(true);
    expect([...replayObservations(run.db)]).to.deep.equal(observations);
  });

  it('decodes a replayed packet\'s items from its triplet only when they are first read, then keeps them', () => {
    const writer = createObservationWriter(run.db);
    observations.forEach(writer.write);
    writer.finish();
    const original = observations.find((o) => o.kind === 'metadata-packet') as MetadataPacketObservation;
    const replayed = [...replayObservations(run.db, new Set(['metadata-packet']))][0] as MetadataPacketObservation;
    expect(typeof Object.getOwnPropertyDescriptor(replayed, 'items')?.get, 'not decoded yet').to.equal('function');
    expect(replayed.timestampMicros).to.equal(original.timestampMicros);
    const items = replayed.items;
    expect(items).to.deep.equal(original.items);
    expect(Object.getOwnPropertyDescriptor(replayed, 'items')).to.include({ value: items, enumerable: true });
  });

  it('gives each replayed packet its own items (one accessor serves them all), and keeps items assigned before any read', () => {
    const writer = createObservationWriter(run.db);
    observations.forEach(writer.write);
    writer.finish();
    const originals = observations.filter((o): o is MetadataPacketObservation => o.kind === 'metadata-packet');
    const replayed = [...replayObservations(run.db, new Set(['metadata-packet']))] as MetadataPacketObservation[];
    expect(replayed.length).to.equal(originals.length).and.to.be.above(2);
    // Read from the last to the first: each decodes its own triplet, whatever was read before.
    for (let i = replayed.length - 1; i > 0; i--) expect(replayed[i].items, `packet ${i}`).to.deep.equal(originals[i].items);
    // Through an object whose prototype is the packet, as through the packet.
    expect((Object.create(replayed[0]) as MetadataPacketObservation).items).to.deep.equal(originals[0].items);
    const assigned = [{ tag: 2 }] as unknown as MetadataPacketObservation['items'];
    replayed[0].items = assigned;
    expect(replayed[0].items).to.equal(assigned);
    expect({ ...replayed[0] }.items).to.equal(assigned);
  });

  it('replays only the kinds asked for, in emission order: fields without their packets, packets without their fields', () => {
    const writer = createObservationWriter(run.db);
    observations.forEach(writer.write);
    writer.finish();
    for (const kinds of [['klv-field'], ['metadata-packet', 'pcr'], ['klv-field', 'klv-packet', 'ts-error']] as const) {
      const wanted = new Set<string>(kinds);
      expect([...replayObservations(run.db, new Set(kinds))], kinds.join()).to.deep.equal(observations.filter((o) => wanted.has(o.kind)));
    }
  });

  it('keeps the items of a packet that is not what the decoder made of the triplet before it (a copy, or alone)', () => {
    const first = observations.findIndex((o) => o.kind === 'metadata-packet');
    const packet = observations[first] as MetadataPacketObservation;
    const copy: MetadataPacketObservation = { ...packet, items: packet.items.slice(0, 1) };
    const writer = createObservationWriter(run.db);
    [observations[first - 1], copy, packet].forEach(writer.write);
    writer.finish();
    expect(packetsKeptAsTriplets(run.db)).to.deep.equal([false, false]);
    expect([...replayObservations(run.db)]).to.deep.equal([observations[first - 1], copy, packet]);
  });
});

describe('klv-field observations made from their packets\' items (fieldsFromItems)', () => {
  const run = useRunDatabase();

  it('stores from a pass that leaves the fields unmade what a pass that makes them stores: every kind replays equal, fields included, with the same counts', async () => {
    for (const { name, options } of GENERATED_CASES) {
      const { bytes, observations } = generatedObservations(options);
      const withFields = await runDatabaseInMemory();
      const fromItems = await runDatabaseInMemory();
      try {
        const writer = createObservationWriter(withFields);
        observations.forEach(writer.write);
        const expectedCounts = writer.finish();
        expect(expectedCounts['klv-field'], name).to.be.above(0);

        const itemsWriter = createObservationWriter(fromItems, { fieldsFromItems: true });
        const demuxer = createKlvAwareTsDemuxer(itemsWriter.write, { klvFields: false });
        demuxer.push(bytes);
        demuxer.end();
        expect(itemsWriter.lastSeq(), name).to.equal(observations.length);
        expect(itemsWriter.finish(), name).to.deep.equal(expectedCounts);
        expect([...replayObservations(fromItems)], name).to.deep.equal([...replayObservations(withFields)]);
      } finally {
        withFields.close();
        fromItems.close();
      }
    }
  });

  it('refuses a klv-field observation, which it would otherwise store twice', () => {
    const writer = createObservationWriter(run.db, { fieldsFromItems: true });
    const field = generatedObservations(GENERATED_CASES[0].options).observations.find((o) => o.kind === 'klv-field') as Observation;
    expect(datasetErrorOf(() => writer.write(field))).to.include({ code: 'ERR_DATASET_UNSUPPORTED_KIND' });
  });
});

/** Every row of every table, in order of its first columns (seq, or a block's kind and first seq), by table name: what two writers stored, to compare. */
function everyTable(db: Database): Record<string, SqlValue[][]> {
  const [tables] = db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  const rowsOf = (name: SqlValue): SqlValue[][] => db.exec(`SELECT * FROM "${String(name)}" ORDER BY 1, 2`)[0]?.values ?? [];
  return Object.fromEntries(tables.values.map(([name]) => [String(name), rowsOf(name)]));
}

describe('rows gathered into multi-row statements (rowsPerStatement)', () => {
  const run = useRunDatabase();
  const generated = GENERATED_CASES.map(({ options }) => generatedObservations(options));
  const psiSections = generated[0].observations.filter((o) => o.kind === 'psi-section');

  /** Writes `observations` (or demuxes `bytes` into the writer, the fields made from items) into a fresh database; `stopAfter` aborts there. */
  async function written(source: { observations: Observation[] } | { bytes: Uint8Array }, options: ObservationWriterOptions, stopAfter?: number) {
    const db = await runDatabaseInMemory();
    try {
      const writer = createObservationWriter(db, { ...options, fieldsFromItems: 'bytes' in source });
      if ('bytes' in source) {
        const demuxer = createKlvAwareTsDemuxer(writer.write, { klvFields: false });
        demuxer.push(source.bytes);
        demuxer.end();
      } else {
        source.observations.slice(0, stopAfter).forEach(writer.write);
      }
      const counts = stopAfter === undefined ? writer.finish() : (writer.abort(), writer.counts());
      return { counts, tables: everyTable(db), stored: countObservations(db) };
    } finally {
      db.close();
    }
  }

  it('stores in every table the rows one statement per row stores, across transactions ending inside a batch, fields from items or not', async () => {
    expect(DEFAULT_ROWS_PER_STATEMENT).to.be.above(1);
    for (const [index, { bytes, observations }] of generated.entries()) {
      for (const source of [{ observations }, { bytes }]) {
        const what = `case ${index}, ${'bytes' in source ? 'fields from items' : 'fields written'}`;
        // 7 rows a transaction: most commits come with rows gathered short of a statement.
        const oneByOne = await written(source, { rowsPerTransaction: 7, rowsPerStatement: 1 });
        // PSI sections and metadata_fields, stored as rows, fill whole statements of every size tried too.
        expect(oneByOne.tables.psi_section.length, what).to.be.above(64);
        expect(oneByOne.tables.metadata_fields.length, what).to.be.above(64);
        expect(oneByOne.tables.ts_error.length, what).to.be.above(3);
        for (const rowsPerStatement of [undefined, 3, 64]) {
          const gathered = await written(source, { rowsPerTransaction: 7, rowsPerStatement });
          expect(gathered.tables, `${what}, ${rowsPerStatement} rows a statement`).to.deep.equal(oneByOne.tables);
          expect(gathered.counts, `${what}, ${rowsPerStatement} rows a statement`).to.deep.equal(oneByOne.counts);
          expect(gathered.stored, `${what}, ${rowsPerStatement} rows a statement`).to.deep.equal(oneByOne.counts);
        }
      }
    }
  });

  it('on abort() keeps exactly the committed rows, the rows gathered in the open transaction dropped, and counts() says so', async () => {
    const { observations } = generated[0];
    // Stopped at several places, so the open transaction holds rows gathered short of a statement, or none.
    for (const stopAfter of [5, 1_000, 2_503, 4_001]) {
      const oneByOne = await written({ observations }, { rowsPerTransaction: 10, rowsPerStatement: 1 }, stopAfter);
      const gathered = await written({ observations }, { rowsPerTransaction: 10, rowsPerStatement: 4 }, stopAfter);
      // Some were rolled back (the open transaction had rows), and some were kept but for the first stop.
      expect(totalObservations(gathered.stored), `stopped after ${stopAfter}`).to.be.below(Math.min(stopAfter, observations.length));
      if (stopAfter > 5) expect(gathered.tables.psi_section.length, `stopped after ${stopAfter}`).to.be.above(0);
      expect(gathered.tables, `stopped after ${stopAfter}`).to.deep.equal(oneByOne.tables);
      expect(gathered.counts, `stopped after ${stopAfter}`).to.deep.equal(gathered.stored);
    }
    // One kind alone: 25 PSI sections, 10 a transaction, 4 a statement: the 5 of the open transaction (one statement's 4 inserted, 1 gathered) are not stored.
    const writer = createObservationWriter(run.db, { rowsPerTransaction: 10, rowsPerStatement: 4 });
    psiSections.slice(0, 25).forEach(writer.write);
    writer.abort();
    expect(seqs(run.db, 'psi-section')).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(writer.counts()).to.deep.equal({ ...emptyObservationCounts(), 'psi-section': 20 });
  });

  it('stores at finish() the rows gathered short of a statement', () => {
    const writer = createObservationWriter(run.db, { rowsPerStatement: 32 });
    psiSections.slice(0, 5).forEach(writer.write);
    expect(writer.finish()).to.deep.equal({ ...emptyObservationCounts(), 'psi-section': 5 });
    expect(seqs(run.db, 'psi-section')).to.deep.equal([1, 2, 3, 4, 5]);
    expect(everyTable(run.db).psi_section.map((row) => row.slice(1))).to.deep.equal(
      psiSections.slice(0, 5).map((o) => {
        const row: SqlValue[] = [];
        rowCodecOf('psi-section').encode(o, 0, row);
        return row.slice(1);
      }),
    );
  });

  it('refuses a rowsPerStatement below 1, above 64 or not whole', () => {
    for (const rowsPerStatement of [0, 65, 1.5]) {
      expect(datasetErrorOf(() => createObservationWriter(run.db, { rowsPerStatement })), String(rowsPerStatement)).to.include({ code: 'ERR_DATASET_INVALID_PARAMETER' });
    }
  });
});
