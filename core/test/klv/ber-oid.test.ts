import { expect } from 'chai';
import { encodeBerOid, readBerOid } from '../../src/klv/ber-oid.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('BER-OID (X.690 8.19.2)', () => {
  it('reads a one-byte value', () => {
    expect(readBerOid(bytes(0x41), 0, 1)).to.deep.equal({ ok: true, value: 65, size: 1 });
  });

  it('reads the two-byte tag 128 as 0x81 0x00', () => {
    expect(readBerOid(bytes(0x81, 0x00), 0, 2)).to.deep.equal({ ok: true, value: 128, size: 2 });
  });

  it('reads tag 142 as 0x81 0x0E', () => {
    expect(readBerOid(bytes(0xff, 0x81, 0x0e), 1, 3)).to.deep.equal({ ok: true, value: 142, size: 2 });
  });

  it('reports a value whose last byte keeps the continuation bit, at its first byte', () => {
    expect(readBerOid(bytes(0x00, 0x81, 0x82), 1, 3)).to.deep.include({ ok: false, byteOffset: 1 });
  });

  it('reports a missing value at the end offset', () => {
    expect(readBerOid(bytes(0x01), 1, 1)).to.deep.include({ ok: false, byteOffset: 1 });
  });

  it('rejects values longer than seven bytes', () => {
    expect(readBerOid(bytes(0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01), 0, 8)).to.deep.include({ ok: false, byteOffset: 0 });
  });

  it('encodes values with the fewest bytes', () => {
    expect(Array.from(encodeBerOid(0))).to.deep.equal([0x00]);
    expect(Array.from(encodeBerOid(127))).to.deep.equal([0x7f]);
    expect(Array.from(encodeBerOid(128))).to.deep.equal([0x81, 0x00]);
    expect(Array.from(encodeBerOid(16383))).to.deep.equal([0xff, 0x7f]);
    expect(Array.from(encodeBerOid(16384))).to.deep.equal([0x81, 0x80, 0x00]);
  });

  it('reads back every value it encodes', () => {
    for (const n of [0, 1, 127, 128, 142, 300, 16383, 16384, 2 ** 35]) {
      const enc = encodeBerOid(n);
      expect(readBerOid(enc, 0, enc.length)).to.deep.equal({ ok: true, value: n, size: enc.length });
    }
  });
});
