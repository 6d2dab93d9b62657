/**
 * Stores the observations of an ingest run as they are emitted: an
 * ObservationSink that inserts each one into its kind's table with
 * prepared statements, numbering them in emission order (`seq`). The rows
 * of a kind stored as rows (not packed into blocks) go in multi-row
 * statements of `rowsPerStatement` rows (multi-row-insert.ts).
 *
 * Inserts run in transactions of `rowsPerTransaction` rows
 * (batchedTransactions says why). The writer owns the database's
 * transactions while it is open; the caller saves the file.
 */
import type { Database } from 'sql.js';
import type { KlvFieldObservation, KlvPacketObservation, MetadataPacketObservation, Observation, ObservationSink } from '../../kernel/observations.js';
import { observationKindIndex } from '../../kernel/observation-kinds.js';
import { batchedTransactions } from '../sql-transaction.js';
import { DatasetError } from './dataset-error.js';
import { derivedFields, isFieldOfItem, METADATA_FIELDS_TABLE } from './klv-field-derivation.js';
import { isDecodedFrom } from './metadata-items-derivation.js';
import { blockRowsByKind, ObservationBlockBuilder, PACKED_KINDS, prepareBlockInsert } from './observation-block-codec.js';
import { MAX_ROWS_PER_STATEMENT, MultiRowInsert, multiRowInsertSql } from './multi-row-insert.js';
import { emptyObservationCounts, type ObservationCounts } from './observation-counts.js';
import { OBSERVATION_ROW_CODECS } from './observation-row-codec.js';

export const DEFAULT_ROWS_PER_TRANSACTION = 10_000;
export const DEFAULT_ROWS_PER_STATEMENT = 32;

export interface ObservationWriterOptions {
  /** Rows per committed transaction; default 10 000. */
  rowsPerTransaction?: number;
  /**
   * Rows of one table per INSERT statement (1 to 64), for the kinds stored as rows and the
   * `metadata_fields` counts; rows are gathered until there are as many, or a commit. Default 32;
   * 1 inserts each row as it comes.
   */
  rowsPerStatement?: number;
  /** Number the rows after this `seq` (a run's next part); default: after the largest stored. */
  afterSeq?: number;
  /**
   * The pass makes no klv-field observations (none of its readers wants
   * them, so the KLV observer leaves them unmade): each metadata packet's
   * items are stored as the fields the observer makes right after it, one
   * per item at the seqs after the packet's, as if they had come. A klv-field
   * written then is an error. Default false: the fields are written.
   */
  fieldsFromItems?: boolean;
}

export interface ObservationWriter {
  /** Stores one observation; pass it where an ObservationSink goes (it needs no `this`). */
  readonly write: ObservationSink;
  /** The observations stored so far, per kind (a copy). */
  counts(): ObservationCounts;
  /** The `seq` of the last observation stored (a field made from its packet's items included). */
  lastSeq(): number;
  /** Commits what is pending, releases the statements and returns the counts per kind. */
  finish(): ObservationCounts;
  /**
   * Rolls back the open transaction and releases the statements. Rows of
   * transactions already committed stay (and counts() then gives them): an
   * aborted run's database is discarded by its owner. Call it when write()
   * threw, too. Safe to call more than once, and after finish().
   */
  abort(): void;
}

/** The largest `seq` stored so far, so a writer on a database that has rows goes on after them. */
function lastSeq(db: Database): number {
  const union = OBSERVATION_ROW_CODECS.map((codec) => `SELECT max(seq) AS seq FROM "${codec.table}"`).join(' UNION ALL ');
  const [result] = db.exec(`SELECT coalesce(max(seq), 0) FROM (${union})`);
  const inBlocks = [...blockRowsByKind(db).values()].map((kind) => kind.lastSeq);
  return Math.max(Number(result.values[0][0]), derivedFields(db).lastSeq, ...inBlocks);
}

const METADATA_PACKET = observationKindIndex('metadata-packet');
const KLV_PACKET = observationKindIndex('klv-packet');
const KLV_FIELD = observationKindIndex('klv-field');

