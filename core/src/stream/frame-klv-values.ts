/**
 * The key MISB ST 0601 values of one decoded metadata packet, as the viewer
 * and the dashboard show them (FrameKlvValues): picked from the packet's items by tag.
 * The footprint is the four full corner points (items 82-89) where the
 * packet has them, else the frame centre plus the offset corners (26-33,
 * ST 0601: offsets from the frame centre, in degrees).
 */
import type { KlvItem } from '../kernel/observations.js';
import type { FrameKlvValues } from './stream-messages.js';

const TAG = {
  timestamp: 2,
  missionId: 3,
  heading: 5,
  pitch: 6,
  roll: 7,
  sensorLatitude: 13,
  sensorLongitude: 14,
  sensorAltitude: 15,
  horizontalFov: 16,
  verticalFov: 17,
  azimuth: 18,
  elevation: 19,
  sensorRoll: 20,
  slantRange: 21,
  frameCenterLatitude: 23,
  frameCenterLongitude: 24,
  frameCenterElevation: 25,
  firstOffsetCorner: 26,
  firstFullCorner: 82,
} as const;

export function frameKlvValues(items: readonly KlvItem[]): FrameKlvValues {
  const byTag = new Map<number, unknown>();
  for (const item of items) if (item.value !== null && item.value !== undefined) byTag.set(item.tag, item.value);
  const number = (tag: number): number | null => {
    const value = byTag.get(tag);
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  };
  const missionId = byTag.get(TAG.missionId);
  return {
    timestampMicros: number(TAG.timestamp),
    missionId: typeof missionId === 'string' ? missionId : null,
    platformHeadingDeg: number(TAG.heading),
    platformPitchDeg: number(TAG.pitch),
    platformRollDeg: number(TAG.roll),
    sensorLatitudeDeg: number(TAG.sensorLatitude),
    sensorLongitudeDeg: number(TAG.sensorLongitude),
    sensorAltitudeM: number(TAG.sensorAltitude),
    sensorHorizontalFovDeg: number(TAG.horizontalFov),
    sensorVerticalFovDeg: number(TAG.verticalFov),
    sensorAzimuthDeg: number(TAG.azimuth),
    sensorElevationDeg: number(TAG.elevation),
    sensorRollDeg: number(TAG.sensorRoll),
    slantRangeM: number(TAG.slantRange),
    frameCenterLatitudeDeg: number(TAG.frameCenterLatitude),
    frameCenterLongitudeDeg: number(TAG.frameCenterLongitude),
    frameCenterElevationM: number(TAG.frameCenterElevation),
    corners: fullCorners(number) ?? offsetCorners(number),
  };
}

type NumberOf = (tag: number) => number | null;

function fullCorners(number: NumberOf): Array<[number, number]> | null {
  return cornersFrom(number, TAG.firstFullCorner, 0, 0);
}

function offsetCorners(number: NumberOf): Array<[number, number]> | null {
  const latitude = number(TAG.frameCenterLatitude);
  const longitude = number(TAG.frameCenterLongitude);
  if (latitude === null || longitude === null) return null;
  return cornersFrom(number, TAG.firstOffsetCorner, latitude, longitude);
}

/** Four [latitude, longitude] pairs from eight consecutive tags, each plus its base; null unless all eight are there. */
function cornersFrom(number: NumberOf, firstTag: number, baseLatitude: number, baseLongitude: number): Array<[number, number]> | null {
  const corners: Array<[number, number]> = [];
  for (let corner = 0; corner < 4; corner++) {
    const latitude = number(firstTag + 2 * corner);
    const longitude = number(firstTag + 2 * corner + 1);
    if (latitude === null || longitude === null) return null;
    corners.push([baseLatitude + latitude, baseLongitude + longitude]);
  }
  return corners;
}
