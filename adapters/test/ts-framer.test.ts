import { expect } from 'chai';
import { seededRandom } from '../../test-support/random.js';
import { TsFramer } from '../src/ts-framer.js';
import { TS_PACKET_SIZE as TS_PACKET_BYTES } from '@klvscope/core';
import { byteByByte, cutAt, frameAll } from './framing-results.js';
import { concat } from './serial-test-streams.js';

/** TS packet `i`: sync byte, PID 0x100, a payload with no 0x47 in it (so only the noise can fake a sync). */
function tsPacket(i: number): Uint8Array {
  const packet = new Uint8Array(TS_PACKET_BYTES);
  packet.set([0x47, 0x01, 0x00, 0x10 | (i & 0x0f)]);
  for (let j = 4; j < TS_PACKET_BYTES; j++) packet[j] = (i + j) % 0x40;
  return packet;
}

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

/**
 * Packets with noise before every third one (noise holding lone 0x47 bytes),
 * and its expected report. The bursts are packets apart: a packet between
 * two bursts has no sync byte after it to confirm it.
 */
function noisyTsStream(count: number, seed: number): { bytes: Uint8Array; packets: Uint8Array[]; noise: Array<[number, number]> } {
  const random = seededRandom(seed);
  const parts: Uint8Array[] = [];
  const packets: Uint8Array[] = [];
  const noise: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const length = i % 3 === 0 ? 1 + Math.floor(random() * 30) : 0;
    // 0x47 now and then; values 0x80-0xff elsewhere, so no 0x47 188 bytes on (payloads stay below 0x40) confirms it.
    const gap = Uint8Array.from({ length }, () => (random() < 0.2 ? 0x47 : 0x80 | Math.floor(random() * 128)));
    if (length > 0) noise.push([packets.length * TS_PACKET_BYTES, length]);
    parts.push(gap, tsPacket(i));
    packets.push(tsPacket(i));
  }
  return { bytes: concat(parts), packets, noise };
}

