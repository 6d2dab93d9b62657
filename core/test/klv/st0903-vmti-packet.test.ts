import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { DecodedItem } from '../../src/klv/decoded-item.js';
import { decodeSt0903Packet, encodeSt0903Packet, type St0903Packet } from '../../src/klv/st0903-vmti-packet.js';
import type { St0903VTarget } from '../../src/klv/st0903-vtarget-pack.js';

const VMTI_KEY = [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x0b, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x03, 0x06, 0x00, 0x00, 0x00];

function valueOf(items: readonly DecodedItem[], tag: number): unknown {
  return items.find((item) => item.tag === tag)?.value;
}

/** Splits the jmisb file into its consecutive standalone packets. */
function decodeAll(bytes: Uint8Array): { start: number; packet: St0903Packet }[] {
  const out: { start: number; packet: St0903Packet }[] = [];
  for (let start = 0; start < bytes.length; ) {
    const packet = decodeSt0903Packet(bytes, start, bytes.length);
    out.push({ start, packet });
    start = packet.packetEnd;
  }
  return out;
}

function targetsOf(items: readonly DecodedItem[]): St0903VTarget[] {
  return valueOf(items, 101) as St0903VTarget[];
}

describe('ST 0903 standalone VMTI packets', () => {
  describe('the jmisb 0903.bin fixture (five packets written by jmisb)', () => {
    let bytes: Uint8Array;
    beforeEach(function () {
      bytes = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'jmisb_0903.bin')));
    });

    it('holds five packets that decode without a single problem and with valid checksums', () => {
      const packets = decodeAll(bytes);
      expect(packets.map((p) => p.start)).to.deep.equal([0, 130, 260, 390, 520]);
      expect(packets[4].packet.packetEnd).to.equal(650);
      for (const { packet } of packets) {
        expect(packet.problems).to.deep.equal([]);
        expect(packet.checksum?.valid).to.equal(true);
      }
      expect(packets.map((p) => p.packet.checksum?.stored)).to.deep.equal([0x182d, 0xa55f, 0xec91, 0x1ef3, 0xd94f]);
    });

    it('has the outer items jmisb VmtiLocalSetFactoryTest expects, plus the checksum it strips', () => {
      for (const { packet } of decodeAll(bytes)) {
        expect(packet.items.map((item) => item.tag)).to.deep.equal([2, 3, 4, 7, 8, 9, 10, 101, 102, 103, 1]);
      }
    });

    it('reads the first packet: "Example Targeting System", "EO Nose", version 4, a 1000x600 frame', () => {
      const { items } = decodeAll(bytes)[0].packet;
      expect(valueOf(items, 2)).to.equal(1664769469971288);
      expect(new Date(1664769469971288 / 1000).toISOString()).to.equal('2022-10-03T03:57:49.971Z');
      expect(valueOf(items, 3)).to.equal('Example Targeting System');
      expect(valueOf(items, 4)).to.equal(4);
      expect(valueOf(items, 7)).to.equal(1);
      expect(valueOf(items, 8)).to.equal(1000);
      expect(valueOf(items, 9)).to.equal(600);
      expect(valueOf(items, 10)).to.equal('EO Nose');
      expect(valueOf(items, 102)).to.deep.equal([]);
      expect(valueOf(items, 103)).to.deep.equal([]);
      expect(items.find((item) => item.tag === 10)).to.deep.equal({
        tag: 10,
        name: 'VMTI Source Sensor',
        units: null,
        rawHex: '454f204e6f7365',
        value: 'EO Nose',
        deprecated: false,
      });
    });

    it('reads the two VTarget packs of the first packet with their centroid, box corners and confidence', () => {
      const targets = targetsOf(decodeAll(bytes)[0].packet.items);
      expect(targets.map((t) => t.targetId)).to.deep.equal([0, 1]);
      expect(targets[0].items.map((item) => [item.tag, item.name, item.value])).to.deep.equal([
        [1, 'Target Centroid', 387602],
        [2, 'Boundary Top Left', 529018],
        [3, 'Boundary Bottom Right', 409558],
        [5, 'Target Confidence Level', 15],
        [107, 'VObject Series', []],
      ]);
      expect(targets[1].items.map((item) => item.value)).to.deep.equal([352205, 455636, 394955, 84, []]);
    });

    it('numbers the targets 0 to 9 across the five packets, two per packet, with rising time stamps', () => {
      const packets = decodeAll(bytes).map((p) => p.packet);
      expect(packets.flatMap((p) => targetsOf(p.items).map((t) => t.targetId))).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(packets.map((p) => valueOf(p.items, 2))).to.deep.equal([
        1664769469971288, 1664769469971600, 1664769469971836, 1664769469972045, 1664769469972253,
      ]);
      expect(packets.map((p) => targetsOf(p.items).map((t) => valueOf(t.items, 5)))).to.deep.equal([
        [15, 84],
        [77, 14],
        [88, 86],
        [88, 84],
        [94, 26],
      ]);
    });

    it('re-encodes every packet to exactly the bytes it was decoded from, checksum included', () => {
      for (const { start, packet } of decodeAll(bytes)) {
        expect(Buffer.from(encodeSt0903Packet(packet.items)).equals(Buffer.from(bytes.subarray(start, packet.packetEnd)))).to.equal(true);
      }
    });

    it('reports a checksum error at the checksum bytes when one value byte is changed', () => {
      const copy = bytes.slice(0, 130);
      copy[40] ^= 0x01;
      const packet = decodeSt0903Packet(copy, 0, copy.length);
      expect(packet.checksum).to.deep.equal({ stored: 0x182d, computed: 0x172d, valid: false });
      expect(packet.problems).to.deep.equal([
        { type: 'checksum-error', tag: 1, byteOffset: 128, message: 'checksum 0x182d does not match the computed 0x172d' },
      ]);
    });
  });

  describe('packets built by the encoder', () => {
    it('writes the VMTI key, the BER length, the items and a checksum that verifies', () => {
      const packet = encodeSt0903Packet([
        { tag: 2, value: 1664769469971288 },
        { tag: 4, value: 5 },
      ]);
      expect(Array.from(packet.subarray(0, 16))).to.deep.equal(VMTI_KEY);
      expect(packet[16]).to.equal(17);
      expect(Array.from(packet.subarray(17, 30))).to.deep.equal([0x02, 0x08, 0x00, 0x05, 0xea, 0x19, 0x58, 0xe3, 0xfb, 0x58, 0x04, 0x01, 0x05]);
      const decoded = decodeSt0903Packet(packet, 0, packet.length);
      expect(decoded.problems).to.deep.equal([]);
      expect(decoded.checksum?.valid).to.equal(true);
      expect(decoded.items.map((item) => [item.tag, item.value])).to.deep.equal([
        [2, 1664769469971288],
        [4, 5],
        [1, decoded.checksum?.stored],
      ]);
    });

    it('drops a checksum item given by the caller and computes its own', () => {
      const withChecksum = encodeSt0903Packet([{ tag: 4, value: 5 }, { tag: 1, value: 0 }, { tag: 2, value: 1 }]);
      const without = encodeSt0903Packet([{ tag: 4, value: 5 }, { tag: 2, value: 1 }]);
      expect(Array.from(withChecksum)).to.deep.equal(Array.from(without));
    });

    it('reports a missing checksum and a missing time stamp in a standalone packet', () => {
      const packet = Uint8Array.from([...VMTI_KEY, 3, 0x04, 0x01, 0x05]);
      const decoded = decodeSt0903Packet(packet, 0, packet.length);
      expect(decoded.checksum).to.equal(null);
      expect(decoded.problems).to.deep.equal([
        { type: 'missing-mandatory', tag: 1, byteOffset: 20, message: 'standalone VMTI packet has no checksum item (tag 1)' },
        { type: 'missing-mandatory', tag: 2, byteOffset: 17, message: 'standalone VMTI packet has no Precision Time Stamp (tag 2)' },
      ]);
    });

    it('reports a checksum item that is not the last item', () => {
      const packet = Uint8Array.from([...VMTI_KEY, 7, 0x01, 0x02, 0x00, 0x00, 0x04, 0x01, 0x05]);
      const decoded = decodeSt0903Packet(packet, 0, packet.length);
      expect(decoded.problems.filter((p) => p.tag === 1)).to.deep.equal([
        { type: 'checksum-error', tag: 1, byteOffset: 24, message: 'checksum item (tag 1) is not the last item of the packet' },
      ]);
    });

    it('accepts the key with another version byte, as SMPTE ST 336 asks (only the checksum, which covers the key, objects)', () => {
      const packet = encodeSt0903Packet([{ tag: 2, value: 1 }, { tag: 4, value: 5 }]);
      packet[7] = 0x0e;
      const decoded = decodeSt0903Packet(packet, 0, packet.length);
      expect(decoded.problems.map((p) => p.type)).to.deep.equal(['checksum-error']);
    });

    it('reports a key that is not the VMTI key and still decodes the items', () => {
      const packet = encodeSt0903Packet([{ tag: 2, value: 1 }, { tag: 4, value: 5 }]);
      packet[12] = 0x01;
      const decoded = decodeSt0903Packet(packet, 0, packet.length);
      expect(decoded.problems[0]).to.deep.equal({ type: 'unknown-key', tag: null, byteOffset: 0, message: 'key is not the ST 0903 VMTI LS key' });
      expect(decoded.items.map((item) => item.tag)).to.deep.equal([2, 4, 1]);
    });

    it('reports a length that runs past the data and decodes what is there', () => {
      const full = encodeSt0903Packet([{ tag: 3, value: 'VMTI' }, { tag: 4, value: 5 }]);
      const cut = full.subarray(0, 26);
      const decoded = decodeSt0903Packet(cut, 0, cut.length);
      expect(decoded.packetEnd).to.equal(26);
      expect(decoded.items.map((item) => [item.tag, item.value])).to.deep.equal([
        [3, 'VMTI'],
        [4, 5],
      ]);
      expect(decoded.problems[0]).to.deep.equal({
        type: 'raw-decode-error',
        tag: null,
        byteOffset: 16,
        message: 'VMTI packet length 13 runs past the data (9 bytes left)',
      });
    });

    it('reports a buffer too short for a key and a length', () => {
      const decoded = decodeSt0903Packet(Uint8Array.from(VMTI_KEY), 0, 16);
      expect(decoded).to.deep.equal({
        items: [],
        problems: [{ type: 'raw-decode-error', tag: null, byteOffset: 0, message: 'VMTI packet truncated: 16 bytes, no room for key and length' }],
        packetEnd: 16,
        checksum: null,
      });
    });
  });
});
