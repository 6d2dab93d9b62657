import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { DecodedItem } from '../../src/klv/decoded-item.js';
import { parseLocalSet } from '../../src/klv/local-set.js';
import { decodeSt0102LocalSet, decodeSt0102Packet, encodeSt0102LocalSet, encodeSt0102Packet, st0102NestedSet } from '../../src/klv/st0102-security-set.js';
import type { TaggedItemInput } from '../../src/klv/st0903-tagged-set.js';

const bytes = (...b: number[]) => Uint8Array.from(b);
const ST0102_KEY = [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x03, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x03, 0x02, 0x00, 0x00, 0x00];

/** The value bounds of every ST 0601 tag 48 in a buffer of ST 0601 packets. */
function securitySetsOf(buffer: Uint8Array): [number, number][] {
  const sets: [number, number][] = [];
  for (let pos = 0; pos + 17 <= buffer.length; ) {
    const lengthSize = buffer[pos + 16] < 0x80 ? 1 : 1 + (buffer[pos + 16] & 0x7f);
    let length = 0;
    if (lengthSize === 1) length = buffer[pos + 16];
    else for (let i = 1; i < lengthSize; i++) length = length * 256 + buffer[pos + 16 + i];
    const valueStart = pos + 16 + lengthSize;
    for (const item of parseLocalSet(buffer, valueStart, valueStart + length).items) {
      if (item.tag === 48) sets.push([item.valueOffset, item.valueOffset + item.length]);
    }
    pos = valueStart + length;
  }
  return sets;
}

function summary(items: readonly DecodedItem[]): [number, unknown][] {
  return items.map((item) => [item.tag, item.value]);
}

