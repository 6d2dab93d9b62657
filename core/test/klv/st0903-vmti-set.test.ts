import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { DecodedItem } from '../../src/klv/decoded-item.js';
import { parseLocalSet } from '../../src/klv/local-set.js';
import { decodeSt0903LocalSet, encodeSt0903LocalSet, st0903NestedSet } from '../../src/klv/st0903-vmti-set.js';
import type { St0903VTarget } from '../../src/klv/st0903-vtarget-pack.js';
import type { TaggedItemInput } from '../../src/klv/st0903-tagged-set.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

function item(items: readonly DecodedItem[], tag: number): DecodedItem {
  const found = items.find((i) => i.tag === tag);
  if (!found) throw new Error(`no tag ${tag}`);
  return found;
}

function valueOf(items: readonly DecodedItem[], tag: number): unknown {
  return item(items, tag).value;
}

/** The PES payloads of PID 0x101, reassembled by the core demuxer. */
function klvPayloads(path: string): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  const demuxer = new TsDemuxer(() => undefined, {
    payloadConsumer: { wants: (stream) => stream.pid === 0x101, payload: (_pes, _stream, payload) => payloads.push(payload) },
  });
  demuxer.push(new Uint8Array(readFileSync(path)));
  demuxer.end();
  return payloads;
}

/** Every ST 0601 tag 74 value of the payloads, as [buffer, start, end]. */
function vmtiSetsOf(payloads: readonly Uint8Array[]): [Uint8Array, number, number][] {
  const sets: [Uint8Array, number, number][] = [];
  for (const payload of payloads) {
    // One ST 0601 packet per payload in this fixture: 16-byte key, then a one- or two-byte BER length.
    const valueStart = payload[16] < 0x80 ? 17 : 17 + (payload[16] & 0x7f);
    for (const i of parseLocalSet(payload, valueStart, payload.length).items) {
      if (i.tag === 74) sets.push([payload, i.valueOffset, i.valueOffset + i.length]);
    }
  }
  return sets;
}

const TRACK_UUID = '5f1b3c1e-6a0e-4c8e-9d4a-0a1b2c3d4e5f';
const LOCATION = { latitude: 34.5, longitude: -86.25, hae: 180, sigmaEast: 5, sigmaNorth: 6, sigmaUp: 7, rhoEastNorth: 0.5, rhoEastUp: -0.25, rhoNorthUp: 0 };

