/**
 * The items of the MISB ST 0102 Security Metadata Local Set (ST 0102.12,
 * Table 1 and the item definitions), with the enumerations of tags 1, 2 and
 * 12. Tags 15 to 21 were removed in ST 0102.11 and are decoded as
 * deprecated items for older streams.
 */
import { iso646TextCodec, objectCountryCodesCodec } from './st0102-security-values.js';
import type { TagTable } from './st0903-tagged-set.js';
import { bytesCodec, enumCodec, uintCodec } from './st0903-value-codecs.js';

/** Tag 1, Security Classification. */
export const ST0102_CLASSIFICATIONS: ReadonlyMap<number, string> = new Map([
  [1, 'UNCLASSIFIED'],
  [2, 'RESTRICTED'],
  [3, 'CONFIDENTIAL'],
  [4, 'SECRET'],
  [5, 'TOP SECRET'],
]);

/** Tag 2, the coding method of Classifying Country (tag 3) and Releasing Instructions (tag 6). */
export const ST0102_CLASSIFYING_COUNTRY_CODING_METHODS: ReadonlyMap<number, string> = new Map([
  [0x01, 'ISO-3166 Two Letter'],
  [0x02, 'ISO-3166 Three Letter'],
  [0x03, 'FIPS 10-4 Two Letter'],
  [0x04, 'FIPS 10-4 Four Letter'],
  [0x05, 'ISO-3166 Numeric'],
  [0x06, '1059 Two Letter'],
  [0x07, '1059 Three Letter'],
  [0x08, 'Omitted Value'],
  [0x09, 'Omitted Value'],
  [0x0a, 'FIPS 10-4 Mixed'],
  [0x0b, 'ISO 3166 Mixed'],
  [0x0c, 'STANAG 1059 Mixed'],
  [0x0d, 'GENC Two Letter'],
  [0x0e, 'GENC Three Letter'],
  [0x0f, 'GENC Numeric'],
  [0x10, 'GENC Mixed'],
]);

/** Tag 12, the coding method of Object Country Codes (tag 13): numbered differently from tag 2. */
export const ST0102_OBJECT_COUNTRY_CODING_METHODS: ReadonlyMap<number, string> = new Map([
  [0x01, 'ISO-3166 Two Letter'],
  [0x02, 'ISO-3166 Three Letter'],
  [0x03, 'ISO-3166 Numeric'],
  [0x04, 'FIPS 10-4 Two Letter'],
  [0x05, 'FIPS 10-4 Four Letter'],
  [0x06, '1059 Two Letter'],
  [0x07, '1059 Three Letter'],
  [0x08, 'Omitted Value'],
  [0x09, 'Omitted Value'],
  [0x0a, 'Omitted Value'],
  [0x0b, 'Omitted Value'],
  [0x0c, 'Omitted Value'],
  [0x0d, 'GENC Two Letter'],
  [0x0e, 'GENC Three Letter'],
  [0x0f, 'GENC Numeric'],
  [0x40, 'GENC AdminSub'],
]);

/** SMPTE 330 UMID, 32 bytes. */
const umid = bytesCodec(32);

export const ST0102_TAGS: TagTable = new Map([
  [1, { name: 'Security Classification', units: null, codec: enumCodec(ST0102_CLASSIFICATIONS), mandatory: true }],
  [2, { name: 'Classifying Country and Releasing Instructions Country Coding Method', units: null, codec: enumCodec(ST0102_CLASSIFYING_COUNTRY_CODING_METHODS), mandatory: true }],
  [3, { name: 'Classifying Country', units: null, codec: iso646TextCodec, mandatory: true }],
  [4, { name: 'Security-SCI/SHI Information', units: null, codec: iso646TextCodec }],
  [5, { name: 'Caveats', units: null, codec: iso646TextCodec }],
  [6, { name: 'Releasing Instructions', units: null, codec: iso646TextCodec }],
  [7, { name: 'Classified By', units: null, codec: iso646TextCodec }],
  [8, { name: 'Derived From', units: null, codec: iso646TextCodec }],
  [9, { name: 'Classification Reason', units: null, codec: iso646TextCodec }],
  [10, { name: 'Declassification Date', units: 'YYYYMMDD', codec: iso646TextCodec }],
  [11, { name: 'Classification and Marking System', units: null, codec: iso646TextCodec }],
  [12, { name: 'Object Country Coding Method', units: null, codec: enumCodec(ST0102_OBJECT_COUNTRY_CODING_METHODS) }],
  [13, { name: 'Object Country Codes', units: null, codec: objectCountryCodesCodec }],
  [14, { name: 'Classification Comments', units: null, codec: iso646TextCodec }],
  [15, { name: 'UMID Video', units: null, codec: umid, deprecated: true }],
  [16, { name: 'UMID Audio', units: null, codec: umid, deprecated: true }],
  [17, { name: 'UMID Data', units: null, codec: umid, deprecated: true }],
  [18, { name: 'UMID System', units: null, codec: umid, deprecated: true }],
  [19, { name: 'Stream ID', units: null, codec: uintCodec(1), deprecated: true }],
  [20, { name: 'Transport Stream ID', units: null, codec: uintCodec(2, true), deprecated: true }],
  [21, { name: 'Item Designator ID', units: null, codec: bytesCodec(16), deprecated: true }],
  [22, { name: 'Version', units: null, codec: uintCodec(2, true), mandatory: true }],
  [23, { name: 'Classifying Country and Releasing Instructions Country Coding Method Version Date', units: 'YYYY-MM-DD', codec: iso646TextCodec }],
  [24, { name: 'Object Country Coding Method Version Date', units: 'YYYY-MM-DD', codec: iso646TextCodec }],
]);

