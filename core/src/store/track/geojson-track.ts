/**
 * A flight as GeoJSON (RFC 7946): one FeatureCollection of the platform
 * track and the frame-centre track (LineStrings; a null geometry when fewer
 * than two packets have the position, 3.1.4), then per packet the
 * platform's position (a Point) and the sensor footprint (a Polygon whose
 * one ring is closed and counterclockwise, 3.1.6), each with the packet's
 * time and main ST 0601 values as properties. Positions are longitude,
 * latitude and, when known, altitude in metres (3.1.1), WGS 84 (4).
 */
import type { TrackPoint } from './flight-track.js';
import { closedCounterclockwiseRing, isoTimeOfMicros, type TrackPass, type TrackSummary } from './track-text.js';

function position(lon: number, lat: number, alt: number | null): string {
  return alt === null ? `[${lon},${lat}]` : `[${lon},${lat},${alt}]`;
}

function properties(point: TrackPoint, kind: string): string {
  return JSON.stringify({ kind, seq: point.seq, t: point.t, time: isoTimeOfMicros(point.timestampMicros), missionId: point.missionId, ...point.values });
}

function* line(pass: TrackPass, name: string, kind: string, count: number, at: (point: TrackPoint) => string | null): Generator<string, void, undefined> {
  const head = `{"type":"Feature","properties":${JSON.stringify({ kind, name, points: count })},"geometry":`;
  if (count < 2) {
    yield `${head}null}`;
    return;
  }
  yield `${head}{"type":"LineString","coordinates":[`;
  let first = true;
  for (const point of pass()) {
    const text = at(point);
    if (text === null) continue;
    yield first ? text : `,${text}`;
    first = false;
  }
  yield ']}}';
}

/** The GeoJSON text of a flight, in pieces (each pass reads the run's packets once more: memory holds one packet). */
export function* geojsonTrack(pass: TrackPass, summary: TrackSummary): Generator<string, void, undefined> {
  yield '{"type":"FeatureCollection","features":[';
  yield* line(pass, 'platform track', 'platform-track', summary.platformPoints, (p) => (p.platform === null ? null : position(p.platform.lon, p.platform.lat, p.platform.alt)));
  yield ',';
  yield* line(pass, 'frame-centre track', 'frame-centre-track', summary.frameCenterPoints, (p) => (p.frameCenter === null ? null : position(p.frameCenter.lon, p.frameCenter.lat, p.frameCenter.alt)));
  for (const point of pass()) {
    if (point.platform !== null) {
      const { lon, lat, alt } = point.platform;
      yield `,{"type":"Feature","properties":${properties(point, 'platform')},"geometry":{"type":"Point","coordinates":${position(lon, lat, alt)}}}`;
    }
    if (point.footprint !== null) {
      const ring = closedCounterclockwiseRing(point.footprint).map((corner) => position(corner.lon, corner.lat, null));
      yield `,{"type":"Feature","properties":${properties(point, 'footprint')},"geometry":{"type":"Polygon","coordinates":[[${ring.join(',')}]]}}`;
    }
  }
  yield ']}\n';
}
