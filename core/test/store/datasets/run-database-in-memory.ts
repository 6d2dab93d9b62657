/** A run database in memory with the raw dataset tables, as the store opens one, for the dataset tests. */
import type { Database } from 'sql.js';
import { RAW_DATASET_MIGRATIONS } from '../../../src/store/datasets/dataset-schema.js';
import { packedRows } from '../../../src/store/datasets/observation-block-codec.js';
import { rowCodecOf, type ObservationRowCodec } from '../../../src/store/datasets/observation-row-codec.js';
import { migrateDatabase } from '../../../src/store/schema-migrations.js';
import { loadSqlEngine } from '../../../src/store/sql-engine.js';

export async function runDatabaseInMemory(): Promise<Database> {
  const db = new (await loadSqlEngine()).Database();
  migrateDatabase(db, RAW_DATASET_MIGRATIONS, 'ingest run (test)');
  return db;
}

/** A fresh database per test, closed after it. */
export function useRunDatabase(): { readonly db: Database } {
  const holder = {} as { db: Database };
  beforeEach(async () => {
    holder.db = await runDatabaseInMemory();
  });
  afterEach(() => holder.db.close());
  return holder;
}

/** Of each metadata packet stored (in its table or in blocks), in seq order: whether its items are kept as its triplet (stored NULL). */
export function packetsKeptAsTriplets(db: Database): boolean[] {
  const codec = rowCodecOf('metadata-packet') as unknown as ObservationRowCodec;
  const items = 1 + codec.columns.findIndex((column) => column.property === 'items');
  // Each row read as it comes: the reader fills one row array again at every step.
  return Array.from(packedRows(db, codec, 0, 0, false), (row) => row[items] === null);
}
