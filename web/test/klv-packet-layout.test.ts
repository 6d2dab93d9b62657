/**
 * Laying a KLV packet's decoded items over its bytes (the packet view's hex
 * dump): every item's span runs from its tag to the end of its value, for
 * one-byte and long-form lengths, and an item the bytes do not hold is not
 * placed.
 */
import { expect } from 'chai';
import { encodeSt0601 } from '@klvscope/core';
import { metadataItemsOfTriplet } from '@klvscope/core/browser';
import { klvPacketLayout } from '../src/dashboard/klv/klv-packet-layout.js';

const ST0601 = 'st0601-uas-datalink-ls';

describe('klvPacketLayout', () => {
  it('places each ST 0601 item from its tag to the end of its value, after the 16-byte key and the BER length', () => {
    const raw = encodeSt0601([
      { tag: 2, value: 1_700_000_000_000_000 },
      { tag: 3, value: 'MISSION-7' },
      { tag: 65, value: 19 },
    ]);
    const items = metadataItemsOfTriplet(raw, ST0601) ?? [];
    const layout = klvPacketLayout(raw, ST0601, items);
    expect(layout?.key).to.deep.equal({ start: 0, end: 16 });
    expect(layout?.length).to.deep.equal({ start: 16, end: 17 });
    // Tag 2: tag, length 8, 8 bytes; tag 3: tag, length 9, "MISSION-7"; tag 65: tag, length, 1 byte; tag 1 (checksum): tag, length 2, 2 bytes.
    expect(items.map((item) => item.tag)).to.deep.equal([2, 3, 65, 1]);
    expect(layout?.items).to.deep.equal([
      { start: 17, end: 27 },
      { start: 27, end: 38 },
      { start: 38, end: 41 },
      { start: 41, end: 45 },
    ]);
    expect(raw.length).to.equal(45);
  });

  it('places items after a long-form BER length', () => {
    // Three strings of 60 bytes (tag, length, value: 62 bytes each) and the checksum (4): 190 bytes of value, written 0x81 0xBE.
    const raw = encodeSt0601([3, 10, 11].map((tag) => ({ tag, value: 'M'.repeat(60) })));
    const items = metadataItemsOfTriplet(raw, ST0601) ?? [];
    const layout = klvPacketLayout(raw, ST0601, items);
    expect([raw[16], raw[17]]).to.deep.equal([0x81, 0xbe]);
    expect(layout?.length).to.deep.equal({ start: 16, end: 18 });
    expect(layout?.items).to.deep.equal([
      { start: 18, end: 80 },
      { start: 80, end: 142 },
      { start: 142, end: 204 },
      { start: 204, end: 208 },
    ]);
  });

  it('leaves an item unplaced when the bytes hold no item with its tag, and gives no layout for bytes that are not a triplet', () => {
    const raw = encodeSt0601([{ tag: 65, value: 19 }]);
    const items = metadataItemsOfTriplet(raw, ST0601) ?? [];
    const layout = klvPacketLayout(raw, ST0601, [...items, { tag: 13, name: 'Sensor Latitude', units: 'deg', rawHex: '', value: 1, deprecated: false }]);
    expect(layout?.items.at(-1)).to.equal(null);
    expect(klvPacketLayout(Uint8Array.of(1, 2, 3), ST0601, items)).to.equal(null);
  });
});
