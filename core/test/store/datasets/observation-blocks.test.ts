/**
 * The kinds stored in blocks (observation-block-codec.ts): pages, cursors,
 * offsets and totals over rows packed several blocks to a part, a page
 * starting, ending or crossing inside a block; text and bytes columns (KLV
 * and metadata packets) exactly; replay through blocks; and parts written
 * before blocks (schema 3, rows in tables; schema 4, KLV rows in tables)
 * read as they are.
 */
import { expect } from 'chai';
import type { Database, SqlValue } from 'sql.js';
import type { Observation } from '../../../src/kernel/observations.js';
import { exportDataset } from '../../../src/store/datasets/dataset-export.js';
import { readDataset } from '../../../src/store/datasets/dataset-query.js';
import { RAW_DATASET_MIGRATIONS } from '../../../src/store/datasets/dataset-schema.js';
import { OBSERVATION_BLOCK_ROWS, ObservationBlockBuilder, PACKED_KINDS, packedRows, type BlockRowsRead } from '../../../src/store/datasets/observation-block-codec.js';
import { countObservations, emptyObservationCounts } from '../../../src/store/datasets/observation-counts.js';
import { replayObservations } from '../../../src/store/datasets/observation-replay.js';
import { rowCodecOf, type DatasetRow, type ObservationRowCodec } from '../../../src/store/datasets/observation-row-codec.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { migrateDatabase } from '../../../src/store/schema-migrations.js';
import { loadSqlEngine } from '../../../src/store/sql-engine.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { runDatabaseInMemory } from './run-database-in-memory.js';

/** A PES observation per i, every nullable column null now and then, interleaved with a PCR every seventh. */
function mixed(count: number): Observation[] {
  const observations: Observation[] = [];
  for (let i = 0; i < count; i++) {
    const at = { offset: i * 188, packetIndex: i, t: i % 5 === 0 ? null : i / 10, pid: 0x100 + (i % 3) };
    if (i % 7 === 0) observations.push({ kind: 'pcr', ...at, pcr27MHz: 2 ** 42 - i, discontinuity: i % 2 === 0 });
    else observations.push({ kind: 'pes', ...at, streamId: 0xe0, pesPacketLength: i, pts90kHz: i % 4 === 0 ? null : 2 ** 33 - 1 - i, dts90kHz: i % 3 === 0 ? i : null, randomAccess: i % 11 === 0 });
  }
  return observations;
}

/** The dataset rows of `kind` the writer was given: seq is the emission index from 1. */
function expectedRows(observations: readonly Observation[], kind: Observation['kind']): DatasetRow[] {
  const rows: DatasetRow[] = [];
  observations.forEach((o, index) => {
    if (o.kind !== kind) return;
    const { kind: _kind, ...fields } = o;
    rows.push({ seq: index + 1, ...fields });
  });
  return rows;
}

async function written(observations: readonly Observation[], rowsPerTransaction?: number): Promise<Database> {
  const db = await runDatabaseInMemory();
  const writer = createObservationWriter(db, { rowsPerTransaction });
  observations.forEach(writer.write);
  writer.finish();
  return db;
}

function blocksOf(db: Database, kind: string): number[] {
  return (db.exec(`SELECT rows FROM observation_block WHERE kind = '${kind}' ORDER BY last_seq`)[0]?.values ?? []).map(([rows]) => Number(rows));
}

