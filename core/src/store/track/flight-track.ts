/**
 * The flight of an ingest run, read from its decoded MISB ST 0601 metadata
 * packets (the `klv/metadata-packets` dataset, in packet order): per packet,
 * the time, the platform's position (items 13 Sensor Latitude, 14 Sensor
 * Longitude, 15 Sensor True Altitude: ST 0601 puts the sensor at the
 * platform), the frame centre (23, 24, 25), the sensor footprint (the four
 * corners, items 82-89 when all are there, else the frame centre plus the
 * offsets of items 26-33, ST 0601 8.26-8.33) and the main attitude and
 * sensor values. Packets of other standards, and values a packet lacks,
 * give nothing: a point is only where both its latitude and longitude are.
 */
import type { Database } from 'sql.js';
import type { KlvItem } from '../../kernel/observations.js';
import { datasetPartsOf, datasetRows, planDatasetQuery } from '../datasets/dataset-query.js';
import type { DatasetParts } from '../datasets/dataset-parts.js';
import { ST0601_KEY_NAME } from '../datasets/metadata-items-derivation.js';

export interface GeoPoint {
  readonly lat: number;
  readonly lon: number;
  /** Metres (above MSL, as ST 0601 gives them), or null when the packet has none. */
  readonly alt: number | null;
}

/** The main ST 0601 values of a packet, by name (null when absent), for the properties of a track's points. */
export const TRACK_VALUES = {
  platformHeadingDeg: 5,
  platformPitchDeg: 6,
  platformRollDeg: 7,
  platformTrueAirspeedMps: 8,
  sensorHorizontalFovDeg: 16,
  sensorVerticalFovDeg: 17,
  sensorRelativeAzimuthDeg: 18,
  sensorRelativeElevationDeg: 19,
  sensorRelativeRollDeg: 20,
  slantRangeM: 21,
  targetWidthM: 22,
  platformGroundSpeedMps: 56,
} as const;

export type TrackValueName = keyof typeof TRACK_VALUES;

export interface TrackPoint {
  /** The packet's `seq` in the run. */
  readonly seq: number;
  /** Stream time, seconds. */
  readonly t: number | null;
  /** ST 0601 item 2 Precision Time Stamp, µs since 1970 (UTC). */
  readonly timestampMicros: number | null;
  readonly missionId: string | null;
  readonly platform: GeoPoint | null;
  readonly frameCenter: GeoPoint | null;
  /** The footprint's corners 1 to 4, in the packet's order; null without all four. */
  readonly footprint: readonly GeoPoint[] | null;
  readonly values: Readonly<Record<TrackValueName, number | null>>;
}

const numberAt = (values: ReadonlyMap<number, unknown>, tag: number): number | null => {
  const value = values.get(tag);
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

function pointAt(values: ReadonlyMap<number, unknown>, latTag: number, lonTag: number, altTag: number | null): GeoPoint | null {
  const lat = numberAt(values, latTag);
  const lon = numberAt(values, lonTag);
  if (lat === null || lon === null) return null;
  return { lat, lon, alt: altTag === null ? null : numberAt(values, altTag) };
}

function footprintOf(values: ReadonlyMap<number, unknown>, frameCenter: GeoPoint | null): GeoPoint[] | null {
  const full = [82, 84, 86, 88].map((latTag) => pointAt(values, latTag, latTag + 1, null));
  if (full.every((corner) => corner !== null)) return full;
  if (frameCenter === null) return null;
  // ST 0601 8.26: offsets from the frame centre, in degrees.
  const offsets = [26, 28, 30, 32].map((latTag) => pointAt(values, latTag, latTag + 1, null));
  if (!offsets.every((offset) => offset !== null)) return null;
  return (offsets).map((offset) => ({ lat: frameCenter.lat + offset.lat, lon: frameCenter.lon + offset.lon, alt: null }));
}

/** The track point of one decoded ST 0601 packet's items (the first of a repeated tag counts). */
export function trackPointOf(seq: number, t: number | null, timestampMicros: number | null, items: readonly KlvItem[]): TrackPoint {
  const values = new Map<number, unknown>();
  for (const item of items) if (item.error === undefined && !values.has(item.tag)) values.set(item.tag, item.value);
  const frameCenter = pointAt(values, 23, 24, 25);
  const mission = values.get(3);
  return {
    seq,
    t,
    timestampMicros,
    missionId: typeof mission === 'string' ? mission : null,
    platform: pointAt(values, 13, 14, 15),
    frameCenter,
    footprint: footprintOf(values, frameCenter),
    values: Object.fromEntries(Object.entries(TRACK_VALUES).map(([name, tag]) => [name, numberAt(values, tag)])) as Record<TrackValueName, number | null>,
  };
}

/**
 * The track points of a run, one per ST 0601 metadata packet, in packet
 * order, read a packet at a time (a reader that stops early must call
 * `return`, which ends the statement).
 */
export function* flightTrackPoints(source: Database | DatasetParts): Generator<TrackPoint, void, undefined> {
  const parts = datasetPartsOf(source);
  const query = planDatasetQuery('klv/metadata-packets', {}, { defaultLimit: null, maxLimit: Number.MAX_SAFE_INTEGER });
  for (const row of datasetRows(parts, query)) {
    if (row.keyName !== ST0601_KEY_NAME) continue;
    yield trackPointOf(row.seq as number, row.t as number | null, row.timestampMicros as number | null, row.items as KlvItem[]);
  }
}
