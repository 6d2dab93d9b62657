import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { hexToBytes } from '../../src/klv/hex.js';
import { findNextKeyStart, hasUlPrefixAt, readKlvTriplet, scanKlvStream } from '../../src/klv/klv-triplet.js';

const KEY = '060e2b34020b01010e01030101000000';

describe('KLV triplets and stream resynchronisation', () => {
  it('reads key, BER length and value bounds', () => {
    const bytes = hexToBytes(`ff${KEY}03aabbcc`)!;
    expect(readKlvTriplet(bytes, 1, bytes.length)).to.deep.equal({
      ok: true,
      keyOffset: 1,
      lengthOffset: 17,
      valueOffset: 18,
      valueLength: 3,
      end: 21,
      berNonMinimal: false,
    });
  });

  it('flags a non-minimal BER length', () => {
    const bytes = hexToBytes(`${KEY}8200 01aa`)!;
    const t = readKlvTriplet(bytes, 0, bytes.length);
    expect(t).to.deep.include({ ok: true, valueLength: 1, berNonMinimal: true });
  });

  it('reports a key without the universal label prefix at its first byte', () => {
    const bytes = hexToBytes(`00${KEY.slice(2)}00`)!;
    expect(readKlvTriplet(bytes, 0, bytes.length)).to.deep.include({ ok: false, byteOffset: 0 });
  });

  it('reports a value running past the end at the length field', () => {
    const bytes = hexToBytes(`${KEY}05aabb`)!;
    expect(readKlvTriplet(bytes, 0, bytes.length)).to.deep.include({ ok: false, byteOffset: 16 });
  });

  it('reports a truncated key', () => {
    const bytes = hexToBytes('060e2b34')!;
    expect(readKlvTriplet(bytes, 0, bytes.length)).to.deep.include({ ok: false, byteOffset: 0 });
  });

  it('finds the next universal label prefix after garbage', () => {
    const bytes = hexToBytes(`0102060e2b${KEY}00`)!;
    expect(findNextKeyStart(bytes, 0, bytes.length)).to.equal(5);
    expect(findNextKeyStart(bytes, 6, bytes.length)).to.equal(-1);
  });

  it('sees a universal label prefix only when all four bytes lie before the end given', () => {
    const bytes = hexToBytes(`ff${KEY.slice(0, 8)}`)!;
    expect(hasUlPrefixAt(bytes, 1)).to.equal(true);
    expect(hasUlPrefixAt(bytes, 1, 5)).to.equal(true);
    expect(hasUlPrefixAt(bytes, 1, 4)).to.equal(false);
    expect(hasUlPrefixAt(bytes, 0)).to.equal(false);
  });

  it('splits a stream with garbage between triplets and reports each skipped stretch once', () => {
    const bytes = hexToBytes(`${KEY}01aa deadbeef ${KEY}0100 060e2b`)!;
    const scan = scanKlvStream(bytes);
    expect(scan.triplets.map((t) => [t.keyOffset, t.valueLength])).to.deep.equal([
      [0, 1],
      [22, 1],
    ]);
    expect(scan.errors.map((e) => e.byteOffset)).to.deep.equal([18, 40]);
  });

  it('splits klvdata_Cheyenne.klv.bin into 407 back-to-back triplets with no garbage', function () {
    const bytes = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_Cheyenne.klv.bin')));
    const scan = scanKlvStream(bytes);
    expect(scan.triplets).to.have.length(407);
    expect(scan.errors).to.deep.equal([]);
    expect(scan.triplets[406].end).to.equal(bytes.length);
  });
});
