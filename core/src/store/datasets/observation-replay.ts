/**
 * The stored observations of a run, read back as the engine emitted them:
 * a k-way merge of the per-kind tables on `seq`, each read through its own
 * statement in `seq` order, so no table is ever loaded whole. What comes
 * out is deep-equal, in the same order, to what the writer was given: the
 * `process` stage re-runs the checks over it instead of the file. The
 * fields a metadata packet keeps as items come right after it
 * (klv-field-derivation.ts).
 */
import type { Database, SqlValue } from 'sql.js';
import type { KlvPacketObservation, MetadataPacketObservation, Observation, ObservationKind } from '../../kernel/observations.js';
import { DerivedFieldCounts, fieldOfItem } from './klv-field-derivation.js';
import { packedRows, PACKED_KINDS } from './observation-block-codec.js';
import { OBSERVATION_ROW_CODECS, type ObservationRowCodec } from './observation-row-codec.js';

interface TableCursor {
  readonly codec: ObservationRowCodec;
  /** The kind's rows in seq order: stepped from its table, or read from its blocks (observation-block-codec.ts). */
  readonly rows: Generator<SqlValue[], void, undefined>;
  row: SqlValue[];
  seq: number;
}

/** A kind's rows stepped from its table in seq order. */
function* tableRows(db: Database, select: string): Generator<SqlValue[], void, undefined> {
  const statement = db.prepare(`${select} ORDER BY seq`);
  try {
    while (statement.step()) yield statement.get();
  } finally {
    statement.free();
  }
}

/**
 * Every stored observation in emission order, or only those of `kinds`
 * (the kinds a run's checks consume: the others' tables are not read).
 * Synchronous (sql.js is), so it fits `runObservations`, which yields
 * between batches; leaving the loop early (break, throw) frees the
 * statements.
 */
export function* replayObservations(db: Database, kinds?: ReadonlySet<ObservationKind>): Generator<Observation, void, undefined> {
  const cursors: TableCursor[] = [];
  const itemFields = new DerivedFieldCounts(db);
  const wanted = (kind: ObservationKind): boolean => kinds === undefined || kinds.has(kind);
  // Fields kept as items are made from their packets: the packets are read when either is wanted.
  const fieldsWanted = wanted('klv-field');
  const packetsWanted = wanted('metadata-packet');
  // A metadata packet stored as its triplet (metadata-items-derivation.ts) takes it from the klv-packet replayed
  // just before it, when those are replayed, rather than from its select, which would read every triplet twice.
  const tripletsReplayed = wanted('klv-packet');
  let tripletSeq = 0;
  let triplet: Uint8Array | null = null;
  try {
    for (const codec of OBSERVATION_ROW_CODECS) {
      if (!wanted(codec.kind) && !(codec.kind === 'metadata-packet' && fieldsWanted)) continue;
      const rows = PACKED_KINDS.has(codec.kind) ? packedRows(db, codec, 0, 0, !tripletsReplayed) : tableRows(db, codec.selectSql);
      const cursor: TableCursor = { codec, rows, row: [], seq: 0 };
      cursors.push(cursor); // before the first step, so `finally` frees it if that throws
      if (!advance(cursor)) cursors.pop();
    }
    while (cursors.length > 0) {
      // The table with the smallest next seq, and the next smallest of the others: the first one can be
      // drained without comparing again up to that bound (runs of one kind are long: PES, KLV fields).
      let first = 0;
      for (let i = 1; i < cursors.length; i++) if (cursors[i].seq < cursors[first].seq) first = i;
      let bound = Infinity;
      for (let i = 0; i < cursors.length; i++) if (i !== first && cursors[i].seq < bound) bound = cursors[i].seq;
      const cursor = cursors[first];
      let more = true;
      const packets = cursor.codec.kind === 'metadata-packet';
      const triplets = cursor.codec.kind === 'klv-packet';
      while (more && cursor.seq < bound) {
        if (packets && tripletsReplayed) cursor.row[cursor.codec.tripletColumn] = tripletSeq === cursor.seq - 1 ? triplet : null;
        const observation = cursor.codec.decodeObservation(cursor.row);
        if (triplets) {
          tripletSeq = cursor.seq;
          triplet = (observation as KlvPacketObservation).raw;
        }
        if (!packets || packetsWanted) yield observation;
        if (packets && fieldsWanted) {
          // Its fields' seqs follow its own: no other table has a row before them.
          const packet = observation as MetadataPacketObservation;
          const fields = itemFields.at(cursor.seq);
          for (let i = 0; i < fields; i++) yield fieldOfItem(packet, packet.items[i]);
        }
        more = advance(cursor);
      }
      if (!more) cursors.splice(first, 1);
    }
  } finally {
    for (const cursor of cursors) cursor.rows.return();
    itemFields.free();
  }
}

/** The cursor's next row; false (its statements freed) when none is left. */
function advance(cursor: TableCursor): boolean {
  const next = cursor.rows.next();
  if (next.done === true) return false;
  cursor.row = next.value;
  cursor.seq = cursor.row[0] as number;
  return true;
}
