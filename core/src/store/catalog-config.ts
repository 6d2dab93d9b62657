/**
 * Application configuration as key/value pairs, each value JSON. The keys
 * and their schema belong to the gateway; the catalog only keeps them.
 */
import type { Database } from 'sql.js';
import { execute, jsonColumn, selectAll, selectOne, textColumn } from './sql-query.js';

export function getConfigValue<T = unknown>(db: Database, key: string): T | undefined {
  const row = selectOne(db, 'SELECT value FROM config WHERE key = $key', { $key: key });
  return row && jsonColumn<T>(row, 'value');
}

/** `undefined` cannot be stored as JSON: delete the key instead. */
export function setConfigValue(db: Database, key: string, value: unknown, updatedMs: number): void {
  const json = configValueJson(key, value);
  execute(db, 'INSERT INTO config (key, value, updated_ms) VALUES ($key, $value, $updated) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms', {
    $key: key,
    $value: json,
    $updated: updatedMs,
  });
}

/** Every key with its value, keys in alphabetical order. */
export function readConfig(db: Database): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const row of selectAll(db, 'SELECT key, value FROM config ORDER BY key')) config[textColumn(row, 'key')] = jsonColumn(row, 'value');
  return config;
}

export function deleteConfigValue(db: Database, key: string): boolean {
  return execute(db, 'DELETE FROM config WHERE key = $key', { $key: key }) === 1;
}

/** A configuration value as the JSON text stored; `undefined` (or a function) has none. */
export function configValueJson(key: string, value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) throw new TypeError(`configuration '${key}' cannot hold ${typeof value}; delete the key instead`);
  return json;
}
