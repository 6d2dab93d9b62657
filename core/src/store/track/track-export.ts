/**
 * The flight of an ingest run as a GIS file (GeoJSON, KML or GPX), made
 * while it is sent: the packets are read again for each part of the file
 * (flight-track.ts), and the text leaves as UTF-8 in chunks of about 64 KiB,
 * so memory holds a packet and a chunk whatever the length of the flight.
 * A first pass counts the points: a line needs them before it is written,
 * and the answer's errors all come before its first byte.
 */
import type { Database } from 'sql.js';
import { DatasetError } from '../datasets/dataset-error.js';
import { datasetPartsOf } from '../datasets/dataset-query.js';
import type { DatasetParts } from '../datasets/dataset-parts.js';
import { flightTrackPoints } from './flight-track.js';
import { geojsonTrack } from './geojson-track.js';
import { gpxTrack } from './gpx-track.js';
import { kmlTrack } from './kml-track.js';
import { summarizeTrack, type TrackPass, type TrackSummary } from './track-text.js';

export const TRACK_FORMATS = ['geojson', 'kml', 'gpx'] as const;
export type TrackFormat = (typeof TRACK_FORMATS)[number];

/** RFC 7946 12, the KML 2.2 registration, RFC-less but registered GPX. */
export const TRACK_MEDIA_TYPES: Readonly<Record<TrackFormat, string>> = {
  geojson: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
  gpx: 'application/gpx+xml',
};

const CHUNK_BYTES = 64 * 1024;

export interface TrackExport extends Iterable<Buffer> {
  readonly format: TrackFormat;
  readonly mediaType: string;
  readonly summary: TrackSummary;
}

export function isTrackFormat(format: string): format is TrackFormat {
  return (TRACK_FORMATS as readonly string[]).includes(format);
}

/** The flight of a run as `format`; `title` names it in KML and GPX. ERR_DATASET_INVALID_PARAMETER for an unknown format. */
export function exportFlightTrack(source: Database | DatasetParts, format: string, title = 'klvscope flight'): TrackExport {
  if (!isTrackFormat(format)) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `format must be one of ${TRACK_FORMATS.join(', ')}, got '${format}'`, { parameter: 'format', value: format, allowed: TRACK_FORMATS });
  }
  const parts = datasetPartsOf(source);
  const pass: TrackPass = () => flightTrackPoints(parts);
  const summary = summarizeTrack(pass);
  const pieces = (): Iterable<string> => (format === 'geojson' ? geojsonTrack(pass, summary) : format === 'kml' ? kmlTrack(pass, summary, title) : gpxTrack(pass, title));
  function* chunks(): Generator<Buffer, void, undefined> {
    let pending: string[] = [];
    let length = 0;
    for (const piece of pieces()) {
      pending.push(piece);
      length += piece.length;
      if (length >= CHUNK_BYTES) {
        yield Buffer.from(pending.join(''), 'utf8');
        pending = [];
        length = 0;
      }
    }
    if (length > 0) yield Buffer.from(pending.join(''), 'utf8');
  }
  return { format, mediaType: TRACK_MEDIA_TYPES[format], summary, [Symbol.iterator]: chunks };
}
