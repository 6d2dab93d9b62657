/**
 * A flight as KML 2.2 (OGC 07-147r2), for Google Earth and QGIS: a
 * Document with the platform track (a LineString, altitudeMode absolute:
 * ST 0601 altitudes are above MSL), the frame-centre track (clamped to the
 * ground), a folder of the platform's positions and one of the sensor
 * footprints (Polygons), each Placemark with its TimeStamp and the
 * packet's main ST 0601 values as ExtendedData. Coordinates are
 * lon,lat[,alt] (KML 2.2 10.9.1).
 */
import type { GeoPoint, TrackPoint } from './flight-track.js';
import { closedCounterclockwiseRing, isoTimeOfMicros, xmlText, type TrackPass, type TrackSummary } from './track-text.js';

function coordinate(point: GeoPoint): string {
  return point.alt === null ? `${point.lon},${point.lat}` : `${point.lon},${point.lat},${point.alt}`;
}

function extendedData(point: TrackPoint): string {
  const data = [['seq', point.seq], ['t', point.t], ['missionId', point.missionId], ...Object.entries(point.values)] as Array<[string, unknown]>;
  return `<ExtendedData>${data
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `<Data name="${name}"><value>${xmlText(String(value))}</value></Data>`)
    .join('')}</ExtendedData>`;
}

function timeStamp(point: TrackPoint): string {
  const time = isoTimeOfMicros(point.timestampMicros);
  return time === null ? '' : `<TimeStamp><when>${time}</when></TimeStamp>`;
}

function* line(pass: TrackPass, name: string, count: number, altitudeMode: string, at: (point: TrackPoint) => GeoPoint | null): Generator<string, void, undefined> {
  // A LineString needs two coordinates at least (KML 2.2 10.7.3.4).
  if (count < 2) return;
  yield `<Placemark><name>${name}</name><LineString><tessellate>1</tessellate><altitudeMode>${altitudeMode}</altitudeMode><coordinates>`;
  let first = true;
  for (const point of pass()) {
    const position = at(point);
    if (position === null) continue;
    yield first ? coordinate(position) : ` ${coordinate(position)}`;
    first = false;
  }
  yield '</coordinates></LineString></Placemark>\n';
}

/** The KML text of a flight named `title`, in pieces. */
export function* kmlTrack(pass: TrackPass, summary: TrackSummary, title: string): Generator<string, void, undefined> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${xmlText(title)}</name>\n`;
  yield* line(pass, 'Platform track', summary.platformPoints, 'absolute', (p) => p.platform);
  yield* line(pass, 'Frame centre track', summary.frameCenterPoints, 'clampToGround', (p) => p.frameCenter);
  yield '<Folder><name>Platform positions</name>\n';
  for (const point of pass()) {
    if (point.platform === null) continue;
    const mode = point.platform.alt === null ? 'clampToGround' : 'absolute';
    yield `<Placemark><name>packet ${point.seq}</name>${timeStamp(point)}${extendedData(point)}<Point><altitudeMode>${mode}</altitudeMode><coordinates>${coordinate(point.platform)}</coordinates></Point></Placemark>\n`;
  }
  yield '</Folder>\n<Folder><name>Sensor footprints</name>\n';
  for (const point of pass()) {
    if (point.footprint === null) continue;
    const ring = closedCounterclockwiseRing(point.footprint).map(coordinate).join(' ');
    yield `<Placemark><name>footprint ${point.seq}</name>${timeStamp(point)}${extendedData(point)}<Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>\n`;
  }
  yield '</Folder>\n</Document></kml>\n';
}
