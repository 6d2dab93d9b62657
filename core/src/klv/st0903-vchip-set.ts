/**
 * MISB ST 0903.6 VChip LS (VTarget tag 105 and, in a Series,
 * tag 106): an image chip of the target, embedded or by URI. Only the IANA
 * media subtypes "jpeg" and "png" are allowed as image type.
 */
import { nestedSetCodec, type TagTable } from './st0903-tagged-set.js';
import { bytesCodec, utf8Codec } from './st0903-value-codecs.js';

export const ST0903_VCHIP_TAGS: TagTable = new Map([
  [1, { name: 'Image Type', units: null, codec: utf8Codec }],
  [2, { name: 'Image URI', units: null, codec: utf8Codec }],
  [3, { name: 'Embedded Image', units: null, codec: bytesCodec() }],
]);

export const vchipSetCodec = nestedSetCodec(ST0903_VCHIP_TAGS, 'VChip');
