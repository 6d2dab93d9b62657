/**
 * MISB ST 0903.6 Ontology LS (carried in a Series as VMTI LS
 * tag 103): the ontologies that VObject items refer to by Ontology ID.
 * ST 0903.5 defined tags 1 to 4; ST 0903.6 added the version and label.
 */
import { nestedSetCodec, type TagTable } from './st0903-tagged-set.js';
import { uintCodec, utf8Codec } from './st0903-value-codecs.js';

export const ST0903_ONTOLOGY_TAGS: TagTable = new Map([
  [1, { name: 'ID', units: null, codec: uintCodec(3), mandatory: true }],
  [2, { name: 'Parent ID', units: null, codec: uintCodec(3) }],
  [3, { name: 'Ontology', units: null, codec: utf8Codec, mandatory: true }],
  [4, { name: 'Ontology Class', units: null, codec: utf8Codec }],
  [5, { name: 'Version', units: null, codec: utf8Codec }],
  [6, { name: 'Label', units: null, codec: utf8Codec }],
]);

export const ontologySetCodec = nestedSetCodec(ST0903_ONTOLOGY_TAGS, 'Ontology');
