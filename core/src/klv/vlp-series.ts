/**
 * MISB ST 0601 "Series" of Variable Length Packs (ST 0601.17 section 6.4.4,
 * used by items 128, 140, 141 and the records of 138): records back to
 * back, each a BER length followed by that many bytes of record.
 */
import { encodeBerLength } from './ber-length.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import type { PackReader } from './pack-reader.js';

/** Reads records until the pack ends; `readRecord` reads one record within `[reader.pos, recordEnd)`. */
export function readVlpSeries<T>(reader: PackReader, what: string, readRecord: (reader: PackReader, recordEnd: number) => T): T[] {
  const records: T[] = [];
  while (reader.remaining > 0) {
    const length = reader.berLength(`${what} record ${records.length + 1} length`);
    if (reader.failed) break;
    const recordEnd = reader.pos + length;
    const record = readRecord(reader, recordEnd);
    if (reader.failed) break;
    if (reader.pos !== recordEnd) {
      reader.fail(`${what} record ${records.length + 1}: ${recordEnd - reader.pos} bytes left unread`);
      break;
    }
    records.push(record);
  }
  return records;
}

/** Writes records as a series: each encoded record preceded by its BER length. */
export function writeVlpSeries(records: unknown, what: string, encodeRecord: (record: unknown) => Uint8Array): Uint8Array {
  if (!Array.isArray(records)) throw new KlvEncodeError(`${what} needs an array, got ${JSON.stringify(records)}`);
  const parts: Uint8Array[] = [];
  for (const record of records as unknown[]) {
    const bytes = encodeRecord(record);
    parts.push(encodeBerLength(bytes.length), bytes);
  }
  return concatBytes(parts);
}

/** The record as an object, for encoders. */
export function requireRecord(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KlvEncodeError(`${what} needs an object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}
