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

  it('encodes two- and three-byte characters as it goes, as JSON.stringify and UTF-8 do, and leaves DEL and the last character before the surrogates as they are', () => {
    for (const s of ['µs', 'ß and €', '中文 text', '\u007f', '\u07ff\u0800', '\ud7ff', '\ue000\uffff', 'after ° a "quote"', 'a pair 😀 after ° ', 'a low \udc00 alone']) {
      expect(text((out) => out.string(s)), JSON.stringify(s)).to.equal(JSON.stringify(s));
    }
  });

  it('writes arrays and objects as JSON.stringify does, and leaves to it whatever only it writes (toJSON, typed arrays, undefined, holes, boxed values)', () => {
    const nullPrototype = Object.assign(Object.create(null) as object, { b: 1, a: [2] });
    const values: unknown[] = [
      [],
      {},
      [{ tag: 2, name: 'Precision Time Stamp', units: 'µs', rawHex: '00', value: 1.5, deprecated: false }, { tag: 1, error: 'bad "x"', value: null }],
      { nested: { deeper: [1, [2, [3, { four: -0 }]]], '': 'empty key', 'a "key"': true, 2: 'two', 1: 'one' } },
      [NaN, Infinity, -1e-7, 2 ** 53, 'x'],
      nullPrototype,
      { when: new Date(0) },
      { toJSON: () => 'mine' },
      { bytes: Uint8Array.from([1, 2]) },
      { skipped: undefined, kept: 1, fn: () => 1 },
      [undefined, () => 1],
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      [new Number(1), new String('s'), new Boolean(false)],
      JSON.parse('[' + '['.repeat(100) + ']'.repeat(100) + ']') as unknown,
    ];
    for (const value of values) expect(text((out) => out.value(value)), JSON.stringify(value)).to.equal(JSON.stringify(value));
  });

  it('throws what JSON.stringify throws for a cycle or a bigint', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    for (const value of [cycle, [1, { big: 1n }]]) expect(() => text((out) => out.value(value))).to.throw(TypeError);
  });

  it('grows past its first size and hands the text over once', () => {
    const out = new JsonTextBuffer(4);
    out.hex(Uint8Array.from([0, 0xab, 0xff]));
    out.value({ nested: [1, 'two', null] });
    expect(out.take()).to.equal('"00abff"{"nested":[1,"two",null]}');
    expect(out.take()).to.equal('');
  });
});
