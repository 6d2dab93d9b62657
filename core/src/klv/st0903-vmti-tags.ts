/**
 * The top-level items of the MISB ST 0903.6 VMTI Local Set: names, units
 * and value types. Tag 1 (checksum) is only meaningful in a standalone VMTI
 * packet; inside ST 0601 tag 74 the ST 0601 checksum covers the set.
 */
import { miisCoreIdentifierCodec } from './miis-core-identifier.js';
import { algorithmSetCodec } from './st0903-algorithm-set.js';
import { ontologySetCodec } from './st0903-ontology-set.js';
import { seriesCodec } from './st0903-series.js';
import type { TagTable } from './st0903-tagged-set.js';
import { fromValueCodec, realCodec, type St0903LegacyMapping, timestampCodec, uintCodec, utf8Codec } from './st0903-value-codecs.js';
import { vtargetSeriesCodec } from './st0903-vtarget-pack.js';

/** ST 0903.3 wrote fields of view as a 1 or 2 byte unsigned integer mapped onto 0..180 degrees. */
const LEGACY_FIELD_OF_VIEW: St0903LegacyMapping = { kind: 'unsigned', minLength: 1, maxLength: 2 };

export const ST0903_VMTI_TAGS: TagTable = new Map([
  [1, { name: 'Checksum', units: null, codec: uintCodec(2, true) }],
  [2, { name: 'Precision Time Stamp', units: 'microseconds since 1970-01-01T00:00Z', codec: timestampCodec }],
  [3, { name: 'VMTI System Name', units: null, codec: utf8Codec }],
  [4, { name: 'VMTI LS Version', units: null, codec: uintCodec(2), mandatory: true }],
  [5, { name: 'Total Number of Targets Detected', units: 'targets', codec: uintCodec(3) }],
  [6, { name: 'Number of Reported Targets', units: 'targets', codec: uintCodec(3) }],
  [7, { name: 'Frame Number', units: null, codec: uintCodec(3) }],
  [8, { name: 'Frame Width', units: 'pixels', codec: uintCodec(3) }],
  [9, { name: 'Frame Height', units: 'pixels', codec: uintCodec(3) }],
  [10, { name: 'VMTI Source Sensor', units: null, codec: utf8Codec }],
  [11, { name: 'VMTI Horizontal Field of View', units: 'degrees', codec: realCodec(0, 180, 2, LEGACY_FIELD_OF_VIEW) }],
  [12, { name: 'VMTI Vertical Field of View', units: 'degrees', codec: realCodec(0, 180, 2, LEGACY_FIELD_OF_VIEW) }],
  [13, { name: 'MIIS ID', units: null, codec: fromValueCodec(miisCoreIdentifierCodec) }],
  [101, { name: 'VTarget Series', units: null, codec: vtargetSeriesCodec }],
  [102, { name: 'Algorithm Series', units: null, codec: seriesCodec(algorithmSetCodec, 'Algorithm LS') }],
  [103, { name: 'Ontology Series', units: null, codec: seriesCodec(ontologySetCodec, 'Ontology LS') }],
]);
