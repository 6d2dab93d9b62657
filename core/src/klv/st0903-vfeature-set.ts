/**
 * MISB ST 0903.6 VFeature LS (VTarget tag 103): features of a
 * target as an Observations and Measurements (OGC O&M) schema reference and
 * a document following it.
 */
import { nestedSetCodec, type TagTable } from './st0903-tagged-set.js';
import { utf8Codec } from './st0903-value-codecs.js';

export const ST0903_VFEATURE_TAGS: TagTable = new Map([
  [1, { name: 'Schema', units: null, codec: utf8Codec }],
  [2, { name: 'Schema Feature', units: null, codec: utf8Codec }],
]);

export const vfeatureSetCodec = nestedSetCodec(ST0903_VFEATURE_TAGS, 'VFeature');
