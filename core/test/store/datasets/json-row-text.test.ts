import { expect } from 'chai';
import { JsonTextBuffer } from '../../../src/store/datasets/json-row-text.js';

describe('JSON text written byte by byte', () => {
  const text = (write: (out: JsonTextBuffer) => void): string => {
    const out = new JsonTextBuffer(8);
    write(out);
    return out.take();
  };

  it('writes numbers as JSON.stringify does: whole numbers on both sides of 2^31 and 10^9, fractions, -0, non-finite', () => {
    const numbers = [0, -0, 7, -7, 10, 999_999_999, 1e9, 1_000_000_001, 2 ** 31, 19_999_990_276, -19_999_990_276, Number.MAX_SAFE_INTEGER, 2 ** 53, 0.1, 1.5e-7, 1e21, NaN, -Infinity];
    for (const n of numbers) expect(text((out) => out.number(n)), String(n)).to.equal(JSON.stringify(n));
  });

  it('writes strings as JSON.stringify does: plain ones copied, quotes, backslashes, control characters, non-ASCII and lone surrogates escaped or encoded', () => {
    for (const s of ['', 'interval', 'say "hi"', 'a\\b', 'tab\there\n', '°C', '\ud800', '😀']) expect(text((out) => out.string(s)), s).to.equal(JSON.stringify(s));
  });

  it('grows past its first size and hands the text over once', () => {
    const out = new JsonTextBuffer(4);
    out.hex(Uint8Array.from([0, 0xab, 0xff]));
    out.value({ nested: [1, 'two', null] });
    expect(out.take()).to.equal('"00abff"{"nested":[1,"two",null]}');
    expect(out.take()).to.equal('');
  });
});
