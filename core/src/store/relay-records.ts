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
      { field: 'startedAt', sql: 't.started_at', type: 'text' },
      { field: 'state', sql: 't.state', type: 'text' },
      { field: 'errorMessage', sql: 't.error_message', type: 'text' },
    ],
    tieBreaker: 't.id',
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
      { field: 'time', sql: 't.time', type: 'text' },
      { field: 'type', sql: 't.type', type: 'text' },
      { field: 'message', sql: 't.message', type: 'text' },
    ],
    tieBreaker: 't.id',
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

/** Inserts a record (a new id unless one is given) and returns it as stored. */
export function insertRelayRecord<R extends { id: number }>(db: Database, collection: RelayRecordCollection<R>, record: Omit<R, 'id'>, id?: number): R {
  const columns = id === undefined ? collection.columns : ['id', ...collection.columns];
  const values = id === undefined ? collection.valuesOf(record) : [id, ...collection.valuesOf(record)];
  execute(db, `INSERT INTO ${collection.table.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, values);
  const newId = id ?? numberColumn(selectOne(db, 'SELECT last_insert_rowid() AS id') ?? {}, 'id');
  return getRelayRecord(db, collection, newId) as R;
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
