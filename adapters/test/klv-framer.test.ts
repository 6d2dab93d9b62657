import { expect } from 'chai';
import { MAX_KLV_VALUE_BYTES, universalKey } from '@klvscope/core';
import { seededRandom } from '../../test-support/random.js';
import { DEFAULT_MAX_KLV_VALUE_BYTES, KlvFramer } from '../src/klv-framer.js';
import { byteByByte, cutAt, frameAll } from './framing-results.js';
import { concat, expectedNoise, noisyKlvStream, st0601Packet } from './serial-test-streams.js';

const PREFIX = [0x06, 0x0e, 0x2b, 0x34];
/** A SMPTE label that is in no registry of ours. */
const PRIVATE_KEY = [...PREFIX, 0x01, 0x01, 0x01, 0x01, 0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08];

/** A generic triplet: `key`, the length as given (any BER form), `valueLength` bytes that hold no key prefix. */
function triplet(key: readonly number[], length: readonly number[], valueLength: number): Uint8Array {
  const value = Array.from({ length: valueLength }, (_, i) => (i * 7 + 1) & 0x7f);
  return Uint8Array.from([...key, ...length, ...value]);
}

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('KlvFramer', () => {
  const [p0, p1, p2] = [0, 1, 2].map((i) => st0601Packet(i).bytes);

  it('delivers back-to-back packets unchanged, each as soon as it is complete', () => {
    const result = frameAll(new KlvFramer(), [p0, p1, p2]);
    expect(result.bytes).to.deep.equal(concat([p0, p1, p2]));
    expect(result.perPush).to.deep.equal([p0.length, p1.length, p2.length, 0]);
    expect(result.noise).to.deep.equal([]);
  });

  it('recovers every packet from noise before, between and after them, and reports each run of noise where it was', () => {
    const stream = noisyKlvStream(40, 7, { trailingNoise: true });
    const result = frameAll(new KlvFramer(), [stream.bytes]);
    expect(result.bytes).to.deep.equal(concat(stream.packets));
    expect(result.noise).to.deep.equal(expectedNoise(stream));
    expect(result.noise.reduce((n, [, count]) => n + count, 0)).to.equal(stream.noiseBefore.reduce((a, b) => a + b, 0));
  });

  it('gives the same packets and noise however the stream is cut into two pieces', () => {
    const stream = noisyKlvStream(6, 11, { trailingNoise: true });
    const expected = { bytes: concat(stream.packets), noise: expectedNoise(stream) };
    for (let at = 0; at <= stream.bytes.length; at++) {
      const result = frameAll(new KlvFramer(), cutAt(stream.bytes, at));
      expect({ bytes: result.bytes, noise: result.noise }, `cut at ${at}`).to.deep.equal(expected);
    }
  });

  it('gives the same packets and noise when the stream arrives one byte at a time', () => {
    const stream = noisyKlvStream(12, 12, { trailingNoise: true });
    const result = frameAll(new KlvFramer(), byteByByte(stream.bytes));
    expect(result.bytes).to.deep.equal(concat(stream.packets));
    expect(result.noise).to.deep.equal(expectedNoise(stream));
  });

  it('finds a key that follows noise ending with the first bytes of a key prefix', () => {
    for (const tail of [[0x06], [0x06, 0x0e], [0x06, 0x0e, 0x2b], [0x06, 0x06, 0x0e, 0x2b]]) {
      const noise = bytes(0x99, 0x98, ...tail);
      const result = frameAll(new KlvFramer(), [noise, p0]);
      expect([result.bytes, result.noise], `tail ${tail.join(' ')}`).to.deep.equal([p0, [[0, noise.length]]]);
    }
  });

  it('holds a key prefix split at the end of a piece, and only that, until the next piece', () => {
    const framer = new KlvFramer();
    const first = framer.push(concat([bytes(0x11, 0x22, 0x33), p0.subarray(0, 3)]));
    expect([first.bytes.length, first.noise.map((n) => n.count), framer.pending]).to.deep.equal([0, [3], 3]);
    const second = framer.push(p0.subarray(3));
    expect([second.bytes, second.noise, framer.pending]).to.deep.equal([p0, [], 0]);
  });

  it('resumes just after a false key start whose length is impossible or too long, keeping the packets behind it', () => {
    const falseKey = [...PREFIX, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c];
    const lengths = [
      [0x80], // indefinite form, not used in KLV (SMPTE ST 336)
      [0x88, 1, 2, 3, 4, 5, 6, 7, 8], // 8 length bytes
      [0x83, 0x10, 0x00, 0x00], // 1 MiB, above the 64 KiB default
      [0x83, 0x01, 0x00, 0x01], // 64 KiB + 1
    ];
    for (const length of lengths) {
      const noise = bytes(0x55, ...falseKey, ...length, 0x66);
      const result = frameAll(new KlvFramer(), [concat([noise, p0, noise, p1])], { flush: false });
      expect([result.bytes, result.noise], `length ${length.join(' ')}`).to.deep.equal([
        concat([p0, p1]),
        [
          [0, noise.length],
          [p0.length, noise.length],
        ],
      ]);
      expect(result.messages[0]).to.equal('bytes that are not KLV (no 06 0E 2B 34 key); a false key start (BER length impossible or above the limit)');
    }
  });

  it('takes a key prefix inside the 16 key bytes for the real key, even when the false one has a plausible length', () => {
    const noise = bytes(...PREFIX, 0x77, 0x78);
    const result = frameAll(new KlvFramer(), [concat([p0, noise, p1])], { flush: false });
    expect([result.bytes, result.noise]).to.deep.equal([concat([p0, p1]), [[p0.length, 6]]]);
    expect(result.messages).to.deep.equal(['a false key start (another key begins inside its 16 bytes)']);
  });

  it('resumes at the real key inside the value of a false start whose plausible length runs over it', () => {
    // A false key and a length of 100: the value would swallow p0's key and run into p0.
    const noise = bytes(...PRIVATE_KEY, 100);
    const result = frameAll(new KlvFramer(), [concat([noise, p0, p1])], { flush: false });
    expect([result.bytes, result.noise]).to.deep.equal([concat([p0, p1]), [[0, noise.length]]]);
    expect(result.messages).to.deep.equal(['a KLV packet cut short (the next key begins inside its value)']);
  });

  it('reports a packet that lost a byte on the line as noise and keeps the packet after it', () => {
    const middle = p1.length >> 1;
    const damaged = concat([p1.subarray(0, middle), p1.subarray(middle + 1)]);
    const stream = concat([p0, damaged, p2, p0]);
    for (const pieces of [[stream], byteByByte(stream)]) {
      const result = frameAll(new KlvFramer(), pieces);
      expect([result.bytes, result.noise]).to.deep.equal([concat([p0, p2, p0]), [[p0.length, damaged.length]]]);
      expect(result.messages).to.deep.equal(['a KLV packet cut short (the next key begins inside its value)']);
    }
  });

  it('keeps a universal set whole although its items are keys, even with noise after it', () => {
    const items = [triplet(PRIVATE_KEY, [5], 5), triplet([...PRIVATE_KEY.slice(0, 15), 0x07], [3], 3)];
    const value = concat(items);
    const set = concat([universalKey('eg0104-predator-uav-basic-us').bytes, bytes(value.length), value]);
    const framer = new KlvFramer();
    // Nothing after it yet: its items end where it ends, so it is not waiting for confirmation.
    expect(framer.push(set).bytes).to.deep.equal(set);
    const result = frameAll(framer, [bytes(0x51, 0x52, 0x53), set, bytes(0x54), p0]);
    expect([result.bytes, result.noise]).to.deep.equal([concat([set, p0]), [[0, 3], [set.length, 1]]]);
  });

  it('reads long-form BER lengths, including a non-minimal one', () => {
    const packets = [triplet(PRIVATE_KEY, [0x81, 200], 200), triplet(PRIVATE_KEY, [0x82, 0x01, 0x2c], 300), triplet(PRIVATE_KEY, [0x83, 0, 0, 5], 5)];
    const result = frameAll(new KlvFramer(), [concat([bytes(1, 2), packets[0], bytes(3), packets[1], packets[2]])]);
    expect([result.bytes, result.noise]).to.deep.equal([
      concat(packets),
      [
        [0, 2],
        [packets[0].length, 1],
      ],
    ]);
  });

  it('waits for a BER length cut at any byte and rejects an impossible one at once, for every first byte', () => {
    for (let first = 0; first < 256; first++) {
      const count = first < 0x80 ? 0 : first & 0x7f;
      // SMPTE ST 336 6.3: no indefinite form; core reads at most 6 long-form bytes.
      const impossible = first === 0x80 || count > 6;
      const candidate = impossible ? bytes(...PRIVATE_KEY, first) : triplet(PRIVATE_KEY, count === 0 ? [first] : [first, ...Array<number>(count - 1).fill(0), 5], count === 0 ? first : 5);
      const expected = impossible ? [p0, [[0, candidate.length]]] : [concat([candidate, p0]), []];
      for (const pieces of [[concat([candidate, p0])], byteByByte(concat([candidate, p0]))]) {
        const result = frameAll(new KlvFramer(), pieces);
        expect([result.bytes, result.noise], `first 0x${first.toString(16)}, ${pieces.length} pieces`).to.deep.equal(expected);
      }
    }
  });

  it('bounds the value length: 64 KiB by default, configurable up to core limit', () => {
    const big = triplet(PRIVATE_KEY, [0x83, 0x01, 0x00, 0x00], 65_536);
    expect(DEFAULT_MAX_KLV_VALUE_BYTES).to.equal(65_536);
    expect(frameAll(new KlvFramer(), [big]).bytes).to.deep.equal(big);
    const small = new KlvFramer({ maxValueBytes: 1000 });
    const result = frameAll(small, [concat([triplet(PRIVATE_KEY, [0x82, 0x03, 0xe9], 1001), p0])]);
    expect(result.bytes).to.deep.equal(p0);
    expect(result.noise).to.deep.equal([[0, 16 + 3 + 1001]]);
    expect(() => new KlvFramer({ maxValueBytes: 0 })).to.throw(RangeError, 'maxValueBytes must be an integer from 1 to');
    expect(() => new KlvFramer({ maxValueBytes: MAX_KLV_VALUE_BYTES + 1 })).to.throw(RangeError);
  });

  it('takes only registry keys when asked, so a private label is noise', () => {
    const other = triplet(PRIVATE_KEY, [4], 4);
    const stream = concat([other, p0]);
    expect(frameAll(new KlvFramer(), [stream]).bytes).to.deep.equal(stream);
    const strict = frameAll(new KlvFramer({ knownKeysOnly: true }), [stream]);
    expect([strict.bytes, strict.noise]).to.deep.equal([p0, [[0, other.length]]]);
  });

  it('reports a packet cut short by the end of the stream as noise when flushed, after the packets before it', () => {
    const framer = new KlvFramer();
    const partial = p1.subarray(0, 50);
    const pushed = framer.push(concat([p0, partial]));
    expect([pushed.bytes, framer.pending]).to.deep.equal([p0, 50]);
    const flushed = framer.flush();
    expect(flushed.bytes.length).to.equal(0);
    expect(flushed.noise).to.deep.equal([{ count: 50, at: 0, message: 'a KLV packet cut short at the end of the stream; bytes that are not KLV (no 06 0E 2B 34 key)' }]);
    expect(framer.pending).to.equal(0);
  });

  it('holds no more than three bytes of noise, and no more than one packet while it arrives', () => {
    const random = seededRandom(3);
    const framer = new KlvFramer();
    let noise = 0;
    for (let i = 0; i < 256; i++) {
      const piece = Uint8Array.from({ length: 4096 }, () => Math.floor(random() * 256) & 0xf7); // & 0xf7 keeps 0x0e, 0x2b out: no key
      for (const run of framer.push(piece).noise) noise += run.count;
      expect(framer.pending).to.be.at.most(3);
    }
    for (const run of framer.flush().noise) noise += run.count;
    expect(noise).to.equal(256 * 4096);

    const long = triplet(PRIVATE_KEY, [0x82, 0xea, 0x60], 60_000);
    for (let at = 0; at < long.length; at += 1000) {
      const out = framer.push(long.subarray(at, at + 1000));
      expect(framer.pending).to.be.at.most(long.length);
      expect(framer.pending).to.be.at.most(framer.maxPending);
      if (at + 1000 < long.length) expect(out.bytes.length).to.equal(0);
      else expect(out.bytes).to.deep.equal(long);
    }
  });
});