export function createObservationWriter(db: Database, options: ObservationWriterOptions = {}): ObservationWriter {
  const rowsPerTransaction = options.rowsPerTransaction ?? DEFAULT_ROWS_PER_TRANSACTION;
  if (!Number.isSafeInteger(rowsPerTransaction) || rowsPerTransaction < 1) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `rowsPerTransaction must be a whole number of at least 1, got ${rowsPerTransaction}`, {
      parameter: 'rowsPerTransaction',
      value: rowsPerTransaction,
    });
  }
  const rowsPerStatement = options.rowsPerStatement ?? DEFAULT_ROWS_PER_STATEMENT;
  if (!Number.isSafeInteger(rowsPerStatement) || rowsPerStatement < 1 || rowsPerStatement > MAX_ROWS_PER_STATEMENT) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `rowsPerStatement must be a whole number from 1 to ${MAX_ROWS_PER_STATEMENT}, got ${rowsPerStatement}`, {
      parameter: 'rowsPerStatement',
      value: rowsPerStatement,
    });
  }
  const fieldsFromItems = options.fieldsFromItems ?? false;
  let seq = options.afterSeq ?? lastSeq(db);
  // The packed kinds gather their rows into blocks (observation-block-codec.ts), stored when full and before every commit;
  // the other kinds gather theirs for multi-row statements, stored likewise.
  const blocks = OBSERVATION_ROW_CODECS.map((codec) => (PACKED_KINDS.has(codec.kind) ? new ObservationBlockBuilder(codec.columns) : null));
  const inserts: Array<MultiRowInsert | null> = OBSERVATION_ROW_CODECS.map((codec, index) =>
    blocks[index] === null ? new MultiRowInsert(db, (rows) => codec.insertRowsSql(rows), codec.columns.length + 1, rowsPerStatement) : null,
  );
  // How many fields each packet keeps as items (klv-field-derivation.ts): one row per metadata packet.
  const fieldsInsert = new MultiRowInsert(db, (rows) => multiRowInsertSql(METADATA_FIELDS_TABLE, 'seq, fields', '(?, ?)', rows), 2, rowsPerStatement);
  const blockInsert = prepareBlockInsert(db);
  const storeBlock = (index: number): void => {
    const block = blocks[index];
    if (block === null || block.count === 0) return;
    blockInsert.run([OBSERVATION_ROW_CODECS[index].kind, block.firstSeq, block.lastSeq, block.count, block.takeForStatement()]);
  };
  /** Stores every block and gathered row: before each commit. */
  const storeGathered = (): void => {
    for (let index = 0; index < blocks.length; index++) {
      storeBlock(index);
      inserts[index]?.flush();
    }
    fieldsInsert.flush();
  };
  // The last metadata packet written and how many of its items followed it as fields (klv-field-derivation.ts).
  let packet: MetadataPacketObservation | null = null;
  let packetSeq = 0;
  let itemFields = 0;
  // The klv-packet stored at the last seq, if the last row was one: a metadata packet decoded from it keeps only it.
  let triplet: KlvPacketObservation | null = null;
  let tripletSeq = 0;
  const perKind = new Array<number>(OBSERVATION_ROW_CODECS.length).fill(0);
  // What the committed transactions hold, for abort().
  let committed = perKind.slice();
  let open = true;
  const transactions = batchedTransactions(db, rowsPerTransaction, () => (committed = perKind.slice()), storeGathered);

  const countsNow = (): ObservationCounts => {
    const counts = emptyObservationCounts();
    OBSERVATION_ROW_CODECS.forEach((codec, index) => (counts[codec.kind] = perKind[index]));
    return counts;
  };
  const assertOpen = (): void => {
    if (!open) throw new DatasetError('ERR_DATASET_WRITER_CLOSED', 'the observation writer was already finished or aborted');
  };
  const release = (): void => {
    open = false;
    blockInsert.free();
    for (const insert of inserts) insert?.free();
    fieldsInsert.free();
  };

  /** Stores how many fields the last packet keeps as items, once they have all come. */
  const endItemFields = (): void => {
    if (itemFields > 0) {
      transactions.beforeRow();
      const at = fieldsInsert.nextRow();
      fieldsInsert.values[at] = packetSeq;
      fieldsInsert.values[at + 1] = itemFields;
      fieldsInsert.added();
      transactions.afterRow();
    }
    packet = null;
    itemFields = 0;
  };

  const write = (observation: Observation): void => {
    assertOpen();
    const index = observationKindIndex(observation.kind);
    if (index < 0) {
      throw new DatasetError('ERR_DATASET_UNSUPPORTED_KIND', `an observation of kind '${String(observation.kind)}' has no table`, { kind: observation.kind });
    }
    if (index === KLV_FIELD && fieldsFromItems) {
      throw new DatasetError('ERR_DATASET_UNSUPPORTED_KIND', 'a klv-field observation came to a writer that makes the fields from their packets\' items', { kind: observation.kind });
    }
    if (index === KLV_FIELD && packet !== null && seq === packetSeq + itemFields && isFieldOfItem(observation as KlvFieldObservation, packet, itemFields)) {
      seq++;
      itemFields++;
      perKind[index]++;
      return;
    }
    endItemFields();
    transactions.beforeRow();
    const itemsFromTriplet = index === METADATA_PACKET && tripletSeq === seq && isDecodedFrom(observation as MetadataPacketObservation, triplet);
    const block = blocks[index];
    if (block === null) {
      // Straight into the values of the table's next multi-row statement: the hot path allocates nothing of its own.
      const insert = inserts[index] as MultiRowInsert;
      OBSERVATION_ROW_CODECS[index].encode(observation, ++seq, insert.values, itemsFromTriplet, insert.nextRow());
      insert.added();
    } else {
      OBSERVATION_ROW_CODECS[index].encodeIntoBlock(observation, ++seq, block, itemsFromTriplet);
      if (block.full) storeBlock(index);
    }
    perKind[index]++;
    transactions.afterRow();
    if (index === METADATA_PACKET) {
      packet = observation as MetadataPacketObservation;
      packetSeq = seq;
      if (fieldsFromItems) {
        // The fields the KLV observer makes after the packet (klv-packet-observer.ts), one per item.
        itemFields = packet.items.length;
        seq += itemFields;
        perKind[KLV_FIELD] += itemFields;
      }
    } else if (index === KLV_PACKET) {
      triplet = observation as KlvPacketObservation;
      tripletSeq = seq;
    }
  };

  return {
    write,
    counts: countsNow,
    lastSeq: () => seq,
    finish() {
      assertOpen();
      endItemFields();
      transactions.commit();
      release();
      return countsNow();
    },
    abort() {
      if (!open) return;
      transactions.rollback();
      // What was gathered for the rolled-back transaction is dropped with it.
      for (const block of blocks) block?.clear();
      for (const insert of inserts) insert?.drop();
      fieldsInsert.drop();
      release();
      // The rolled-back rows are not stored: count only what the committed transactions hold.
      committed.forEach((count, index) => (perKind[index] = count));
    },
  };
}
