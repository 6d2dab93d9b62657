/**
 * A flight as GPX 1.1 (topografix.com/GPX/1/1): the platform track, one
 * `trkpt` per ST 0601 packet with a platform position, with its altitude
 * (`ele`, metres) and time. GPX holds tracks of positions only, so the
 * frame centre and the footprints are left to GeoJSON and KML.
 */
import type { TrackPoint } from './flight-track.js';
import { isoTimeOfMicros, xmlText, type TrackPass } from './track-text.js';

function trackPoint(point: TrackPoint): string {
  const platform = point.platform;
  if (platform === null) return '';
  const time = isoTimeOfMicros(point.timestampMicros);
  // GPX 1.1 wptType: ele, then time, in that order.
  const ele = platform.alt === null ? '' : `<ele>${platform.alt}</ele>`;
  return `<trkpt lat="${platform.lat}" lon="${platform.lon}">${ele}${time === null ? '' : `<time>${time}</time>`}</trkpt>\n`;
}

/** The GPX text of a flight named `title`, in pieces. */
export function* gpxTrack(pass: TrackPass, title: string): Generator<string, void, undefined> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="klvscope" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>${xmlText(title)}</name></metadata>\n`;
  yield `<trk><name>Platform track</name><trkseg>\n`;
  for (const point of pass()) {
    const text = trackPoint(point);
    if (text !== '') yield text;
  }
  yield '</trkseg></trk>\n</gpx>\n';
}
