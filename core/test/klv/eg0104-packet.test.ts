import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { type Eg0104Item, decodeEg0104Packet } from '../../src/klv/eg0104-packet.js';
import { EG0104_ITEMS, lookupEg0104Item } from '../../src/klv/eg0104-items.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';

const EG0104_KEY = [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x01, 0x01, 0x01, 0x0e, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00, 0x00];
const TIME_STAMP_KEY = [0x06, 0x0e, 0x2b, 0x34, 0x01, 0x01, 0x01, 0x03, 0x07, 0x02, 0x01, 0x01, 0x01, 0x05, 0x00, 0x00];
const SECURITY_LS_KEY = [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x03, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x03, 0x02, 0x00, 0x00, 0x00];

/** The PES payloads of PID 0x101, reassembled by the core demuxer. */
function klvPayloads(path: string): { payload: Uint8Array; complete: boolean }[] {
  const payloads: { payload: Uint8Array; complete: boolean }[] = [];
  const demuxer = new TsDemuxer(() => undefined, {
    payloadConsumer: {
      wants: (stream) => stream.pid === 0x101,
      payload: (_pes, _stream, payload, complete) => payloads.push({ payload, complete }),
    },
  });
  demuxer.push(new Uint8Array(readFileSync(path)));
  demuxer.end();
  return payloads;
}

/** An EG 0104 packet of the given items (key bytes, value bytes), short-form lengths only. */
function packet(items: [number[], number[]][]): Uint8Array {
  const body = items.flatMap(([key, value]) => [...key, value.length, ...value]);
  return Uint8Array.from([...EG0104_KEY, body.length, ...body]);
}

function valueOf(items: readonly Eg0104Item[], name: string): unknown {
  return items.find((item) => item.name === name)?.value;
}

