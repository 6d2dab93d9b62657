/**
 * The ST 0601 Location pack used by Airbase Locations (item 130) and the
 * Waypoint List (item 141): latitude IMAPB(-90, 90, 4 bytes), longitude
 * IMAPB(-180, 180, 4 bytes), then an optional height above ellipsoid
 * IMAPB(-900, 9000, 3 bytes) (ST 0601.17 items 130/141 "Location DLP",
 * truncation allowed after the longitude).
 */
import { createImapbMapping, imapbForward, type ImapbValue } from './imapb.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import type { PackReader } from './pack-reader.js';
import { requireRecord } from './vlp-series.js';

const LATITUDE = createImapbMapping(-90, 90, 4);
const LONGITUDE = createImapbMapping(-180, 180, 4);
const HAE = createImapbMapping(-900, 9000, 3);

export interface St0601Location {
  readonly latitude: ImapbValue;
  readonly longitude: ImapbValue;
  /** Height above the WGS84 ellipsoid in metres; absent when the pack was truncated. */
  readonly hae?: ImapbValue;
}

/** Reads a location filling `[reader.pos, end)`: 8 bytes, or 11 with the height. */
export function readSt0601Location(reader: PackReader, end: number, what: string): St0601Location {
  const size = end - reader.pos;
  if (size !== 8 && size !== 11) {
    reader.fail(`${what}: a location is 8 or 11 bytes, got ${size}`);
    return { latitude: 0, longitude: 0 };
  }
  const latitude = reader.imapb(LATITUDE, `${what} latitude`);
  const longitude = reader.imapb(LONGITUDE, `${what} longitude`);
  if (size === 8) return { latitude, longitude };
  return { latitude, longitude, hae: reader.imapb(HAE, `${what} height`) };
}

export function writeSt0601Location(value: unknown, what: string): Uint8Array {
  const record = requireRecord(value, what);
  const parts = [imapbForward(LATITUDE, imapbInput(record.latitude, `${what} latitude`)), imapbForward(LONGITUDE, imapbInput(record.longitude, `${what} longitude`))];
  if (record.hae !== undefined && record.hae !== null) parts.push(imapbForward(HAE, imapbInput(record.hae, `${what} height`)));
  return concatBytes(parts);
}

export function imapbInput(value: unknown, what: string): ImapbValue {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && typeof (value as { special?: unknown }).special === 'string') return value as ImapbValue;
  throw new KlvEncodeError(`${what} needs a number, got ${JSON.stringify(value)}`);
}