/** Every top-level item, and a VTarget with every VTarget item and sub-set. */
const ALL_ITEMS: TaggedItemInput[] = [
  { tag: 2, value: 1664769469971288 },
  { tag: 3, value: 'Système VMTI' },
  { tag: 4, value: 6 },
  { tag: 5, value: 28 },
  { tag: 6, value: 2 },
  { tag: 7, value: 78000 },
  { tag: 8, value: 1920 },
  { tag: 9, value: 1080 },
  { tag: 10, value: 'EO Nose' },
  { tag: 11, value: 12.5 },
  { tag: 12, value: 10 },
  { tag: 13, value: { version: 1, usage: 0x20, sensorId: 'F592-F023-7336-4AF8-AA91-62C0-0F2E-B2DA' } },
  {
    tag: 101,
    value: [
      {
        targetId: 3,
        items: [
          { tag: 1, value: 409600 },
          { tag: 2, value: 408000 },
          { tag: 3, value: 411200 },
          { tag: 4, value: 1 },
          { tag: 5, value: 90 },
          { tag: 6, value: 12 },
          { tag: 7, value: 40 },
          { tag: 8, value: { red: 255, green: 128, blue: 0 } },
          { tag: 9, value: 0x1234 },
          { tag: 10, value: 0.5 },
          { tag: 11, value: -0.25 },
          { tag: 12, value: 1500 },
          { tag: 13, value: 0.75 },
          { tag: 14, value: -0.5 },
          { tag: 15, value: 0.25 },
          { tag: 16, value: -0.125 },
          { tag: 17, value: LOCATION },
          { tag: 18, value: [{ latitude: 34.5, longitude: -86.25, hae: 180 }, LOCATION] },
          { tag: 19, value: 214 },
          { tag: 20, value: 640 },
          { tag: 21, value: { row: 1, column: 2 } },
          { tag: 22, value: 7 },
          { tag: 101, value: [{ tag: 1, value: [10, 20, 30] }, { tag: 2, value: [{ index: 100, length: 5 }, { index: 70000, length: 300 }] }] },
          { tag: 102, value: [{ tag: 1, value: 'https://example.org/vehicles.owl' }, { tag: 2, value: 'Truck' }, { tag: 3, value: 1 }, { tag: 4, value: 87.5 }] },
          { tag: 103, value: [{ tag: 1, value: 'http://schemas.opengis.net/om/1.0.0/' }, { tag: 2, value: '<om:Observation/>' }] },
          {
            tag: 104,
            value: [
              { tag: 1, value: TRACK_UUID },
              { tag: 2, value: { code: 1 } },
              { tag: 3, value: 1664769469000000 },
              { tag: 4, value: 1664769469971288 },
              { tag: 5, value: [LOCATION] },
              { tag: 6, value: 'KCF' },
              { tag: 7, value: 80 },
              { tag: 8, value: 2 },
              { tag: 9, value: [{ latitude: 34.5, longitude: -86.25, hae: 180 }, { latitude: 34.25, longitude: -86.5, hae: 190 }] },
              { tag: 10, value: { east: 12.5, north: -3.25, up: 0 } },
              { tag: 11, value: { east: 0.5, north: 0.25, up: 0, sigmaEast: 1, sigmaNorth: 1, sigmaUp: 2 } },
              { tag: 12, value: 7 },
            ],
          },
          { tag: 105, value: [{ tag: 1, value: 'png' }, { tag: 2, value: 'https://example.org/chip.png' }, { tag: 3, value: { hex: '89504e470d0a1a0a' } }] },
          { tag: 106, value: [[{ tag: 1, value: 'jpeg' }], [{ tag: 2, value: 'https://example.org/chip2.jpg' }]] },
          { tag: 107, value: [[{ tag: 2, value: 'Car' }], [{ tag: 2, value: 'Bus' }, { tag: 4, value: 12.5 }]] },
        ],
      },
    ],
  },
  { tag: 102, value: [[{ tag: 1, value: 7 }, { tag: 2, value: 'tracker' }, { tag: 3, value: '2.1' }, { tag: 4, value: 'detector' }, { tag: 5, value: 10 }]] },
  {
    tag: 103,
    value: [[{ tag: 1, value: 1 }, { tag: 2, value: 0 }, { tag: 3, value: 'https://example.org/vehicles.owl' }, { tag: 4, value: 'Truck' }, { tag: 5, value: '1.0' }, { tag: 6, value: 'truck' }]],
  },
];

