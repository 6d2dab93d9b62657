import { expect } from 'chai';
import { parseLocalSet } from '../../src/klv/local-set.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('local set framing (SMPTE 336 6.4)', () => {
  it('frames every item with absolute offsets', () => {
    const set = bytes(0xaa, 0x02, 0x01, 0x05, 0x41, 0x00, 0x81, 0x00, 0x02, 0x01, 0x02);
    expect(parseLocalSet(set, 1, set.length)).to.deep.equal({
      items: [
        { tag: 2, tagOffset: 1, valueOffset: 3, length: 1 },
        { tag: 65, tagOffset: 4, valueOffset: 6, length: 0 },
        { tag: 128, tagOffset: 6, valueOffset: 9, length: 2 },
      ],
      errors: [],
    });
  });

  it('gives no items and no errors for an empty range', () => {
    expect(parseLocalSet(bytes(1, 2), 1, 1)).to.deep.equal({ items: [], errors: [] });
  });

  it('keeps the items before a value that runs past the end and reports the overrun at its length byte', () => {
    const set = bytes(0x02, 0x01, 0x05, 0x03, 0x04, 0x41, 0x42);
    const parsed = parseLocalSet(set, 0, set.length);
    expect(parsed.items).to.deep.equal([{ tag: 2, tagOffset: 0, valueOffset: 2, length: 1 }]);
    expect(parsed.errors).to.have.length(1);
    expect(parsed.errors[0]).to.deep.include({ ok: false, byteOffset: 4 });
  });

  it('reports a tag cut off by the end of the set at the tag byte', () => {
    const set = bytes(0x02, 0x00, 0x81);
    const parsed = parseLocalSet(set, 0, set.length);
    expect(parsed.items).to.have.length(1);
    expect(parsed.errors[0]).to.deep.include({ byteOffset: 2 });
  });

  it('reports a missing length after the last tag', () => {
    const parsed = parseLocalSet(bytes(0x02), 0, 1);
    expect(parsed.items).to.deep.equal([]);
    expect(parsed.errors[0]).to.deep.include({ byteOffset: 1 });
  });

  it('reports an indefinite length at its position', () => {
    const parsed = parseLocalSet(bytes(0x05, 0x80, 0x00), 0, 3);
    expect(parsed.errors[0]).to.deep.include({ byteOffset: 1 });
  });

  it('never reads beyond the buffer even when end is larger', () => {
    const parsed = parseLocalSet(bytes(0x02, 0x01, 0x05), 0, 100);
    expect(parsed).to.deep.equal({ items: [{ tag: 2, tagOffset: 0, valueOffset: 2, length: 1 }], errors: [] });
  });
});
