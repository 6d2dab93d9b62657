/**
 * MISB ST 0903.6 VTracker LS (VTarget tag 104): track
 * information for a target: its UUID, detection status, first and last
 * observation times, extent, history, velocity and acceleration.
 */
import { locationSeriesCodec, motionPackCodec } from './st0903-location-pack.js';
import { nestedSetCodec, type TagTable } from './st0903-tagged-set.js';
import { enumCodec, timestampCodec, uintCodec, utf8Codec, uuidCodec } from './st0903-value-codecs.js';

/** ST 0903.6 VTracker tag 2, Detection Status. */
export const ST0903_DETECTION_STATUS = new Map([
  [0, 'Inactive'],
  [1, 'Active'],
  [2, 'Dropped'],
  [3, 'Stopped'],
]);

export const ST0903_VTRACKER_TAGS: TagTable = new Map([
  [1, { name: 'Track ID', units: null, codec: uuidCodec }],
  [2, { name: 'Detection Status', units: null, codec: enumCodec(ST0903_DETECTION_STATUS) }],
  [3, { name: 'Start Time Stamp', units: 'microseconds since 1970-01-01T00:00Z', codec: timestampCodec }],
  [4, { name: 'End Time Stamp', units: 'microseconds since 1970-01-01T00:00Z', codec: timestampCodec }],
  [5, { name: 'Boundary Series', units: 'degrees, metres HAE', codec: locationSeriesCodec }],
  [6, { name: 'Algorithm', units: null, codec: utf8Codec }],
  [7, { name: 'Confidence', units: '%', codec: uintCodec(1) }],
  [8, { name: 'Number of Track Points', units: null, codec: uintCodec(2) }],
  [9, { name: 'Track History Series', units: 'degrees, metres HAE', codec: locationSeriesCodec }],
  [10, { name: 'Velocity', units: 'm/s', codec: motionPackCodec }],
  [11, { name: 'Acceleration', units: 'm/s^2', codec: motionPackCodec }],
  [12, { name: 'Algorithm ID', units: null, codec: uintCodec(3) }],
]);

export const vtrackerSetCodec = nestedSetCodec(ST0903_VTRACKER_TAGS, 'VTracker');