describe('ST 0102 security metadata local set', () => {
  describe('nested in ST 0601 tag 48 of the ST 0902.5 "Dynamic and Constant" example (klvdata)', () => {
    let buffer: Uint8Array;
    let start: number;
    let end: number;
    beforeEach(function () {
      buffer = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_DynamicConstantMISMMSPacketData.bin')));
      [[start, end]] = securitySetsOf(buffer);
    });

    it('finds the set as klvdata test_misb_0102 has it: 28 bytes, six items', () => {
      expect([start, end]).to.deep.equal([0x9d, 0xb9]);
      expect(decodeSt0102LocalSet(buffer, start, end).items).to.have.length(6);
    });

    it('reads UNCLASSIFIED, STANAG 1059 three-letter codes, "//USA", object country "USA" in UTF-16 and version 10', () => {
      const { items, problems } = decodeSt0102LocalSet(buffer, start, end);
      expect(problems).to.deep.equal([]);
      expect(summary(items)).to.deep.equal([
        [1, { code: 1, name: 'UNCLASSIFIED' }],
        [2, { code: 7, name: '1059 Three Letter' }],
        [3, '//USA'],
        [12, { code: 7, name: '1059 Three Letter' }],
        [13, 'USA'],
        [22, 10],
      ]);
      expect(items[4]).to.deep.equal({ tag: 13, name: 'Object Country Codes', units: null, rawHex: '005500530041', value: 'USA', deprecated: false });
    });

    it('re-encodes the decoded items to the very bytes of the example', () => {
      const { items } = decodeSt0102LocalSet(buffer, start, end);
      expect(Array.from(encodeSt0102LocalSet(items))).to.deep.equal(Array.from(buffer.subarray(start, end)));
    });

    it('serves as the ST 0601 tag 48 delegate: { items, problems } in, the same bytes out', () => {
      const value = st0102NestedSet.decode(buffer, start, end) as { items: DecodedItem[]; problems: unknown[] };
      expect(value.items).to.have.length(6);
      expect(Array.from(st0102NestedSet.encode(value))).to.deep.equal(Array.from(buffer.subarray(start, end)));
    });
  });

  describe('in other recorded streams', () => {
    it('reads the Tekever AR5 flight (klvdata realflight): RESTRICTED, "//PT", SCI "HCS", objects "PT;ES", version 12', function () {
      const buffer = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin')));
      const decoded = securitySetsOf(buffer).map(([s, e]) => decodeSt0102LocalSet(buffer, s, e));
      expect(decoded.length).to.be.greaterThan(0);
      for (const set of decoded) {
        expect(set.problems).to.deep.equal([]);
        expect(summary(set.items)).to.deep.equal([
          [1, { code: 2, name: 'RESTRICTED' }],
          [2, { code: 1, name: 'ISO-3166 Two Letter' }],
          [3, '//PT'],
          [4, 'HCS'],
          [12, { code: 1, name: 'ISO-3166 Two Letter' }],
          [13, 'PT;ES'],
          [22, 12],
        ]);
      }
    });

    it('reads the Esri Cheyenne flight, version 5: empty caveats, the deprecated item designator, no object country items', function () {
      const buffer = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_Cheyenne.klv.bin')));
      const sets = securitySetsOf(buffer);
      expect(sets).to.have.length(407);
      const { items, problems } = decodeSt0102LocalSet(buffer, ...sets[0]);
      // ST 0102.5 and earlier let the object country items be left out.
      expect(problems).to.deep.equal([]);
      expect(summary(items)).to.deep.equal([
        [1, { code: 1, name: 'UNCLASSIFIED' }],
        [2, { code: 1, name: 'ISO-3166 Two Letter' }],
        [3, '//CA'],
        [4, ''],
        [5, ''],
        [6, 'CA'],
        [21, { hex: '00000000000000000000000000000000' }],
        [22, 5],
      ]);
      expect(items.filter((item) => item.deprecated).map((item) => item.name)).to.deep.equal(['Item Designator ID']);
    });
  });

  describe('encoding and decoding', () => {
    const ALL: TaggedItemInput[] = [
      { tag: 1, value: { code: 4 } },
      { tag: 2, value: 13 },
      { tag: 3, value: '//GBR' },
      { tag: 4, value: 'HCS//' },
      { tag: 5, value: 'FOUO' },
      { tag: 6, value: 'GBR USA' },
      { tag: 7, value: 'J. Smith, Original Classification Authority' },
      { tag: 8, value: 'Multiple Sources' },
      { tag: 9, value: '1.4(c)' },
      { tag: 10, value: '20391231' },
      { tag: 11, value: 'NATO' },
      { tag: 12, value: 0x40 },
      { tag: 13, value: 'GB-ENG;FR' },
      { tag: 14, value: 'Test comment' },
      { tag: 15, value: { hex: '11'.repeat(32) } },
      { tag: 16, value: { hex: '22'.repeat(32) } },
      { tag: 17, value: { hex: '33'.repeat(32) } },
      { tag: 18, value: { hex: '44'.repeat(32) } },
      { tag: 19, value: 0xe0 },
      { tag: 20, value: 0x1234 },
      { tag: 21, value: { hex: '060e2b34020b01010e01030101000000' } },
      { tag: 22, value: 12 },
      { tag: 23, value: '2013-11-14' },
      { tag: 24, value: '2013-11-14' },
    ];

    it('round-trips all 24 items with their names, and flags the deprecated 15 to 21', () => {
      const encoded = encodeSt0102LocalSet(ALL);
      const { items, problems } = decodeSt0102LocalSet(encoded, 0, encoded.length);
      expect(problems).to.deep.equal([]);
      expect(items.map((item) => item.tag)).to.deep.equal(ALL.map((input) => input.tag));
      expect(items.map((item) => item.value)).to.deep.equal([
        { code: 4, name: 'SECRET' },
        { code: 13, name: 'GENC Two Letter' },
        '//GBR',
        'HCS//',
        'FOUO',
        'GBR USA',
        'J. Smith, Original Classification Authority',
        'Multiple Sources',
        '1.4(c)',
        '20391231',
        'NATO',
        { code: 0x40, name: 'GENC AdminSub' },
        'GB-ENG;FR',
        'Test comment',
        { hex: '11'.repeat(32) },
        { hex: '22'.repeat(32) },
        { hex: '33'.repeat(32) },
        { hex: '44'.repeat(32) },
        0xe0,
        0x1234,
        { hex: '060e2b34020b01010e01030101000000' },
        12,
        '2013-11-14',
        '2013-11-14',
      ]);
      expect(items.filter((item) => item.deprecated).map((item) => item.tag)).to.deep.equal([15, 16, 17, 18, 19, 20, 21]);
      expect(items[1].name).to.equal('Classifying Country and Releasing Instructions Country Coding Method');
      expect(Array.from(encodeSt0102LocalSet(items))).to.deep.equal(Array.from(encoded));
    });

    it('writes Object Country Codes as UTF-16 big-endian and reads ISO 646 codes of older revisions too', () => {
      expect(Array.from(encodeSt0102LocalSet([{ tag: 13, value: 'US' }]))).to.deep.equal([0x0d, 0x04, 0x00, 0x55, 0x00, 0x53]);
      const old = bytes(0x0d, 0x02, 0x55, 0x53);
      expect(decodeSt0102LocalSet(old, 0, old.length).items[0].value).to.equal('US');
      const littleEndian = bytes(0x0d, 0x04, 0x55, 0x00, 0x53, 0x00);
      expect(decodeSt0102LocalSet(littleEndian, 0, littleEndian.length).items[0].value).to.equal('US');
      const withMark = bytes(0x0d, 0x06, 0xfe, 0xff, 0x00, 0x55, 0x00, 0x53);
      expect(decodeSt0102LocalSet(withMark, 0, withMark.length).items[0].value).to.equal('US');
    });

    it('accepts enumerations by name when encoding', () => {
      expect(Array.from(encodeSt0102LocalSet([{ tag: 1, value: 'TOP SECRET' }]))).to.deep.equal([0x01, 0x01, 0x05]);
    });

    it('names a classification code the standard does not define "unknown (n)"', () => {
      const set = bytes(0x01, 0x01, 0x09);
      expect(decodeSt0102LocalSet(set, 0, set.length).items[0].value).to.deep.equal({ code: 9, name: 'unknown (9)' });
    });
  });

  describe('problems', () => {
    it('reports the mandatory items a set lacks, the object country items from version 6 on', () => {
      const set = bytes(0x01, 0x01, 0x01, 0x16, 0x02, 0x00, 0x0c);
      expect(decodeSt0102LocalSet(set, 0, set.length).problems.map((p) => [p.type, p.tag, p.byteOffset])).to.deep.equal([
        ['missing-mandatory', 2, 0],
        ['missing-mandatory', 3, 0],
        ['missing-mandatory', 12, 0],
        ['missing-mandatory', 13, 0],
      ]);
    });

    it('reports a wrong length, an unknown tag and a duplicate at their tag bytes, prefixed "ST 0102"', () => {
      const set = bytes(0x01, 0x01, 0x01, 0x02, 0x01, 0x01, 0x03, 0x02, 0x2f, 0x2f, 0x16, 0x02, 0x00, 0x05, 0x13, 0x02, 0x00, 0x01, 0x63, 0x00, 0x01, 0x01, 0x02);
      expect(decodeSt0102LocalSet(set, 0, set.length).problems).to.deep.equal([
        { type: 'bad-item-length', tag: 19, byteOffset: 14, message: 'ST 0102: Stream ID: length 2, expected 1 byte' },
        { type: 'unknown-tag', tag: 99, byteOffset: 18, message: 'ST 0102: tag 99 is not defined' },
        { type: 'duplicate-tag', tag: 1, byteOffset: 20, message: 'ST 0102: tag 1 appears more than once' },
      ]);
    });
  });

  describe('standalone packets', () => {
    it('writes and reads the ST 0102 local set key, the length and the items', () => {
      const packet = encodeSt0102Packet([
        { tag: 1, value: 1 },
        { tag: 2, value: 13 },
        { tag: 3, value: '//US' },
        { tag: 12, value: 13 },
        { tag: 13, value: 'US' },
        { tag: 22, value: 12 },
      ]);
      expect(Array.from(packet.subarray(0, 17))).to.deep.equal([...ST0102_KEY, 25]);
      const decoded = decodeSt0102Packet(packet, 0, packet.length);
      expect(decoded.problems).to.deep.equal([]);
      expect(decoded.packetEnd).to.equal(42);
      expect(summary(decoded.items)).to.deep.equal([
        [1, { code: 1, name: 'UNCLASSIFIED' }],
        [2, { code: 13, name: 'GENC Two Letter' }],
        [3, '//US'],
        [12, { code: 13, name: 'GENC Two Letter' }],
        [13, 'US'],
        [22, 12],
      ]);
    });

    it('reports another key, and a length running past the data', () => {
      const packet = encodeSt0102Packet([{ tag: 1, value: 1 }, { tag: 22, value: 12 }]);
      packet[13] = 0x09;
      const decoded = decodeSt0102Packet(packet.subarray(0, 20), 0, 20);
      expect(decoded.problems.slice(0, 2)).to.deep.equal([
        { type: 'unknown-key', tag: null, byteOffset: 0, message: 'key is not the ST 0102 security local set key' },
        { type: 'raw-decode-error', tag: null, byteOffset: 16, message: 'ST 0102 packet length 7 runs past the data (3 bytes left)' },
      ]);
      expect(summary(decoded.items)).to.deep.equal([[1, { code: 1, name: 'UNCLASSIFIED' }]]);
    });
  });
});
