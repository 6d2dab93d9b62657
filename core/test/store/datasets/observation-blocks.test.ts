/**
 * The all-number kinds stored in blocks (observation-block-codec.ts): pages,
 * cursors, offsets and totals over rows packed several blocks to a part, a
 * page starting, ending or crossing inside a block; replay through blocks;
 * and parts written before blocks (schema 3, rows in tables) read as they are.
 */
import { expect } from 'chai';
import type { Database } from 'sql.js';
import type { Observation } from '../../../src/kernel/observations.js';
import { exportDataset } from '../../../src/store/datasets/dataset-export.js';
import { readDataset } from '../../../src/store/datasets/dataset-query.js';
import { RAW_DATASET_MIGRATIONS } from '../../../src/store/datasets/dataset-schema.js';
import { OBSERVATION_BLOCK_ROWS, PACKED_KINDS } from '../../../src/store/datasets/observation-block-codec.js';
import { countObservations, emptyObservationCounts } from '../../../src/store/datasets/observation-counts.js';
import { replayObservations } from '../../../src/store/datasets/observation-replay.js';
import { rowCodecOf, type DatasetRow } from '../../../src/store/datasets/observation-row-codec.js';
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

  it('stores only the kinds whose every column is a number in blocks', () => {
    expect([...PACKED_KINDS].sort()).to.deep.equal(['discontinuity', 'pcr', 'pes', 'pid-stats']);
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
