import { expect } from 'chai';
import { encodeBerLength, readBerLength } from '../../src/klv/ber-length.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('BER length (SMPTE 336 / X.690 8.1.3)', () => {
  it('reads a short-form length from one byte', () => {
    expect(readBerLength(bytes(0x7f), 0, 1)).to.deep.equal({ ok: true, length: 127, size: 1, nonMinimal: false });
  });

  it('reads a long-form length of two bytes', () => {
    expect(readBerLength(bytes(0x00, 0x82, 0x01, 0x02), 1, 4)).to.deep.equal({ ok: true, length: 258, size: 3, nonMinimal: false });
  });

  it('accepts a non-minimal long form and flags it', () => {
    expect(readBerLength(bytes(0x81, 0x05), 0, 2)).to.deep.equal({ ok: true, length: 5, size: 2, nonMinimal: true });
    expect(readBerLength(bytes(0x82, 0x00, 0x90), 0, 3)).to.deep.equal({ ok: true, length: 144, size: 3, nonMinimal: true });
  });

  it('rejects the indefinite form 0x80 at its byte position', () => {
    const r = readBerLength(bytes(0x01, 0x80, 0x00), 1, 3);
    expect(r.ok).to.equal(false);
    expect(r).to.have.property('byteOffset', 1);
  });

  it('reports a truncated long form at the length byte', () => {
    const r = readBerLength(bytes(0x09, 0x83, 0x01, 0x02), 1, 4);
    expect(r).to.deep.include({ ok: false, byteOffset: 1 });
  });

  it('reports a missing length when the offset is at the end', () => {
    expect(readBerLength(bytes(0x01), 1, 1)).to.deep.include({ ok: false, byteOffset: 1 });
  });

  it('does not read past the given end even when the buffer continues', () => {
    expect(readBerLength(bytes(0x82, 0x01, 0x02), 0, 2)).to.deep.include({ ok: false, byteOffset: 0 });
  });

  it('rejects a long form longer than six bytes instead of losing precision', () => {
    expect(readBerLength(bytes(0x87, 1, 1, 1, 1, 1, 1, 1), 0, 8)).to.deep.include({ ok: false, byteOffset: 0 });
  });

  it('marks only a field that runs past the end as truncated, for every first byte and every end', () => {
    for (let first = 0; first < 256; first++) {
      const count = first < 0x80 ? 0 : first & 0x7f;
      const impossible = first === 0x80 || count > 6;
      for (let end = 1; end <= 8; end++) {
        const r = readBerLength(bytes(0x00, first, 0, 0, 0, 0, 0, 1), 1, end);
        const expected = end === 1 ? 'truncated' : impossible ? 'bad' : 2 + count > end ? 'truncated' : 'ok';
        const outcome = r.ok ? 'ok' : r.truncated === true ? 'truncated' : 'bad';
        expect(outcome, `first 0x${first.toString(16)}, end ${end}`).to.equal(expected);
      }
    }
  });

  it('encodes the shortest form for each length', () => {
    expect(Array.from(encodeBerLength(0))).to.deep.equal([0x00]);
    expect(Array.from(encodeBerLength(127))).to.deep.equal([0x7f]);
    expect(Array.from(encodeBerLength(128))).to.deep.equal([0x81, 0x80]);
    expect(Array.from(encodeBerLength(256))).to.deep.equal([0x82, 0x01, 0x00]);
    expect(Array.from(encodeBerLength(0x1000000))).to.deep.equal([0x84, 0x01, 0x00, 0x00, 0x00]);
  });

  it('reads back every length it encodes', () => {
    for (const n of [0, 1, 127, 128, 255, 256, 65535, 65536, 2 ** 40]) {
      const enc = encodeBerLength(n);
      expect(readBerLength(enc, 0, enc.length)).to.deep.equal({ ok: true, length: n, size: enc.length, nonMinimal: false });
    }
  });
});
