/** What the GeoJSON, KML and GPX writers of a flight share: the passes over its points, its summary, times and rings. */
import type { GeoPoint, TrackPoint } from './flight-track.js';

/** One more read of the flight's points from the run, from the first packet. */
export type TrackPass = () => Iterable<TrackPoint>;

/** Counted by a first pass: a line needs its number of points before it is written. */
export interface TrackSummary {
  readonly packets: number;
  readonly platformPoints: number;
  readonly frameCenterPoints: number;
  readonly footprints: number;
}

export function summarizeTrack(pass: TrackPass): TrackSummary {
  let packets = 0;
  let platformPoints = 0;
  let frameCenterPoints = 0;
  let footprints = 0;
  for (const point of pass()) {
    packets++;
    if (point.platform !== null) platformPoints++;
    if (point.frameCenter !== null) frameCenterPoints++;
    if (point.footprint !== null) footprints++;
  }
  return { packets, platformPoints, frameCenterPoints, footprints };
}

/** ISO 8601 UTC with microseconds (ST 0601 item 2's resolution), or null. */
export function isoTimeOfMicros(micros: number | null): string | null {
  if (micros === null || !Number.isFinite(micros)) return null;
  const millis = Math.floor(micros / 1000);
  const date = new Date(millis);
  if (Number.isNaN(date.getTime())) return null;
  const fraction = String(micros - millis * 1000).padStart(3, '0');
  return `${date.toISOString().slice(0, -1)}${fraction}Z`;
}

/** Twice the signed area of a ring on the lon/lat plane: positive when counterclockwise. */
function signedArea(ring: readonly GeoPoint[]): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    sum += a.lon * b.lat - b.lon * a.lat;
  }
  return sum;
}

/** The corners as a closed ring (first position repeated last), counterclockwise (RFC 7946 3.1.6, the right-hand rule). */
export function closedCounterclockwiseRing(corners: readonly GeoPoint[]): GeoPoint[] {
  const ring = signedArea(corners) < 0 ? [...corners].reverse() : [...corners];
  ring.push(ring[0]);
  return ring;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML content or an attribute value. */
export function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}
