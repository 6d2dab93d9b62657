import { expect } from 'chai';
import { seededRandom as prng } from '../../../test-support/random.js';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { scanKlvStream } from '../../src/klv/klv-triplet.js';
import { decodeSt0601Item } from '../../src/klv/st0601-item.js';
import { ST0601_ITEMS } from '../../src/klv/st0601-items.js';
import { decodeSt0601, encodeSt0601 } from '../../src/klv/st0601-packet.js';
import { samplesFor } from './st0601-samples.js';

/** One random mutation: flip, overwrite, insert, delete, truncate or corrupt a length byte. */
function mutate(packet: Uint8Array, random: () => number): Uint8Array {
  const at = Math.floor(random() * packet.length);
  const byte = Math.floor(random() * 256);
  switch (Math.floor(random() * 7)) {
    case 0: {
      const out = packet.slice();
      out[at] ^= 1 << Math.floor(random() * 8);
      return out;
    }
    case 1: {
      const out = packet.slice();
      out[at] = byte;
      return out;
    }
    case 2:
      return Uint8Array.from([...packet.subarray(0, at), byte, ...packet.subarray(at)]);
    case 3:
      return Uint8Array.from([...packet.subarray(0, at), ...packet.subarray(at + 1)]);
    case 4:
      return packet.slice(0, at);
    case 5: {
      // The long-form and indefinite BER length bytes are where parsers usually break.
      const out = packet.slice();
      out[at] = [0x80, 0x81, 0x84, 0x88, 0xff, 0x7f][Math.floor(random() * 6)];
      return out;
    }
    default: {
      const out = packet.slice();
      for (let i = 0; i < 8; i++) out[Math.floor(random() * out.length)] = Math.floor(random() * 256);
      return out;
    }
  }
}

/** One packet carrying every ST 0601 item, with its first sample value. */
function everyItemPacket(): Uint8Array {
  return encodeSt0601(ST0601_ITEMS.filter((s) => s.tag !== 1).map((spec) => ({ tag: spec.tag, value: samplesFor(spec)[0].input })));
}

describe('ST 0601 decoding robustness', () => {
  it('decodes a packet carrying every item from 2 to 143 without a problem', () => {
    const bytes = everyItemPacket();
    const packet = decodeSt0601(bytes, 0, bytes.length);
    expect(packet.problems).to.deep.equal([]);
    expect(packet.items).to.have.length(143);
    expect(packet.items.filter((i) => i.error !== undefined)).to.deep.equal([]);
  });

  it('never throws on 12000 random mutations and truncations of real and synthetic packets, and returns JSON-able results', function () {
    this.timeout(120000);
    const sources: Uint8Array[] = [everyItemPacket()];
    for (const name of ['klvdata_Cheyenne.klv.bin', 'klvdata_realflight.klv.bin', 'klvdata_DynamicConstantMISMMSPacketData.bin']) {
      const bytes = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', name)));
      for (const t of scanKlvStream(bytes).triplets.slice(0, 3)) sources.push(bytes.slice(t.keyOffset, t.end));
    }
    const random = prng(0x0601);
    let decodedWithProblems = 0;
    for (let i = 0; i < 12000; i++) {
      let packet = sources[i % sources.length];
      const rounds = 1 + Math.floor(random() * 3);
      for (let r = 0; r < rounds; r++) packet = mutate(packet, random);
      let result;
      try {
        result = decodeSt0601(packet, 0, packet.length);
        JSON.stringify(result);
      } catch (error) {
        throw new Error(`mutation ${i} threw on ${Buffer.from(packet).toString('hex')}: ${String(error)}`, { cause: error });
      }
      expect(result.checksum.computed).to.be.within(0, 0xffff);
      for (const p of result.problems) expect(p.byteOffset).to.be.within(0, packet.length);
      if (result.problems.length > 0) decodedWithProblems++;
    }
    // Nearly every mutation is caught, by the checksum at least.
    expect(decodedWithProblems).to.be.above(11000);
  });

  it('never throws when any item decoder gets random bytes of any length', () => {
    const random = prng(1201);
    for (const spec of ST0601_ITEMS) {
      for (let i = 0; i < 200; i++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 256));
        const item = decodeSt0601Item(spec.tag, bytes, 0, bytes.length);
        expect(item.tag).to.equal(spec.tag);
        JSON.stringify(item);
      }
    }
  });

  it('never throws when scanning a mutated raw KLV stream', function () {
    const bytes = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin')));
    const random = prng(336);
    for (let i = 0; i < 300; i++) {
      const mutated = mutate(mutate(bytes, random), random);
      for (const t of scanKlvStream(mutated).triplets) decodeSt0601(mutated, t.keyOffset, t.end);
    }
  });
});
