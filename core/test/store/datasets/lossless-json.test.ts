import { expect } from 'chai';
import { decodeJsonValue, encodeJsonValue } from '../../../src/store/datasets/lossless-json.js';

function roundTrip(value: unknown): unknown {
  return decodeJsonValue(encodeJsonValue(value));
}

describe('lossless JSON', () => {
  it('stores plain JSON data as plain JSON text', () => {
    const value = { tag: 13, name: 'Sensor Latitude', value: 34.72115, items: [1, 'two', null, true, { nested: [] }] };
    expect(encodeJsonValue(value)).to.equal(JSON.stringify(value));
    expect(roundTrip(value)).to.deep.equal(value);
  });

  it('gives back NaN, both infinities and -0 at any depth', () => {
    const value = { a: NaN, b: [Infinity, { c: -Infinity }], d: -0, e: 0 };
    const back = roundTrip(value) as typeof value;
    expect(back).to.deep.equal(value);
    expect(back.a).to.be.NaN;
    expect(Object.is(back.d, -0)).to.be.true;
    expect(Object.is(back.e, 0)).to.be.true;
  });

  it('gives back non-finite and negative-zero numbers on their own', () => {
    for (const value of [NaN, Infinity, -Infinity, -0]) expect(Object.is(roundTrip(value), value), String(value)).to.be.true;
  });

  it('keeps properties and array entries whose value is undefined', () => {
    const back = roundTrip({ present: undefined, list: [undefined, 1] }) as { present: unknown; list: unknown[] };
    expect(back).to.have.property('present', undefined);
    expect(back.list).to.deep.equal([undefined, 1]);
    expect(roundTrip(undefined)).to.equal(undefined);
  });

  it('leaves strings that look like its tags unchanged beside a special value', () => {
    const value = { special: NaN, strings: ['n5', 'u', 's', '~', 'nNaN', ''], 'key~': 'sx' };
    expect(roundTrip(value)).to.deep.equal(value);
  });

  it('refuses tagged text with an untagged string in it', () => {
    expect(() => decodeJsonValue('~["x"]')).to.throw(SyntaxError, 'untagged');
  });
});
