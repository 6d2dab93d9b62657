import { expect } from 'chai';
import { parseUniversalSet } from '../../src/klv/universal-set.js';

const key = (last: number) => [0x06, 0x0e, 0x2b, 0x34, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, last];

describe('universal set framing (SMPTE 336 6.2)', () => {
  it('frames items keyed by 16-byte labels', () => {
    const set = Uint8Array.from([...key(1), 0x02, 0xaa, 0xbb, ...key(2), 0x81, 0x01, 0xcc]);
    expect(parseUniversalSet(set, 0, set.length)).to.deep.equal({
      items: [
        { keyHex: '060e2b34010101010102030405060701', keyOffset: 0, valueOffset: 17, length: 2 },
        { keyHex: '060e2b34010101010102030405060702', keyOffset: 19, valueOffset: 37, length: 1 },
      ],
      errors: [],
    });
  });

  it('reports a key cut short by the end of the set', () => {
    const set = Uint8Array.from([...key(1), 0x00, 0x06, 0x0e]);
    const parsed = parseUniversalSet(set, 0, set.length);
    expect(parsed.items).to.have.length(1);
    expect(parsed.errors[0]).to.deep.include({ ok: false, byteOffset: 17 });
  });

  it('reports a value that runs past the end at its length field', () => {
    const set = Uint8Array.from([...key(1), 0x05, 0x01]);
    const parsed = parseUniversalSet(set, 0, set.length);
    expect(parsed.items).to.deep.equal([]);
    expect(parsed.errors[0]).to.deep.include({ ok: false, byteOffset: 16 });
  });
});
