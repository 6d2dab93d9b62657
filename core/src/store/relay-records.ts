/**
 * The relay's two record collections with numeric ids: server status
 * records (one written at every start and stop) and log messages (one per
 * channel event). Both are generated CRUD resources; their rows are flat.
 */
import type { Database } from 'sql.js';
import { selectCollection, type CollectionQuery, type CollectionTable } from './relay-collection-query.js';
import { execute, numberColumn, selectOne, textColumn, type SqlRow } from './sql-query.js';

export interface RelayServerStatusRow {
  id: number;
  startedAt: string;
  state: string;
  errorMessage: string;
}

export interface RelayLogMessageRow {
  id: number;
  time: string;
  type: string;
  message: string;
}

/** A record collection: its table, its API fields with their columns, and how a row reads. */
export interface RelayRecordCollection<R extends { id: number }> {
  table: CollectionTable;
  /** Columns in the order of `valuesOf`. */
  columns: readonly string[];
  valuesOf: (record: Omit<R, 'id'>) => (string | number)[];
  rowOf: (row: SqlRow) => R;
}

export const RELAY_SERVER_STATUS: RelayRecordCollection<RelayServerStatusRow> = {
  table: {
    table: 'relay_server_status',
    fields: [
      { field: 'id', sql: 't.id', type: 'integer' },
      { field: 'startedAt', sql: 't.started_at', type: 'datetime' },
      { field: 'state', sql: 't.state', type: 'text' },
      { field: 'errorMessage', sql: 't.error_message', type: 'text' },
    ],
    tieBreaker: 't.seq',
  },
  columns: ['started_at', 'state', 'error_message'],
  valuesOf: (r) => [r.startedAt, r.state, r.errorMessage],
  rowOf: (row) => ({ id: numberColumn(row, 'id'), startedAt: textColumn(row, 'started_at'), state: textColumn(row, 'state'), errorMessage: textColumn(row, 'error_message') }),
};

export const RELAY_LOG_MESSAGES: RelayRecordCollection<RelayLogMessageRow> = {
  table: {
    table: 'relay_log_messages',
    fields: [
      { field: 'id', sql: 't.id', type: 'integer' },
      { field: 'time', sql: 't.time', type: 'datetime' },
      { field: 'type', sql: 't.type', type: 'text' },
      { field: 'message', sql: 't.message', type: 'text' },
    ],
    tieBreaker: 't.seq',
  },
  columns: ['time', 'type', 'message'],
  valuesOf: (r) => [r.time, r.type, r.message],
  rowOf: (row) => ({ id: numberColumn(row, 'id'), time: textColumn(row, 'time'), type: textColumn(row, 'type'), message: textColumn(row, 'message') }),
};

export function listRelayRecords<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, query: CollectionQuery): { rows: R[]; total: number } {
  const page = selectCollection(db, collection.table, query);
  return { rows: page.rows.map(collection.rowOf), total: page.total };
}

export function getRelayRecord<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, id: number): R | null {
  const row = selectOne(db, `SELECT * FROM ${collection.table.table} WHERE id = ?`, [id]);
  return row === undefined ? null : collection.rowOf(row);
}

/**
 * The largest record id: what an item path takes (15 digits), well inside
 * the integers a JSON number holds exactly (2^53 - 1), so that no id is
 * read back as another.
 */
export const MAX_RELAY_RECORD_ID = 999_999_999_999_999;

/** The id the next insert without one gets: never one used before (SQLite's AUTOINCREMENT), null when the range is used up. */
export function nextRelayRecordId<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>): number | null {
  const table = collection.table.table;
  const row = selectOne(db, `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(id) FROM ${table}), 0)) AS n`, [table]);
  const next = numberColumn(row ?? {}, 'n') + 1;
  return next > MAX_RELAY_RECORD_ID ? null : next;
}

/** Inserts a record (a new id unless one is given) after every other, and returns it as stored; null when no id is left. */
export function insertRelayRecord<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, record: Omit<R, 'id'>, id?: number): R | null {
  const newId = id ?? nextRelayRecordId(db, collection);
  if (newId === null) return null;
  const table = collection.table.table;
  const columns = ['id', 'seq', ...collection.columns];
  execute(db, `INSERT INTO ${table} (${columns.join(', ')}) VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM ${table}), ${collection.columns.map(() => '?').join(', ')})`, [newId, ...collection.valuesOf(record)]);
  return getRelayRecord(db, collection, newId);
}

/** Replaces a record's fields; null when there is none of that id. */
export function replaceRelayRecord<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, id: number, record: Omit<R, 'id'>): R | null {
  const set = collection.columns.map((column) => `${column} = ?`).join(', ');
  if (execute(db, `UPDATE ${collection.table.table} SET ${set} WHERE id = ?`, [...collection.valuesOf(record), id]) === 0) return null;
  return getRelayRecord(db, collection, id);
}

export function deleteRelayRecord<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, id: number): boolean {
  return execute(db, `DELETE FROM ${collection.table.table} WHERE id = ?`, [id]) > 0;
}

/**
 * Keeps a collection under a retention: deletes rows older than `before`
 * (an ISO time, compared with the time column in its canonical form), then
 * all but the newest `keep` by insertion. Returns how many went.
 */
export function trimRelayRecords<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, keep: number, before: string): number {
  const table = collection.table.table;
  const timeColumn = collection.columns[0];
  const old = execute(db, `DELETE FROM ${table} WHERE ${timeColumn} < ?`, [before]);
  return old + execute(db, `DELETE FROM ${table} WHERE seq < (SELECT min(seq) FROM (SELECT seq FROM ${table} ORDER BY seq DESC LIMIT ?))`, [keep]);
}