describe('EG 0104 Predator UAV Basic Universal Set', () => {
  describe('the KLV of kwiver aphill_klv_10s.ts (Fort A.P. Hill flight)', () => {
    let payloads: { payload: Uint8Array; complete: boolean }[];
    beforeEach(function () {
      payloads = klvPayloads(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
    });

    it('carries 300 complete PES payloads, each exactly one EG 0104 packet that decodes without a problem', () => {
      expect(payloads).to.have.length(300);
      for (const { payload, complete } of payloads) {
        expect(complete).to.equal(true);
        const decoded = decodeEg0104Packet(payload, 0, payload.length);
        expect(decoded.problems).to.deep.equal([]);
        expect(decoded.packetEnd).to.equal(payload.length);
      }
    });

    it('uses 23 distinct item keys, every one of them a known EG 0104 item', () => {
      const keys = new Set<string>();
      for (const { payload } of payloads) for (const item of decodeEg0104Packet(payload, 0, payload.length).items) keys.add(item.keyHex);
      expect(keys.size).to.equal(23);
      for (const key of keys) expect(lookupEg0104Item(key), key).to.not.equal(undefined);
    });

    it('runs its UNIX time stamps from 2008-09-17T15:23:32.027Z to 15:23:42.017Z, never backwards', () => {
      const stamps = payloads.map(({ payload }) => decodeEg0104Packet(payload, 0, payload.length).timeStampMicros as number);
      expect(new Date(stamps[0] / 1000).toISOString()).to.equal('2008-09-17T15:23:32.027Z');
      expect(new Date(stamps[299] / 1000).toISOString()).to.equal('2008-09-17T15:23:42.017Z');
      expect(stamps[0]).to.equal(1221665012027000);
      for (let i = 1; i < stamps.length; i++) expect(stamps[i]).to.be.at.least(stamps[i - 1]);
    });

    it('reads the first packet: names, ST 0601 tags, units and IEEE 754 values', () => {
      const { payload } = payloads[0];
      const { items } = decodeEg0104Packet(payload, 0, payload.length);
      expect(items.map((item) => [item.name, item.tag, item.value])).to.deep.equal([
        ['Device Designation', 10, 'ABCD'],
        ['User Defined Time Stamp', 2, 1221665012027000],
        ['Device Latitude', 13, 38.15993],
        ['Device Longitude', 14, -77.356214],
        ['Device Altitude', 15, 1984.5999755859375],
        ['Platform Roll Angle', 7, -4.768065929412842],
        ['Platform Pitch Angle', 6, 0.8074949979782104],
        ['Platform Heading Angle', 5, 97.9595947265625],
        ['Field of View (Horizontal)', 16, 0.800000011920929],
        ['Vertical Field of View', 17, 0.6000000238418579],
        ['Slant Range', 21, 3430.37451171875],
        ['Angle to North', 0, -1.9648370742797852],
        ['Obliquity Angle', 0, -35.34773635864258],
        ['Frame Center Latitude', 23, 38.18508921514427],
        ['Frame Center Longitude', 24, -77.35811980459758],
        ['Corner Latitude Point 1', 82, 38.185357699377136],
        ['Corner Longitude Point 1', 83, -77.35841588117508],
        ['Corner Latitude Point 2', 84, 38.185383221860626],
        ['Corner Longitude Point 2', 85, -77.35786612338948],
        ['Corner Latitude Point 3', 86, 38.184824667964556],
        ['Corner Longitude Point 3', 87, -77.35782807272224],
        ['Corner Latitude Point 4', 88, 38.184799513631944],
        ['Corner Longitude Point 4', 89, -77.35836976871424],
      ]);
      expect(items[1]).to.deep.equal({
        tag: 2,
        keyHex: '060e2b34010101030702010101050000',
        name: 'User Defined Time Stamp',
        units: 'microseconds since 1970-01-01T00:00Z',
        rawHex: '000457190d138e78',
        value: 1221665012027000,
        deprecated: false,
      });
      expect(items.find((item) => item.name === 'Slant Range')?.units).to.equal('metres');
    });

    it('keeps the frame centre inside the four corners on every packet', () => {
      for (const { payload } of payloads) {
        const { items } = decodeEg0104Packet(payload, 0, payload.length);
        const lats = [1, 2, 3, 4].map((n) => valueOf(items, `Corner Latitude Point ${n}`) as number);
        const lons = [1, 2, 3, 4].map((n) => valueOf(items, `Corner Longitude Point ${n}`) as number);
        const lat = valueOf(items, 'Frame Center Latitude') as number;
        const lon = valueOf(items, 'Frame Center Longitude') as number;
        expect(lat).to.be.within(Math.min(...lats), Math.max(...lats));
        expect(lon).to.be.within(Math.min(...lons), Math.max(...lons));
      }
    });
  });

  describe('packets built by hand', () => {
    it('knows 32 EG 0104 items, each by a distinct key', () => {
      expect(EG0104_ITEMS).to.have.length(32);
      expect(new Set(EG0104_ITEMS.map((spec) => spec.keyHex.slice(0, 14) + spec.keyHex.slice(16))).size).to.equal(32);
    });

    it('decodes a nested ST 0102 security local set and reports its problems', () => {
      const bytes = packet([
        [TIME_STAMP_KEY, [0, 4, 0x57, 0x19, 0x0d, 0x13, 0x8e, 0x78]],
        [SECURITY_LS_KEY, [0x01, 0x01, 0x01, 0x16, 0x02, 0x00, 0x05]],
      ]);
      const decoded = decodeEg0104Packet(bytes, 0, bytes.length);
      const security = decoded.items[1];
      expect([security.name, security.tag]).to.deep.equal(['Security Local Metadata Set', 48]);
      expect((security.value as { tag: number; value: unknown }[]).map((i) => [i.tag, i.value])).to.deep.equal([
        [1, { code: 1, name: 'UNCLASSIFIED' }],
        [22, 5],
      ]);
      expect(decoded.problems.map((p) => [p.type, p.tag])).to.deep.equal([
        ['missing-mandatory', 2],
        ['missing-mandatory', 3],
      ]);
    });

    it('reports an unknown item key, a duplicate, a float of the wrong length and the missing time stamp', () => {
      const unknownKey = [0x06, 0x0e, 0x2b, 0x34, 0x01, 0x01, 0x01, 0x01, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00];
      const slantRange = [0x06, 0x0e, 0x2b, 0x34, 0x01, 0x01, 0x01, 0x01, 0x07, 0x01, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00];
      const bytes = packet([
        [unknownKey, [1]],
        [slantRange, [0x45, 0x56, 0x65]],
        [slantRange, [0x45, 0x56, 0x65, 0xfe]],
      ]);
      const decoded = decodeEg0104Packet(bytes, 0, bytes.length);
      expect(decoded.problems).to.deep.equal([
        { type: 'unknown-key', tag: null, byteOffset: 17, message: 'item key 060e2b34010101010f00000000000000 is not an EG 0104 item' },
        { type: 'bad-item-length', tag: 21, byteOffset: 35, message: 'Slant Range: length 3, expected 4 or 8 (IEEE 754 float)' },
        { type: 'duplicate-tag', tag: null, byteOffset: 55, message: 'item 060e2b34010101010701080101000000 appears more than once' },
        { type: 'missing-mandatory', tag: 2, byteOffset: 17, message: 'EG 0104 packet has no User Defined Time Stamp' },
      ]);
      expect(decoded.items.map((item) => [item.name, item.value, item.error ?? null])).to.deep.equal([
        ['Unknown item 060e2b34010101010f00000000000000', null, null],
        ['Slant Range', null, 'length 3, expected 4 or 8 (IEEE 754 float)'],
        ['Slant Range', 3430.37451171875, null],
      ]);
      expect(decoded.timeStampMicros).to.equal(null);
    });

    it('reports a packet key other than the EG 0104 key', () => {
      const bytes = packet([[TIME_STAMP_KEY, [0, 0, 0, 0, 0, 0, 0, 1]]]);
      bytes[8] = 0x0f;
      const decoded = decodeEg0104Packet(bytes, 0, bytes.length);
      expect(decoded.problems).to.deep.equal([
        { type: 'unknown-key', tag: null, byteOffset: 0, message: 'key is not the EG 0104 Predator UAV Basic Universal Set key' },
      ]);
      expect(decoded.timeStampMicros).to.equal(1);
    });
  });
});
