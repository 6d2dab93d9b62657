/**
 * sql.js (SQLite compiled to WebAssembly), initialised once per process and
 * only when a database is first opened, so commands that never touch the
 * store do not pay for compiling the wasm.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { SqlJsStatic } from 'sql.js';

let engine: Promise<SqlJsStatic> | undefined;
let started: SqlJsStatic | undefined;

export function loadSqlEngine(): Promise<SqlJsStatic> {
  engine ??= startEngine().then(
    (sql) => (started = sql),
    (error: unknown) => {
      engine = undefined; // a failed start (e.g. a missing file) may be retried
      throw error;
    },
  );
  return engine;
}

/**
 * The engine once loadSqlEngine() has settled, for the synchronous opening
 * of a run's parts (a replay or a page goes from one part to the next
 * without waiting); throws when it has not been loaded.
 */
export function loadedSqlEngine(): SqlJsStatic {
  if (started === undefined) throw new Error('sql.js is not loaded yet: await loadSqlEngine() first');
  return started;
}

async function startEngine(): Promise<SqlJsStatic> {
  // The script by import(), so that the CLI's bundle (scripts/bundle.mjs)
  // holds it and its code cache covers it; the wasm from node_modules at run time.
  const { default: initSqlJs } = await import('sql.js');
  const wasm = await readFile(createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm'));
  // Handing over the bytes keeps sql.js from looking for the wasm itself.
  return initSqlJs({ wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) });
}