describe('observation blocks', function () {
  this.timeout(60_000);
  const observations = mixed(3 * OBSERVATION_BLOCK_ROWS + 500);
  const pes = expectedRows(observations, 'pes');
  const pcr = expectedRows(observations, 'pcr');
  let full: Database;
  let small: Database;
  before(async () => {
    full = await written(observations);
    // A commit every 37 rows stores the blocks gathered so far: many short blocks.
    small = await written(observations, 37);
  });
  after(() => {
    full.close();
    small.close();
  });

  it('stores the kinds whose every column is a number, and the KLV and metadata packets, in blocks', () => {
    expect([...PACKED_KINDS].sort()).to.deep.equal(['discontinuity', 'klv-packet', 'metadata-packet', 'pcr', 'pes', 'pid-stats']);
  });

  it('packs at most OBSERVATION_BLOCK_ROWS rows of one kind a block, stores no table row for them, and counts them', () => {
    expect(blocksOf(full, 'pes').every((rows) => rows <= OBSERVATION_BLOCK_ROWS)).to.be.true;
    expect(blocksOf(full, 'pes')).to.have.length.greaterThan(2);
    expect(blocksOf(full, 'pes').reduce((a, b) => a + b, 0)).to.equal(pes.length);
    expect(blocksOf(small, 'pes')).to.have.length.greaterThan(100);
    expect(full.exec('SELECT count(*) FROM pes')[0].values[0][0]).to.equal(0);
    expect(countObservations(small)).to.deep.equal({ ...emptyObservationCounts(), pes: pes.length, pcr: pcr.length });
  });

  for (const [label, db] of [
    ['full blocks', () => full],
    ['short blocks', () => small],
  ] as const) {
    it(`gives every row exactly, nulls and all, from ${label}`, () => {
      expect(readDataset(db(), 'mpegts/pes-timestamps', { limit: 100_000 }).rows).to.deep.equal(pes);
      expect(readDataset(db(), 'mpegts/pcr-values', { limit: 100_000 }).rows).to.deep.equal(pcr);
    });

    it(`pages by cursor across blocks from ${label}, pages of 97, 999 and ${OBSERVATION_BLOCK_ROWS}`, () => {
      for (const limit of [97, 999, OBSERVATION_BLOCK_ROWS]) {
        const rows: DatasetRow[] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = readDataset(db(), 'mpegts/pes-timestamps', { limit, cursor });
          expect(page.total).to.equal(pes.length);
          rows.push(...page.rows);
          if (page.nextCursor === null) break;
          cursor = page.nextCursor;
        }
        expect(rows, `limit ${limit}`).to.deep.equal(pes);
      }
    });

    it(`pages by offset starting inside a block, at a block's end and past the last row, from ${label}`, () => {
      for (const offset of [0, 36, 37, OBSERVATION_BLOCK_ROWS - 1, OBSERVATION_BLOCK_ROWS, OBSERVATION_BLOCK_ROWS + 1, pes.length - 1, pes.length, pes.length + 5]) {
        const page = readDataset(db(), 'mpegts/pes-timestamps', { limit: 50, offset });
        expect(page.rows, `offset ${offset}`).to.deep.equal(pes.slice(offset, offset + 50));
        expect(page.total).to.equal(pes.length);
        expect(page.nextCursor === null, `offset ${offset}`).to.equal(offset + 50 >= pes.length);
      }
    });

    it(`exports NDJSON from ${label} as JSON.stringify of each row`, () => {
      const text = [...exportDataset(db(), 'mpegts/pcr-values', 'ndjson', { chunkBytes: 1000 })].join('');
      expect(text).to.equal(pcr.map((row) => `${JSON.stringify(row)}\n`).join(''));
    });

    it(`replays the observations through blocks in emission order from ${label}`, () => {
      expect([...replayObservations(db())]).to.deep.equal(observations);
    });
  }

  it('keeps every value exact whatever its steps: jumps beyond 2^31, 2^53 - 1, fractions and nulls', async () => {
    const values = [0, 2 ** 40, 3, null, 2 ** 53 - 1, 7, null, null, 1];
    const jumping: Observation[] = values.map((pts, i) => ({
      kind: 'pes',
      offset: i === 4 ? 2 ** 52 : i * 188,
      packetIndex: i,
      t: i % 2 === 0 ? i / 3 : null,
      pid: 8191,
      streamId: 0xc0 + i,
      pesPacketLength: 65_535 - i,
      pts90kHz: pts,
      dts90kHz: pts === null ? 5 : null,
      randomAccess: i === 2,
    }));
    const db = await written(jumping);
    try {
      expect([...replayObservations(db)]).to.deep.equal(jumping);
      expect(readDataset(db, 'mpegts/pes-timestamps', { offset: 3, limit: 3 }).rows).to.deep.equal(expectedRows(jumping, 'pes').slice(3, 6));
    } finally {
      db.close();
    }
  });

  it('packs a row added column by column, into the array shared for a statement (the writer\'s way), into the same bytes as the row the codec encodes', () => {
    const { observations: generated } = generatedObservations(GENERATED_CASES[1].options);
    const odd: Observation[] = [
      // Optional and nullable columns absent, null and present; a metadata packet with NaN, -0 and long text in its JSON.
      { kind: 'klv-packet', offset: 0, packetIndex: 0, t: null, pid: 1, klvIndex: 0, carriage: 'sync', keyHex: '', keyName: null, length: 0, raw: new Uint8Array(0), pts90kHz: null },
      {
        kind: 'metadata-packet',
        offset: 2 ** 40,
        packetIndex: -1,
        t: -0,
        pid: 2,
        klvIndex: 1,
        standard: '\ud800 alone',
        keyName: 'k',
        version: null,
        timestampMicros: 2 ** 53 - 1,
        checksum: { present: true, stored: Number.NaN, computed: -0, valid: false },
        pts90kHz: 0.5,
        items: [{ tag: 1, name: 'x'.repeat(1000), units: null, rawHex: '', value: { nested: [undefined, Infinity] }, deprecated: false }],
      },
    ];
    const all = [...observations, ...generated, ...odd];
    for (const kind of PACKED_KINDS) {
      const codec = rowCodecOf(kind);
      const ofKind = all.filter((observation) => observation.kind === kind);
      expect(ofKind, kind).to.not.be.empty;
      for (const itemsFromTriplet of [false, true]) {
        const byRow = new ObservationBlockBuilder(codec.columns, 1000);
        const byColumn = new ObservationBlockBuilder(codec.columns, 1000);
        const row: SqlValue[] = [];
        const blocks: [Uint8Array, Uint8Array][] = [];
        ofKind.forEach((observation, index) => {
          codec.encode(observation, index + 1, row, itemsFromTriplet);
          byRow.add(row);
          codec.encodeIntoBlock(observation, index + 1, byColumn, itemsFromTriplet);
          // The column path's blocks packed as the writer stores them, into the array shared for a statement (a copy
          // kept): a full block, then a shorter one in the same array, its padding zeroed again.
          if (byRow.full || index === ofKind.length - 1) blocks.push([byRow.take(), Uint8Array.from(byColumn.takeForStatement())]);
        });
        for (const [index, [rowBytes, columnBytes]] of blocks.entries()) {
          expect(Buffer.from(columnBytes).equals(Buffer.from(rowBytes)), `${kind} block ${index}, items from triplet ${itemsFromTriplet}`).to.be.true;
        }
      }
    }
  });

  it('continues a cursor taken inside a block', () => {
    const first = readDataset(small, 'mpegts/pes-timestamps', { limit: 1234 });
    const next = readDataset(small, 'mpegts/pes-timestamps', { limit: 10, cursor: first.nextCursor ?? undefined });
    expect(next.rows).to.deep.equal(pes.slice(1234, 1244));
  });

  it('replays the generated streams through blocks as the engine emitted them', async () => {
    const { observations: generated } = generatedObservations(GENERATED_CASES[0].options);
    const db = await written(generated, 50);
    try {
      expect([...replayObservations(db)]).to.deep.equal(generated);
    } finally {
      db.close();
    }
  });

  it('keeps texts and bytes exact in blocks: none, empty, long, repeated, non-ASCII, a lone surrogate, JSON and null', async () => {
    const texts = ['sync', '', 'µ° "quoted" \\ \u0000', '\ud800 alone', 'x'.repeat(70_000), 'sync'];
    const packets: Observation[] = texts.map((text, i) => ({
      kind: 'klv-packet',
      offset: i * 188,
      packetIndex: i,
      t: i === 2 ? null : i / 7,
      pid: 258,
      klvIndex: i,
      carriage: text as 'sync',
      keyHex: texts[(i + 1) % texts.length],
      keyName: i % 2 === 0 ? null : text,
      length: i * 1000,
      raw: Uint8Array.from({ length: [0, 1, 137, 4095, 70_001, 3][i] }, (_, b) => (b * 7 + i) & 0xff),
      pts90kHz: i === 3 ? null : 2 ** 33 - i,
    }));
    const metadata: Observation[] = texts.map((text, i) => ({
      kind: 'metadata-packet',
      offset: i,
      packetIndex: i,
      t: null,
      pid: 258,
      klvIndex: i,
      standard: text,
      keyName: 'none of the decoders',
      version: i === 1 ? null : i,
      timestampMicros: null,
      checksum: i % 2 === 0 ? null : { present: true, stored: i, computed: i, valid: true },
      pts90kHz: null,
      items: [{ tag: i, name: text, units: null, rawHex: '', value: { nested: [text, null, -0] }, deprecated: false }],
    }));
    for (const rowsPerTransaction of [undefined, 2]) {
      const db = await written([...packets, ...metadata], rowsPerTransaction);
      try {
        expect(db.exec('SELECT count(*) FROM klv_packet')[0].values[0][0]).to.equal(0);
        expect(db.exec('SELECT count(*) FROM metadata_packet')[0].values[0][0]).to.equal(0);
        expect([...replayObservations(db)]).to.deep.equal([...packets, ...metadata]);
        expect(readDataset(db, 'klv/packets', { offset: 2, limit: 3 }).rows.map((row) => row.rawHex)).to.deep.equal(
          packets.slice(2, 5).map((packet) => Buffer.from((packet as { raw: Uint8Array }).raw).toString('hex')),
        );
      } finally {
        db.close();
      }
    }
  });

  it('pages klv/packets, klv/metadata-packets and klv/fields by cursor across the blocks of a generated stream, as the rows its one-block copy gives', async () => {
    const { observations: generated } = generatedObservations(GENERATED_CASES[1].options);
    const many = await written(generated, 7);
    const one = await written(generated);
    try {
      expect(blocksOf(many, 'metadata-packet')).to.have.length.greaterThan(10);
      for (const name of ['klv/packets', 'klv/metadata-packets', 'klv/fields']) {
        const whole = readDataset(one, name, { limit: 100_000 }).rows;
        expect(whole.length, name).to.be.greaterThan(100);
        const rows: DatasetRow[] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = readDataset(many, name, { limit: 13, cursor });
          rows.push(...page.rows);
          if (page.nextCursor === null) break;
          cursor = page.nextCursor;
        }
        expect(rows, name).to.deep.equal(whole);
        expect(readDataset(many, name, { offset: 50, limit: 20 }).rows, name).to.deep.equal(whole.slice(50, 70));
      }
    } finally {
      many.close();
      one.close();
    }
  });

  it('reads only the columns asked for, and bytes and triplets as views of their block when asked, the same values as copies', async () => {
    const { observations: generated } = generatedObservations(GENERATED_CASES[1].options);
    const db = await written(generated);
    try {
      const packets = rowCodecOf('metadata-packet') as unknown as ObservationRowCodec;
      const klvPackets = rowCodecOf('klv-packet') as unknown as ObservationRowCodec;
      const raw = 1 + klvPackets.columns.findIndex((column) => column.property === 'raw');
      const copies = (codec: ObservationRowCodec, read?: BlockRowsRead): SqlValue[][] => [...packedRows(db, codec, 0, 0, true, read)].map((row) => row.slice());
      const whole = copies(packets);
      const triplets = whole.map((row) => row[packets.tripletColumn]).filter((triplet): triplet is Uint8Array => triplet instanceof Uint8Array);
      expect(triplets.length).to.be.greaterThan(100);
      // A copy holds its own bytes; a view shares its block's.
      expect(triplets.every((triplet) => triplet.buffer.byteLength === triplet.byteLength)).to.equal(true);
      const viewed = copies(packets, { tripletViews: true });
      expect(viewed).to.deep.equal(whole);
      expect(viewed.filter((row) => row[packets.tripletColumn] instanceof Uint8Array).every((row) => (row[packets.tripletColumn] as Uint8Array).buffer.byteLength > (row[packets.tripletColumn] as Uint8Array).byteLength)).to.equal(true);
      // Only seq and raw: the other columns left as they were (undefined in a new row).
      const narrow = copies(klvPackets, { columns: [0, raw], bytesAsViews: true });
      const full = copies(klvPackets);
      expect(narrow.map((row) => [row[0], row[raw]])).to.deep.equal(full.map((row) => [row[0], row[raw]]));
      expect(narrow.every((row) => row.every((value, c) => c === 0 || c === raw || value === undefined || value === null))).to.equal(true);
      expect(full.some((row) => typeof row[1] === 'number')).to.equal(true);
    } finally {
      db.close();
    }
  });

  it('refuses a block of more rows than a text column can index', () => {
    expect(() => new ObservationBlockBuilder(rowCodecOf('klv-packet').columns, 65_537)).to.throw(RangeError, 'at most 65 536 rows');
  });

  it('reads a part written before KLV blocks (schema 4: KLV and metadata packets in their tables) as it is', async () => {
    const { observations: generated } = generatedObservations(GENERATED_CASES[1].options);
    const db = new (await loadSqlEngine()).Database();
    const now = await written(generated);
    try {
      migrateDatabase(db, RAW_DATASET_MIGRATIONS.slice(0, 4), 'ingest run (schema 4)');
      // The KLV kinds as schema 4 stored them: table rows, a packet decoded from the triplet before it without its items.
      const writer = createObservationWriter(db);
      const tableKinds = new Set(['klv-packet', 'metadata-packet']);
      generated.filter((o) => !tableKinds.has(o.kind)).forEach(writer.write);
      writer.finish();
      db.exec('DELETE FROM observation_block; DELETE FROM metadata_fields; DELETE FROM pcr');
      const inserts = new Map([...tableKinds].map((kind) => [kind, db.prepare(rowCodecOf(kind as 'klv-packet').insertSql)]));
      let previous: Observation | null = null;
      generated.forEach((observation, index) => {
        const insert = inserts.get(observation.kind);
        if (insert !== undefined) {
          const row: unknown[] = [];
          const fromTriplet = observation.kind === 'metadata-packet' && previous?.kind === 'klv-packet';
          rowCodecOf(observation.kind as 'klv-packet').encode(observation as never, index + 1, row as never, fromTriplet);
          insert.run(row as never);
        }
        previous = observation;
      });
      for (const insert of inserts.values()) insert.free();
      for (const name of ['klv/packets', 'klv/metadata-packets']) {
        expect(readDataset(db, name, { limit: 100_000 }).rows, name).to.deep.equal(readDataset(now, name, { limit: 100_000 }).rows);
      }
    } finally {
      db.close();
      now.close();
    }
  });

  it('reads a part written before blocks (schema 3: the rows in their tables) as it is', async () => {
    const db = new (await loadSqlEngine()).Database();
    try {
      migrateDatabase(db, RAW_DATASET_MIGRATIONS.slice(0, 3), 'ingest run (schema 3)');
      for (const kind of ['pcr', 'pes'] as const) {
        const codec = rowCodecOf(kind);
        const insert = db.prepare(codec.insertSql);
        observations.forEach((observation, index) => {
          if (observation.kind !== kind) return;
          const row: (number | null)[] = [];
          codec.encode(observation, index + 1, row);
          insert.run(row);
        });
        insert.free();
      }
      expect(readDataset(db, 'mpegts/pes-timestamps', { limit: 100, offset: 4000 }).rows).to.deep.equal(pes.slice(4000, 4100));
      expect(readDataset(db, 'mpegts/pcr-values', { limit: 100_000 }).rows).to.deep.equal(pcr);
      expect([...replayObservations(db)]).to.deep.equal(observations);
    } finally {
      db.close();
    }
  });
});