describe('ST 0903 VMTI local set', () => {
  describe('encoding and decoding', () => {
    it('round-trips every top-level item and a VTarget carrying every VTarget item, with no problem', () => {
      const encoded = encodeSt0903LocalSet(ALL_ITEMS);
      const decoded = decodeSt0903LocalSet(encoded, 0, encoded.length);
      expect(decoded.problems).to.deep.equal([]);
      expect(decoded.items.map((i) => i.tag)).to.deep.equal([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 101, 102, 103]);
      expect(decoded.items.slice(0, 11).map((i) => i.value)).to.deep.equal([1664769469971288, 'Système VMTI', 6, 28, 2, 78000, 1920, 1080, 'EO Nose', 12.5, 10]);
      expect(valueOf(decoded.items, 13)).to.deep.include({ version: 1, usage: 0x20, sensorIdType: 'Managed', sensorId: 'F592-F023-7336-4AF8-AA91-62C0-0F2E-B2DA' });
      // Decoding what was decoded gives the same bytes: the encoding is stable.
      expect(Array.from(encodeSt0903LocalSet(decoded.items))).to.deep.equal(Array.from(encoded));
    });

    it('reads back the VTarget integers, colour, FPA index and sub-sets exactly', () => {
      const encoded = encodeSt0903LocalSet(ALL_ITEMS);
      const [target] = valueOf(decodeSt0903LocalSet(encoded, 0, encoded.length).items, 101) as St0903VTarget[];
      expect(target.targetId).to.equal(3);
      const t = target.items;
      expect([1, 2, 3, 4, 5, 6, 7, 9, 19, 20, 22].map((tag) => valueOf(t, tag))).to.deep.equal([409600, 408000, 411200, 1, 90, 12, 40, 0x1234, 214, 640, 7]);
      expect(valueOf(t, 8)).to.deep.equal({ red: 255, green: 128, blue: 0 });
      expect(valueOf(t, 21)).to.deep.equal({ row: 1, column: 2 });
      const vmask = valueOf(t, 101) as DecodedItem[];
      expect(vmask.map((i) => [i.name, i.value])).to.deep.equal([
        ['Polygon', [10, 20, 30]],
        ['Bit Mask Series', [{ index: 100, length: 5 }, { index: 70000, length: 300 }]],
      ]);
      const vobject = valueOf(t, 102) as DecodedItem[];
      expect(vobject.map((i) => i.value)).to.deep.equal(['https://example.org/vehicles.owl', 'Truck', 1, 87.5]);
      const vtracker = valueOf(t, 104) as DecodedItem[];
      expect(valueOf(vtracker, 1)).to.equal(TRACK_UUID);
      expect(valueOf(vtracker, 2)).to.deep.equal({ code: 1, name: 'Active' });
      expect([3, 4, 6, 7, 8, 12].map((tag) => valueOf(vtracker, tag))).to.deep.equal([1664769469000000, 1664769469971288, 'KCF', 80, 2, 7]);
      expect(valueOf(vtracker, 10)).to.deep.equal({ east: 12.5, north: -3.25, up: 0 });
      expect(valueOf(t, 105)).to.deep.equal([
        { tag: 1, name: 'Image Type', units: null, rawHex: '706e67', value: 'png', deprecated: false },
        { tag: 2, name: 'Image URI', units: null, rawHex: '68747470733a2f2f6578616d706c652e6f72672f636869702e706e67', value: 'https://example.org/chip.png', deprecated: false },
        { tag: 3, name: 'Embedded Image', units: null, rawHex: '89504e470d0a1a0a', value: { hex: '89504e470d0a1a0a' }, deprecated: false },
      ]);
      expect((valueOf(t, 107) as DecodedItem[][]).map((set) => set.map((i) => i.value))).to.deep.equal([['Car'], ['Bus', 12.5]]);
    });

    it('reads back IMAPB reals to within one step of their mapping', () => {
      const encoded = encodeSt0903LocalSet(ALL_ITEMS);
      const [target] = valueOf(decodeSt0903LocalSet(encoded, 0, encoded.length).items, 101) as St0903VTarget[];
      // IMAPB(-19.2, 19.2, 3) steps by 2^-17 degree; IMAPB(-900, 19000, 2) by 1 m.
      for (const [tag, expected] of [[10, 0.5], [11, -0.25], [13, 0.75], [14, -0.5], [15, 0.25], [16, -0.125]]) {
        expect(valueOf(target.items, tag)).to.be.closeTo(expected, 2 ** -17);
      }
      expect(valueOf(target.items, 12)).to.be.closeTo(1500, 1);
      const location = valueOf(target.items, 17) as Record<string, number>;
      expect(Object.keys(location)).to.deep.equal(Object.keys(LOCATION));
      for (const [key, expected] of Object.entries(LOCATION)) expect(location[key]).to.be.closeTo(expected, 2 ** -14);
      const boundary = valueOf(target.items, 18) as Record<string, number>[];
      expect(boundary.map((vertex) => Object.keys(vertex).length)).to.deep.equal([3, 9]);
    });

    it('writes HFOV 12.5 and VFOV 10 degrees as IMAPB(0, 180, 2) 0x0640 and 0x0500', () => {
      const encoded = encodeSt0903LocalSet([
        { tag: 11, value: 12.5 },
        { tag: 12, value: 10 },
      ]);
      expect(Array.from(encoded)).to.deep.equal([0x0b, 0x02, 0x06, 0x40, 0x0c, 0x02, 0x05, 0x00]);
    });

    it('keeps unknown and undecodable items as raw hex when re-encoding', () => {
      const set = bytes(0x04, 0x01, 0x05, 0x3c, 0x02, 0xab, 0xcd, 0x08, 0x04, 0x01, 0x02, 0x03, 0x04);
      const decoded = decodeSt0903LocalSet(set, 0, set.length);
      expect(decoded.items.map((i) => [i.tag, i.name, i.value, i.rawHex])).to.deep.equal([
        [4, 'VMTI LS Version', 5, '05'],
        [60, 'Unknown tag 60', null, 'abcd'],
        [8, 'Frame Width', null, '01020304'],
      ]);
      expect(Array.from(encodeSt0903LocalSet(decoded.items))).to.deep.equal(Array.from(set));
    });
  });

  describe('as the value of ST 0601 tag 74', () => {
    it('decodes to { items, problems } and encodes back from that value or from a bare item array', () => {
      const set = encodeSt0903LocalSet([
        { tag: 4, value: 6 },
        { tag: 101, value: [{ targetId: 1, items: [{ tag: 1, value: 1000 }] }] },
      ]);
      const value = st0903NestedSet.decode(set, 0, set.length) as { items: DecodedItem[]; problems: unknown[] };
      expect(value.problems).to.deep.equal([]);
      expect(value.items.map((i) => i.tag)).to.deep.equal([4, 101]);
      expect(Array.from(st0903NestedSet.encode(value))).to.deep.equal(Array.from(set));
      expect(Array.from(st0903NestedSet.encode(value.items))).to.deep.equal(Array.from(set));
    });
  });

  describe('problems', () => {
    it('reports an unknown tag, a duplicate tag and a value of the wrong length, each at its tag byte', () => {
      const set = bytes(0x04, 0x01, 0x05, 0x3c, 0x01, 0x00, 0x08, 0x04, 0x01, 0x02, 0x03, 0x04, 0x04, 0x01, 0x06);
      const { items, problems } = decodeSt0903LocalSet(set, 0, set.length);
      expect(problems).to.deep.equal([
        { type: 'unknown-tag', tag: 60, byteOffset: 3, message: 'tag 60 is not defined' },
        { type: 'bad-item-length', tag: 8, byteOffset: 6, message: 'Frame Width: length 4, expected 1..3 bytes' },
        { type: 'duplicate-tag', tag: 4, byteOffset: 12, message: 'tag 4 appears more than once' },
      ]);
      expect(item(items, 8).error).to.equal('length 4, expected 1..3 bytes');
    });

    it('reports a missing VMTI LS version at the start of the set', () => {
      const set = bytes(0xaa, 0x07, 0x01, 0x01);
      expect(decodeSt0903LocalSet(set, 1, set.length).problems).to.deep.equal([
        { type: 'missing-mandatory', tag: 4, byteOffset: 1, message: 'mandatory VMTI LS Version (tag 4) is missing' },
      ]);
    });

    it('names the VTarget and sub-set a nested problem comes from, and gives its absolute offset', () => {
      // VTarget 5: a VObject with an unknown tag 9 and a Target Color of two bytes.
      const set = bytes(0x04, 0x01, 0x06, 0x65, 0x0b, 0x0a, 0x05, 0x66, 0x03, 0x09, 0x01, 0x00, 0x08, 0x02, 0x01, 0x02);
      const { items, problems } = decodeSt0903LocalSet(set, 0, set.length);
      expect(problems).to.deep.equal([
        { type: 'unknown-tag', tag: 9, byteOffset: 9, message: 'VTarget 5 / VObject: tag 9 is not defined' },
        { type: 'bad-item-length', tag: 8, byteOffset: 12, message: 'VTarget 5: Target Color: length 2, expected 3' },
      ]);
      const [target] = valueOf(items, 101) as St0903VTarget[];
      expect(target.items.map((i) => [i.tag, i.error ?? null])).to.deep.equal([
        [102, null],
        [8, 'length 2, expected 3'],
      ]);
    });

    it('keeps the VTarget packs before a series length that runs past the item', () => {
      const set = bytes(0x04, 0x01, 0x06, 0x65, 0x07, 0x04, 0x01, 0x05, 0x01, 0x50, 0x09, 0x01);
      const { items, problems } = decodeSt0903LocalSet(set, 0, set.length);
      expect((valueOf(items, 101) as St0903VTarget[]).map((t) => [t.targetId, valueOf(t.items, 5)])).to.deep.equal([[1, 80]]);
      expect(problems).to.deep.equal([
        { type: 'raw-decode-error', tag: null, byteOffset: 10, message: 'VTarget pack 1: length 9 runs past the series (1 left)' },
      ]);
    });
  });

  describe('sets written before ST 0903.4 (linearly mapped reals)', () => {
    it('reads fields of view, offsets, height and location packs by the version 3 mappings', () => {
      const set = bytes(
        0x04, 0x01, 0x03,
        0x0b, 0x02, 0xff, 0xff,
        0x0c, 0x01, 0x00,
        0x65, 0x1c, 0x1b, 0x01,
        0x0a, 0x03, 0x7f, 0xff, 0xff,
        0x0b, 0x03, 0x80, 0x00, 0x00,
        0x0c, 0x02, 0x00, 0x00,
        0x11, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff,
      );
      const { items, problems } = decodeSt0903LocalSet(set, 0, set.length);
      expect(problems).to.deep.equal([]);
      expect(valueOf(items, 11)).to.equal(180);
      expect(valueOf(items, 12)).to.equal(0);
      const [target] = valueOf(items, 101) as St0903VTarget[];
      expect(target.items.map((i) => i.value)).to.deep.equal([19.2, null, -900, { latitude: 90, longitude: -180, hae: 19000 }]);
    });

    it('uses the version hint for a set without a version item, as a stream that sends tag 4 now and then needs', () => {
      // 0x4000: 16384 / 65535 of 180 degrees in the legacy form, 16384 * 2^-7 as IMAPB(0, 180, 2).
      const set = bytes(0x0b, 0x02, 0x40, 0x00);
      expect(valueOf(decodeSt0903LocalSet(set, 0, set.length, { versionHint: 3 }).items, 11)).to.equal((16384 * 180) / 65535);
      expect(valueOf(decodeSt0903LocalSet(set, 0, set.length).items, 11)).to.equal(128);
    });

    it('prefers the version item of the set over the hint', () => {
      const set = bytes(0x0b, 0x02, 0x40, 0x00, 0x04, 0x01, 0x05);
      expect(valueOf(decodeSt0903LocalSet(set, 0, set.length, { versionHint: 3 }).items, 11)).to.equal(128);
    });
  });

  describe('the VMTI sets nested in ST 0601 tag 74 of osh-addons sample-stream.ts (VRSG simulator, VMTI version 3)', () => {
    let sets: [Uint8Array, number, number][];
    beforeEach(function () {
      sets = vmtiSetsOf(klvPayloads(fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts')));
    });

    it('finds 37 sets, of which every ninth carries its version (3) and the others are reported without one', () => {
      expect(sets).to.have.length(37);
      const decoded = sets.map(([b, s, e]) => decodeSt0903LocalSet(b, s, e, { versionHint: 3 }));
      const versioned = decoded.map((d, i) => (d.items.some((x) => x.tag === 4) ? i : -1)).filter((i) => i >= 0);
      expect(versioned).to.deep.equal([0, 9, 19, 27]);
      expect(versioned.map((i) => valueOf(decoded[i].items, 4))).to.deep.equal([3, 3, 3, 3]);
      expect(valueOf(decoded[0].items, 3)).to.equal('TASS_EAP_1.3.0.32295');
      for (const [i, d] of decoded.entries()) {
        expect(d.problems.map((p) => p.type)).to.deep.equal(versioned.includes(i) ? [] : ['missing-mandatory']);
      }
    });

    it('counts the reported targets in the VTarget series of each set', () => {
      const counts = sets.map(([b, s, e]) => {
        const items = decodeSt0903LocalSet(b, s, e, { versionHint: 3 }).items;
        const targets = items.find((i) => i.tag === 101)?.value as St0903VTarget[] | undefined;
        return [valueOf(items, 5), targets?.length ?? 0];
      });
      expect(counts.map(([total]) => total)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 5, 5, 4, 4, 7, 10, 11, 12, 14, 10, 10, 11, 10, 10, 0, 0, 0, 0]);
      expect(counts.every(([total, reported]) => total === reported)).to.equal(true);
    });

    it('places target 1 of set 19 at pixel row 401, column 98 of the 640-pixel frame and near the sensor on the ground', () => {
      const [b, s, e] = sets[19];
      const items = decodeSt0903LocalSet(b, s, e).items;
      const target = (valueOf(items, 101) as St0903VTarget[])[0];
      expect(target.targetId).to.equal(1);
      expect([1, 19, 20].map((tag) => valueOf(target.items, tag))).to.deep.equal([256098, 401, 98]);
      // ST 0903.6: pixel number = (row - 1) * frame width + column.
      expect((401 - 1) * (valueOf(items, 8) as number) + 98).to.equal(256098);
      const location = valueOf(target.items, 17) as { latitude: number; longitude: number; hae: number };
      expect(location.latitude).to.be.closeTo(34.710122227, 1e-9);
      expect(location.longitude).to.be.closeTo(-86.672079066, 1e-9);
      expect(location.hae).to.be.closeTo(173.722438392, 1e-9);
    });
  });

  describe('the "all tags" VMTI set nested in ST 0601 tag 74 of kwiver h264_klv.ts (synthetic, VMTI version 5)', () => {
    let decoded: ReturnType<typeof decodeSt0903LocalSet>;
    beforeEach(function () {
      const payloads = klvPayloads(fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts'));
      // PID 0x101 here is private_stream_1 without PTS; each payload is one ST 0601 packet.
      const [[b, s, e]] = vmtiSetsOf(payloads.slice(0, 1));
      decoded = decodeSt0903LocalSet(b, s, e);
    });

    it('reads the top-level items, and reports the short time stamp and two empty items it carries', () => {
      expect(decoded.items.slice(0, 12).map((i) => i.value)).to.deep.equal([987654321000000, 'DSTO_ADSS_VMTI', 5, 28, 2, 78000, 1920, 1080, 'EO Nose', 12.5, 10, null]);
      expect(decoded.problems.map((p) => p.message)).to.deep.equal([
        'Precision Time Stamp: length 7, expected 8 bytes (value read as a shorter integer)',
        'MIIS ID: length 0, expected 2..80 bytes',
        'VTarget 1234: Target Location: length 0, expected one of 10, 16, 22',
      ]);
    });

    it('reads target 1234 with every VTarget item and sub-set', () => {
      const targets = valueOf(decoded.items, 101) as St0903VTarget[];
      expect(targets.map((t) => t.targetId)).to.deep.equal([1, 1234]);
      const t = targets[1].items;
      expect([2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 19, 20, 22].map((tag) => valueOf(t, tag))).to.deep.equal([
        409600, 409600, 27, 80, 2765, 50, 13140, 10, 12, 10000, 10, 872, 1137, 3,
      ]);
      expect(valueOf(t, 8)).to.deep.equal({ red: 218, green: 165, blue: 32 });
      expect(valueOf(t, 21)).to.deep.equal({ row: 2, column: 3 });
      const vmask = valueOf(t, 101) as DecodedItem[];
      expect(vmask.map((i) => i.value)).to.deep.equal([[14762, 14783, 15115], [{ index: 74, length: 2 }, { index: 89, length: 4 }, { index: 106, length: 2 }]]);
      expect((valueOf(t, 102) as DecodedItem[]).map((i) => i.value)).to.deep.equal(['URI', 'class', 7, 32]);
      const tracker = valueOf(t, 104) as DecodedItem[];
      expect(tracker.map((i) => i.tag)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(valueOf(tracker, 1)).to.equal('f81d4fae-7dec-11d0-a765-00a0c91e6bf6');
      expect(valueOf(tracker, 2)).to.deep.equal({ code: 2, name: 'Dropped' });
      expect(valueOf(tracker, 9)).to.deep.equal([
        { latitude: 72, longitude: 73, hae: 900 },
        { latitude: 73, longitude: 72, hae: 1000 },
        { latitude: 73, longitude: 73, hae: 1100 },
      ]);
      expect(valueOf(tracker, 10)).to.deep.equal({ east: -608.75, north: -336.75, up: 208.3125 });
      expect((valueOf(t, 105) as DecodedItem[]).map((i) => i.value)).to.deep.equal([
        'png',
        'URI0',
        { hex: '89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b550000000a4944415408d763f80f00010101001bb6ee560000000049454e44ae426082' },
      ]);
      expect((valueOf(t, 106) as DecodedItem[][]).map((chip) => chip.map((i) => i.value))).to.deep.equal([
        ['png', 'URI1'],
        ['png', 'URI2'],
      ]);
    });

    it('reads the algorithm and ontology series', () => {
      expect((valueOf(decoded.items, 102) as DecodedItem[][]).map((set) => set.map((i) => i.value))).to.deep.equal([[9, 'k6_yolo_9000_tracker', '2.6a', 'kalmann', 10]]);
      expect((valueOf(decoded.items, 103) as DecodedItem[][]).map((set) => set.map((i) => i.value))).to.deep.equal([[17, 12, 'URI', 'class']]);
    });
  });
});
