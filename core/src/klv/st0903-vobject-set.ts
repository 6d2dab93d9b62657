/**
 * MISB ST 0903.6 VObject LS (VTarget tag 102 and, in a Series,
 * tag 107): the class or type of a target, by reference to an ontology.
 */
import { nestedSetCodec, type TagTable } from './st0903-tagged-set.js';
import { realCodec, uintCodec, utf8Codec } from './st0903-value-codecs.js';

export const ST0903_VOBJECT_TAGS: TagTable = new Map([
  [1, { name: 'Ontology', units: null, codec: utf8Codec }],
  [2, { name: 'Ontology Class', units: null, codec: utf8Codec }],
  [3, { name: 'Ontology ID', units: null, codec: uintCodec(3) }],
  // "IMAPB(0, 100, length)": any length, longer is finer.
  [4, { name: 'Confidence', units: '%', codec: realCodec(0, 100, 2, undefined, true) }],
]);

export const vobjectSetCodec = nestedSetCodec(ST0903_VOBJECT_TAGS, 'VObject');
