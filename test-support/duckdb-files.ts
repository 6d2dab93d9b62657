/**
 * Reading exported files with an independent reader: DuckDB (`@duckdb/node-api`)
 * for Parquet, and for Arrow IPC streams the Rust arrow-rs reader inside
 * parquet-wasm (DuckDB reads Arrow IPC only through an extension that is
 * downloaded, which this machine cannot): it reads the stream and writes it
 * as Parquet, which DuckDB then reads. Neither shares code with the
 * apache-arrow writer that made the stream.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import * as parquetWasm from 'parquet-wasm';

let connection: Promise<DuckDBConnection> | undefined;

async function duckdb(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create(':memory:').then((instance) => instance.connect());
  return connection;
}

/** The rows of a query as JSON-able objects (BIGINT as text, timestamps as text). */
export async function duckdbRows(sql: string): Promise<Array<Record<string, unknown>>> {
  const reader = await (await duckdb()).runAndReadAll(sql);
  return reader.getRowObjectsJson();
}

/** A path as a SQL string literal. */
export function sqlPath(path: string): string {
  return `'${path.replaceAll("'", "''")}'`;
}

/** An Arrow IPC stream read by arrow-rs, rewritten as a Parquet file at `parquetPath` for DuckDB; its batches and rows as arrow-rs counted them. */
export function arrowStreamAsParquet(arrowPath: string, parquetPath: string): { batches: number; rows: number } {
  const table = parquetWasm.Table.fromIPCStream(readFileSync(arrowPath));
  const batches = table.numBatches;
  let rows = 0;
  for (let i = 0; i < batches; i++) {
    const batch = table.recordBatch(i);
    rows += batch?.numRows ?? 0;
    batch?.free();
  }
  // writeParquet takes the table (its memory is the writer's to free).
  writeFileSync(parquetPath, parquetWasm.writeParquet(table));
  return { batches, rows };
}
