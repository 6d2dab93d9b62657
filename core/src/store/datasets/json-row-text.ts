/**
 * A dataset row's JSON text made straight from the stored row, for the
 * `json` and `ndjson` exports: the text JSON.stringify gives for the row
 * object (decodeDatasetRow), without making that object. Numbers and short
 * texts are written by hand, a nested value's stored JSON text is spliced in
 * as it is (it is what JSON.stringify made of the value when it was written,
 * and JSON.stringify(JSON.parse(text)) gives the text back), and only values
 * kept in another form (tagged JSON, items decoded from a triplet, values
 * of fields made from their packet's items) go through JSON.stringify.
 */
import type { SqlValue } from 'sql.js';
import { bytesToHex } from '../../klv/hex.js';
import { decodeJsonValue } from './lossless-json.js';
import type { ObservationColumn } from './observation-columns.js';
import type { DatasetRow } from './observation-row-codec.js';

/** JSON text of a string: quoted as it is when nothing in it needs escaping (the common case), else JSON.stringify's. */
export function jsonString(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Control characters, '"' and '\' are escaped; lone surrogates too (well-formed JSON.stringify).
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

/** JSON text of a number as JSON.stringify writes it (non-finite numbers are null). */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** JSON text of any value of a dataset row. */
export function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return jsonNumber(value);
    case 'string':
      return jsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null || value === undefined ? 'null' : JSON.stringify(value);
  }
}

/** The text of a stored column's value in a dataset row. */
function columnText(column: ObservationColumn, value: unknown): string {
  if (value === null) return 'null';
  switch (column.type) {
    case 'integer':
    case 'real':
      return jsonNumber(value as number);
    case 'boolean':
      return value === 1 ? 'true' : 'false';
    case 'text':
      return jsonString(value as string);
    case 'blob':
      return `"${bytesToHex(value as Uint8Array)}"`;
    case 'json':
      // Plain JSON text is spliced in; tagged text (lossless-json.ts) and values already decoded are written anew.
      return typeof value === 'string' && value.charCodeAt(0) !== 0x7e ? value : JSON.stringify(typeof value === 'string' ? decodeJsonValue(value) : value);
  }
}

/** Makes the text of rows `[seq, ...columns]` of a table whose dataset fields are `fields` (`seq` first). */
export function storedRowText(columns: readonly ObservationColumn[], fields: readonly string[]): (row: readonly SqlValue[]) => string {
  const keys = fields.map((field, i) => `${i === 0 ? '{' : ','}${JSON.stringify(field)}:`);
  const count = columns.length;
  return (row) => {
    let text = `${keys[0]}${jsonNumber(row[0] as number)}`;
    for (let i = 0; i < count; i++) text += keys[i + 1] + columnText(columns[i], row[i + 1]);
    return `${text}}`;
  };
}

/** Makes the text of row objects with the fields `fields`, in that order. */
export function objectRowText(fields: readonly string[]): (row: DatasetRow) => string {
  const keys = fields.map((field, i) => `${i === 0 ? '{' : ','}${JSON.stringify(field)}:`);
  return (row) => {
    let text = '';
    for (let i = 0; i < fields.length; i++) text += keys[i] + jsonValue(row[fields[i]]);
    return `${text}}`;
  };
}
