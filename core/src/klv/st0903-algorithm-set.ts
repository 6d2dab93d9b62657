/**
 * MISB ST 0903.6 Algorithm LS (carried in a Series as VMTI LS
 * tag 102): the detection or tracking algorithms that VTarget and VTracker
 * items point to by Algorithm ID. ID, name and version are mandatory.
 */
import { nestedSetCodec, type TagTable } from './st0903-tagged-set.js';
import { uintCodec, utf8Codec } from './st0903-value-codecs.js';

export const ST0903_ALGORITHM_TAGS: TagTable = new Map([
  [1, { name: 'ID', units: null, codec: uintCodec(3), mandatory: true }],
  [2, { name: 'Name', units: null, codec: utf8Codec, mandatory: true }],
  [3, { name: 'Version', units: null, codec: utf8Codec, mandatory: true }],
  [4, { name: 'Class', units: null, codec: utf8Codec }],
  [5, { name: 'Number of Frames', units: 'frames', codec: uintCodec(3) }],
]);

export const algorithmSetCodec = nestedSetCodec(ST0903_ALGORITHM_TAGS, 'Algorithm');
