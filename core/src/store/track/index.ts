/** The flight of an ingest run, from its ST 0601 metadata packets, as GeoJSON, KML or GPX. */
export { exportFlightTrack, isTrackFormat, TRACK_FORMATS, TRACK_MEDIA_TYPES, type TrackExport, type TrackFormat } from './track-export.js';
export { flightTrackPoints, trackPointOf, TRACK_VALUES, type GeoPoint, type TrackPoint, type TrackValueName } from './flight-track.js';
export type { TrackSummary } from './track-text.js';
