/**
 * Small typed reads and writes over a sql.js database. Repositories turn the
 * loosely typed rows sql.js gives into their own row types with the column
 * readers below, which fail loudly instead of passing a wrong type along.
 */
import type { BindParams, Database, ParamsObject, SqlValue } from 'sql.js';
import { StoreError } from './store-error.js';

export type SqlRow = ParamsObject;

export function selectAll(db: Database, sql: string, params?: BindParams): SqlRow[] {
  const statement = db.prepare(sql);
  try {
    if (params !== undefined) statement.bind(params);
    const rows: SqlRow[] = [];
    while (statement.step()) rows.push(statement.getAsObject());
    return rows;
  } finally {
    statement.free();
  }
}

export function selectOne(db: Database, sql: string, params?: BindParams): SqlRow | undefined {
  return selectAll(db, sql, params)[0];
}

/** Runs one statement; returns the number of rows it inserted, updated or deleted. */
export function execute(db: Database, sql: string, params?: BindParams): number {
  db.run(sql, params);
  return db.getRowsModified();
}

/** Runs one statement, prepared once, for each item with the parameters `paramsOf` gives it. */
export function executeEach<T>(db: Database, sql: string, items: Iterable<T>, paramsOf: (item: T) => BindParams): void {
  const statement = db.prepare(sql);
  try {
    for (const item of items) statement.run(paramsOf(item));
  } finally {
    statement.free();
  }
}

export function textColumn(row: SqlRow, column: string): string {
  return expectType(row, column, 'string') as string;
}

export function numberColumn(row: SqlRow, column: string): number {
  return expectType(row, column, 'number') as number;
}

export function optionalTextColumn(row: SqlRow, column: string): string | null {
  return row[column] === null ? null : textColumn(row, column);
}

export function optionalNumberColumn(row: SqlRow, column: string): number | null {
  return row[column] === null ? null : numberColumn(row, column);
}

/** A column holding JSON text; the caller names the type it stored there. */
export function jsonColumn<T>(row: SqlRow, column: string): T {
  return JSON.parse(textColumn(row, column)) as T;
}

function expectType(row: SqlRow, column: string, type: 'string' | 'number'): SqlValue {
  const value = row[column];
  if (typeof value !== type) {
    throw new StoreError('ERR_STORE_CORRUPT', `column '${column}' holds ${describe(value)}, expected a ${type}`, { column });
  }
  return value;
}

function describe(value: SqlValue | undefined): string {
  if (value === undefined) return 'nothing (no such column)';
  if (value === null) return 'NULL';
  return value instanceof Uint8Array ? 'a blob' : `a ${typeof value}`;
}
