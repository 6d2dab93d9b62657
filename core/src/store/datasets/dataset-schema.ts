/**
 * The schema of a run database's raw datasets: one table per observation
 * kind (observation-columns.ts says how each field maps to a column).
 *
 * `seq INTEGER PRIMARY KEY` is the observation's place in the engine's
 * emission order across all kinds, so replay can merge the tables back into
 * one stream, and keyset paging (`seq > ?`) is stable. It is the rowid, so
 * ordering by it needs no index. The two filtered columns (`table_type`,
 * the ts-error `type`) are indexed for their counts; the high-volume tables
 * get no index, so inserts stay appends.
 *
 * Migrations are append-only: a released one is never edited; a schema
 * change is a new entry with the next version.
 */
import type { Database } from 'sql.js';
import type { Migration } from '../schema-migrations.js';

/** A migration of the run database, with its SQL for those who apply it themselves. */
export interface RawDatasetMigration extends Migration {
  readonly sql: string;
}

const POSITION = `
  seq INTEGER PRIMARY KEY,
  "offset" INTEGER NOT NULL,
  packet_index INTEGER NOT NULL,
  t REAL,
  pid INTEGER NOT NULL`;

// Kept apart because migration 3 makes it again with nullable items (its text is version 1's, unchanged).
const METADATA_PACKET_TABLE_V1 = `CREATE TABLE metadata_packet (${POSITION},
  klv_index INTEGER NOT NULL,
  standard TEXT NOT NULL,
  key_name TEXT NOT NULL,
  version INTEGER,
  timestamp_micros INTEGER,
  checksum TEXT,
  pts_90khz INTEGER,
  items TEXT NOT NULL
);`;

const OBSERVATION_TABLES_V1 = `
CREATE TABLE pcr (${POSITION},
  pcr_27mhz INTEGER NOT NULL,
  discontinuity INTEGER NOT NULL
);
CREATE TABLE discontinuity (${POSITION},
  has_pcr INTEGER NOT NULL
);
CREATE TABLE psi_section (${POSITION},
  table_id INTEGER NOT NULL,
  table_type TEXT NOT NULL,
  table_id_extension INTEGER NOT NULL,
  version INTEGER NOT NULL,
  section_number INTEGER NOT NULL,
  last_section_number INTEGER NOT NULL,
  section_length INTEGER NOT NULL
);
CREATE INDEX psi_section_by_table_type ON psi_section (table_type);
CREATE TABLE pat (${POSITION},
  transport_stream_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  programs TEXT NOT NULL
);
CREATE TABLE pmt (${POSITION},
  program_number INTEGER NOT NULL,
  version INTEGER NOT NULL,
  pcr_pid INTEGER NOT NULL,
  program_descriptors TEXT NOT NULL,
  streams TEXT NOT NULL
);
CREATE TABLE pes (${POSITION},
  stream_id INTEGER NOT NULL,
  pes_packet_length INTEGER NOT NULL,
  pts_90khz INTEGER,
  dts_90khz INTEGER,
  random_access INTEGER NOT NULL
);
CREATE TABLE ts_error (${POSITION},
  type TEXT NOT NULL,
  severity TEXT NOT NULL,
  tr101290 TEXT,
  message TEXT NOT NULL,
  details TEXT
);
CREATE INDEX ts_error_by_type ON ts_error (type);
CREATE TABLE pid_stats (${POSITION},
  packets INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  pes_count INTEGER NOT NULL,
  pes_with_pts INTEGER NOT NULL,
  pes_with_dts INTEGER NOT NULL,
  pcr_count INTEGER NOT NULL,
  continuity_errors INTEGER NOT NULL,
  transport_errors INTEGER NOT NULL,
  scrambled_packets INTEGER NOT NULL,
  discontinuities INTEGER NOT NULL
);
CREATE TABLE klv_packet (${POSITION},
  klv_index INTEGER NOT NULL,
  carriage TEXT NOT NULL,
  key_hex TEXT NOT NULL,
  key_name TEXT,
  length INTEGER NOT NULL,
  raw BLOB NOT NULL,
  pts_90khz INTEGER
);
${METADATA_PACKET_TABLE_V1}
CREATE TABLE klv_field (${POSITION},
  klv_index INTEGER NOT NULL,
  tag INTEGER NOT NULL,
  name TEXT NOT NULL,
  raw_hex TEXT NOT NULL,
  value TEXT NOT NULL,
  units TEXT
);
CREATE TABLE klv_error (${POSITION},
  klv_index INTEGER,
  type TEXT NOT NULL,
  severity TEXT NOT NULL,
  tag INTEGER,
  message TEXT NOT NULL,
  citation TEXT NOT NULL,
  details TEXT
);
`;

function migration(version: number, name: string, sql: string): RawDatasetMigration {
  return { version, name, sql, up: (db: Database) => db.exec(sql) };
}

/**
 * The run database's migrations, for the store's migrateDatabase (the
 * store's RUN_DATABASE_MIGRATIONS should be these).
 */
export const RAW_DATASET_MIGRATIONS: readonly RawDatasetMigration[] = [
  migration(1, 'observation tables', OBSERVATION_TABLES_V1),
  // The klv-field observations that follow a metadata packet, kept as its items (klv-field-derivation.ts).
  migration(2, 'metadata packet fields', 'CREATE TABLE metadata_fields (seq INTEGER PRIMARY KEY, fields INTEGER NOT NULL);'),
  // A packet's items NULL when they are decoded again from the triplet stored before it (metadata-items-derivation.ts).
  migration(3, 'metadata packets as their triplet', `DROP TABLE metadata_packet;\n${METADATA_PACKET_TABLE_V1.replace('items TEXT NOT NULL', 'items TEXT')}`),
  // The rows of the all-number kinds (PCR, PES, ...) packed by column, a few thousand a row (observation-block-codec.ts).
  migration(
    4,
    'observation blocks',
    'CREATE TABLE observation_block (kind TEXT NOT NULL, first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, rows INTEGER NOT NULL, columns BLOB NOT NULL, PRIMARY KEY (kind, last_seq)) WITHOUT ROWID;',
  ),
  // KLV and metadata packets in blocks too (text and bytes columns): no table changes, but a klvscope that
  // knows only schema 4 would not look for them there, so it must refuse such a part rather than miss its rows.
  migration(5, 'KLV packets in observation blocks', 'SELECT 1;'),
];