describe('TsFramer', () => {
  it('delivers each packet when the byte after it confirms it, and the last one at the end of the stream', () => {
    const framer = new TsFramer();
    expect(framer.push(tsPacket(0)).bytes.length).to.equal(0);
    expect(framer.pending).to.equal(TS_PACKET_BYTES);
    expect(framer.push(tsPacket(1)).bytes).to.deep.equal(tsPacket(0));
    expect(framer.push(tsPacket(2)).bytes).to.deep.equal(tsPacket(1));
    expect(framer.flush().bytes).to.deep.equal(tsPacket(2));
    expect(framer.pending).to.equal(0);
  });

  it('recovers every packet from noise with lone sync bytes in it, and reports each run of noise where it was', () => {
    const stream = noisyTsStream(20, 5);
    const result = frameAll(new TsFramer(), [stream.bytes]);
    expect(result.bytes).to.deep.equal(concat(stream.packets));
    expect(result.noise).to.deep.equal(stream.noise);
  });

  it('gives the same packets and noise however the stream is cut, or fed one byte at a time', () => {
    const stream = noisyTsStream(6, 9);
    const expected = { bytes: concat(stream.packets), noise: stream.noise };
    for (let at = 0; at <= stream.bytes.length; at++) {
      const result = frameAll(new TsFramer(), cutAt(stream.bytes, at));
      expect({ bytes: result.bytes, noise: result.noise }, `cut at ${at}`).to.deep.equal(expected);
    }
    const single = frameAll(new TsFramer(), byteByByte(stream.bytes));
    expect({ bytes: single.bytes, noise: single.noise }).to.deep.equal(expected);
  });

  it('skips a sync byte in noise that the byte 188 further on does not confirm', () => {
    // 0x47 then 187 bytes, then not a sync: the real packet starts 10 bytes later.
    const fake = concat([bytes(0x47), new Uint8Array(197).fill(0x11)]);
    const result = frameAll(new TsFramer(), [concat([fake, tsPacket(0), tsPacket(1)])]);
    expect([result.bytes, result.noise]).to.deep.equal([concat([tsPacket(0), tsPacket(1)]), [[0, fake.length]]]);
    expect(result.messages).to.deep.equal(['a sync byte not followed by another one 188 bytes later; bytes that are not TS packets (no 0x47 sync byte)']);
  });

  it('keeps a locked packet followed by noise, and confirms the packet after the noise again', () => {
    const framer = new TsFramer();
    const out = framer.push(concat([tsPacket(0), tsPacket(1), bytes(0x12, 0x13), tsPacket(2)]));
    expect([out.bytes, out.noise.map((n) => [n.at, n.count])]).to.deep.equal([concat([tsPacket(0), tsPacket(1)]), [[2 * TS_PACKET_BYTES, 2]]]);
    expect(framer.pending).to.equal(TS_PACKET_BYTES);
    expect(framer.push(bytes(0x47)).bytes).to.deep.equal(tsPacket(2));
  });

  it('realigns on the next packet when noise after a packet starts with a sync byte', () => {
    const result = frameAll(new TsFramer(), [concat([tsPacket(0), tsPacket(1), bytes(0x47, 0x12, 0x13), tsPacket(2), tsPacket(3)])]);
    expect([result.bytes, result.noise]).to.deep.equal([concat([0, 1, 2, 3].map(tsPacket)), [[2 * TS_PACKET_BYTES, 3]]]);
    expect(result.messages).to.deep.equal(['a broken packet (a sync byte 188 bytes on starts inside it)']);
  });

  it('reports a packet that lost a byte on the line as noise and keeps the packet after it', () => {
    const damaged = concat([tsPacket(2).subarray(0, 100), tsPacket(2).subarray(101)]);
    const stream = concat([tsPacket(0), tsPacket(1), damaged, tsPacket(3), tsPacket(4)]);
    for (const pieces of [[stream], byteByByte(stream)]) {
      const result = frameAll(new TsFramer(), pieces);
      expect([result.bytes, result.noise]).to.deep.equal([concat([0, 1, 3, 4].map(tsPacket)), [[2 * TS_PACKET_BYTES, TS_PACKET_BYTES - 1]]]);
    }
  });

  it('reports a lone packet between two bursts of noise as noise: no sync byte confirms it', () => {
    const stream = concat([tsPacket(0), tsPacket(1), bytes(0x12), tsPacket(2), bytes(0x13), tsPacket(3), tsPacket(4)]);
    const result = frameAll(new TsFramer(), [stream]);
    expect([result.bytes, result.noise]).to.deep.equal([
      concat([tsPacket(0), tsPacket(1), tsPacket(3), tsPacket(4)]),
      [[2 * TS_PACKET_BYTES, 1 + TS_PACKET_BYTES + 1]],
    ]);
  });

  it('accepts a last whole packet at the end of the stream, and reports a partial one as noise', () => {
    const whole = frameAll(new TsFramer(), [bytes(0x20, 0x21), tsPacket(0)]);
    expect([whole.bytes, whole.noise]).to.deep.equal([tsPacket(0), [[0, 2]]]);
    const partial = frameAll(new TsFramer(), [concat([tsPacket(0), tsPacket(1).subarray(0, 100)])]);
    expect([partial.bytes, partial.noise]).to.deep.equal([tsPacket(0), [[TS_PACKET_BYTES, 100]]]);
  });

  it('holds at most two packets whatever the noise', () => {
    const random = seededRandom(4);
    const framer = new TsFramer();
    for (let i = 0; i < 200; i++) {
      framer.push(Uint8Array.from({ length: 1000 }, () => (random() < 0.1 ? 0x47 : Math.floor(random() * 256))));
      expect(framer.pending).to.be.at.most(framer.maxPending);
    }
  });
});
