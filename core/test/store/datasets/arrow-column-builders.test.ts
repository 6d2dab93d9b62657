import { expect } from 'chai';
import { Binary, makeVector, Utf8, type Data } from 'apache-arrow';
import { createColumnBuilder, VariableWidthBuilder } from '../../../src/store/datasets/arrow-column-builders.js';

// Short ASCII values are copied a character at a time, anything else through Buffer#write: both must give the same UTF-8.
describe('Arrow text and bytes columns', () => {
  const long = 'x'.repeat(200);
  const texts = ['', 'PAT', 'Sensor Latitude', 'µs', 'Ünïcödé name', '日本語', '😀 emoji', `${long}é`, long, 'ascii then é'];

  it('holds every text as its UTF-8, short or long, ASCII or not, and a number as its String', () => {
    const builder = createColumnBuilder('utf8', 16);
    for (const text of texts) builder.add(text);
    builder.add(null);
    builder.add(-12.345678901234567);
    builder.add(4096);
    const vector = makeVector(builder.take() as Data<Utf8>);
    expect(vector.toArray()).to.deep.equal([...texts, null, String(-12.345678901234567), '4096']);
    const data = vector.data[0];
    expect(data.values.byteLength).to.equal(data.valueOffsets[data.length]);
    expect(Buffer.from(data.values.subarray(0, data.valueOffsets[data.length])).toString('utf8')).to.equal([...texts, '', '-12.345678901234567', '4096'].join(''));
  });

  it('holds bytes short and long as they are, and starts again empty after a take', () => {
    const builder = new VariableWidthBuilder(new Binary(), 4);
    const short = Uint8Array.from([0, 1, 255, 128]);
    const longBytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 255);
    builder.add(short);
    builder.add(longBytes);
    builder.add(new Uint8Array(0));
    const first = makeVector(builder.take() as Data<Binary>);
    expect([...first].map((value) => (value === null ? null : [...value]))).to.deep.equal([[...short], [...longBytes], []]);
    builder.add(Uint8Array.from([9]));
    expect([...(makeVector(builder.take() as Data<Binary>).get(0) as Uint8Array)]).to.deep.equal([9]);
  });

  it('writes a whole number as String does, digit by digit, from 0 and -0 to the largest safe integers', () => {
    const builder = createColumnBuilder('utf8', 64);
    const numbers = [0, -0, 7, -7, 9, 10, 99, 100, 101, 65535, -2147483648, 4294967296, 999999999999999, 1e15, 1231798102000000, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53 - 3];
    let seed = 12345;
    for (let i = 0; i < 40; i++) {
      // Whole numbers of every length up to 2^53 (a small linear congruential generator: the same numbers every run).
      seed = (seed * 1103515245 + 12345) % 2147483648;
      numbers.push(Math.floor((seed / 2147483648) * 2 ** (i + 13)) * (i % 2 === 0 ? 1 : -1));
    }
    for (const number of numbers) builder.add(number);
    expect(makeVector(builder.take() as Data<Utf8>).toArray()).to.deep.equal(numbers.map(String));
  });

  it('adds a copy of a value added before, short or long, also after growing past its first 64 KB', () => {
    const builder = new VariableWidthBuilder(new Utf8(), 8);
    const long = `${'z'.repeat(70_000)}é`;
    builder.add('12.5');
    const shortEnd = builder.end;
    builder.add(long);
    const longEnd = builder.end;
    builder.addCopyOf(0, shortEnd);
    builder.addCopyOf(shortEnd, longEnd);
    builder.add(null);
    builder.addCopyOf(0, shortEnd);
    expect(shortEnd).to.equal(4);
    expect(makeVector(builder.take() as Data<Utf8>).toArray()).to.deep.equal(['12.5', long, '12.5', long, null, '12.5']);
  });

  it('grows past its first 64 KB without losing what it held', () => {
    const builder = new VariableWidthBuilder(new Utf8(), 2000);
    const rows = Array.from({ length: 2000 }, (_, i) => `row ${i} ${'y'.repeat(i % 60)}`);
    for (const row of rows) builder.add(row);
    expect(makeVector(builder.take() as Data<Utf8>).toArray()).to.deep.equal(rows);
  });

  it('gives a number or bool column whose rows are all null zero values and a zero bitmap, then fills the next batch as before', () => {
    for (const kind of ['int64', 'float64', 'bool', 'timestamp-us'] as const) {
      const builder = createColumnBuilder(kind, 100);
      // A batch with values first: what it leaves behind must not show in the nulls after it.
      builder.add(1);
      builder.add(1);
      builder.take();
      builder.add(null);
      builder.skipTo(70);
      const empty = builder.take();
      expect(empty.length, kind).to.equal(70);
      expect(empty.nullCount, kind).to.equal(70);
      expect([...empty.nullBitmap], kind).to.deep.equal(Array<number>(9).fill(0));
      const values = empty.values as ArrayBufferView;
      expect([...new Uint8Array(values.buffer, values.byteOffset, values.byteLength)].every((byte) => byte === 0), kind).to.equal(true);
      expect(values.byteLength, kind).to.equal(kind === 'bool' ? 9 : 8 * 70);
      builder.add(null);
      builder.add(1);
      const next = makeVector(builder.take());
      expect(next.length, kind).to.equal(2);
      expect(next.get(0), kind).to.equal(null);
      expect(next.get(1), kind).to.not.equal(null);
    }
  });

  it('gives a text or bytes column whose rows are all null zero offsets, no bytes and a zero bitmap, then fills the next batch as before', () => {
    for (const kind of ['utf8', 'binary'] as const) {
      const builder = createColumnBuilder(kind, 100);
      builder.add(kind === 'utf8' ? 'before' : Uint8Array.from([1, 2]));
      builder.take();
      builder.add(null);
      builder.skipTo(33);
      const empty = builder.take();
      expect(empty.length, kind).to.equal(33);
      expect(empty.nullCount, kind).to.equal(33);
      expect([...(empty.valueOffsets as Int32Array)], kind).to.deep.equal(Array<number>(34).fill(0));
      expect([...empty.nullBitmap], kind).to.deep.equal(Array<number>(5).fill(0));
      expect((empty.values as ArrayBufferView).byteLength, kind).to.equal(0);
      builder.add(null);
      builder.add(kind === 'utf8' ? 'after' : Uint8Array.from([3]));
      const next = makeVector(builder.take());
      expect(next.get(0), kind).to.equal(null);
      expect(kind === 'utf8' ? next.get(1) : [...(next.get(1) as Uint8Array)], kind).to.deep.equal(kind === 'utf8' ? 'after' : [3]);
    }
  });
});
