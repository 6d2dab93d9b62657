import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { st0601Checksum } from '../../src/klv/checksum.js';
import { hexToBytes } from '../../src/klv/hex.js';
import { scanKlvStream } from '../../src/klv/klv-triplet.js';
import { decodeSt0601ItemInto } from '../../src/klv/st0601-item.js';
import { decodeSt0601, encodeSt0601, frameSt0601Items, type St0601Packet } from '../../src/klv/st0601-packet.js';
import { KEY, malformedSt0601Packets, packetFromItems, TIME_AND_VERSION } from './st0601-hand-made-packets.js';

function readFixture(context: Mocha.Context, name: string): Uint8Array {
  return new Uint8Array(readFileSync(fixtureOrSkip(context, 'klv', name)));
}

function valueOf(packet: St0601Packet, tag: number): unknown {
  return packet.items.find((item) => item.tag === tag)?.value;
}

describe('ST 0601 packet decoding', () => {
  describe('klvdata_DynamicOnlyMISMMSPacketData.bin (the MISB ST 0902.5 example)', () => {
    it('verifies the checksum 0xC850 and reports no problem', function () {
      const bytes = readFixture(this, 'klvdata_DynamicOnlyMISMMSPacketData.bin');
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.checksum).to.deep.equal({ present: true, stored: 0xc850, computed: 0xc850, valid: true });
      expect(packet.problems).to.deep.equal([]);
      expect(packet.version).to.equal(6);
    });

    it('decodes the values klvdata test_misb_0601.py expects for the ST 0902.5 items', function () {
      const bytes = readFixture(this, 'klvdata_DynamicOnlyMISMMSPacketData.bin');
      const packet = decodeSt0601(bytes, 0, bytes.length);
      // 2009-01-12 22:08:22+00:00
      expect(packet.precisionTimeStamp).to.equal(Date.UTC(2009, 0, 12, 22, 8, 22) * 1000);
      expect(valueOf(packet, 5)).to.equal(159.97436484321355);
      expect(valueOf(packet, 6)).to.be.closeTo(-0.4315317239905987, 1e-12);
      expect(valueOf(packet, 7)).to.be.closeTo(3.4058656575212893, 1e-12);
      expect(valueOf(packet, 13)).to.equal(60.176822966978335);
      expect(valueOf(packet, 14)).to.equal(128.42675904204452);
      expect(valueOf(packet, 15)).to.be.closeTo(14190.72, 0.3);
      expect(valueOf(packet, 16)).to.be.closeTo(144.5713, 0.003);
      expect(valueOf(packet, 17)).to.be.closeTo(152.6436, 0.003);
      expect(valueOf(packet, 18)).to.be.closeTo(160.719211474396, 1e-7);
      expect(valueOf(packet, 19)).to.be.closeTo(-168.792324833941, 1e-7);
      expect(valueOf(packet, 20)).to.equal(0);
      // The ST 0902.5 example rounds this one coarsely: its bytes decode to 68590.9833.
      expect(valueOf(packet, 21)).to.be.closeTo(68590.98, 0.01);
      expect(valueOf(packet, 22)).to.be.closeTo(722.8199, 0.08);
      expect(valueOf(packet, 23)).to.be.closeTo(-10.5423886331461, 1e-8);
      expect(valueOf(packet, 24)).to.be.closeTo(29.157890122923, 1e-8);
      expect(valueOf(packet, 25)).to.be.closeTo(3216.037, 0.3);
      expect(packet.items.map((item) => item.tag)).to.deep.equal([2, 5, 6, 7, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 65, 1]);
    });

    it('keeps every item raw hex, names and units', function () {
      const bytes = readFixture(this, 'klvdata_DynamicOnlyMISMMSPacketData.bin');
      const heading = decodeSt0601(bytes, 0, bytes.length).items[1];
      expect(heading).to.deep.equal({ tag: 5, name: 'Platform Heading Angle', units: '°', rawHex: '71c2', value: 159.97436484321355, deprecated: false });
    });
  });

  describe('klvdata_DynamicConstantMISMMSPacketData.bin', () => {
    it('is a checksum failure: stored 0xAA43, computed 0x3E1E', function () {
      const bytes = readFixture(this, 'klvdata_DynamicConstantMISMMSPacketData.bin');
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.checksum).to.deep.equal({ present: true, stored: 0xaa43, computed: 0x3e1e, valid: false });
      expect(packet.problems).to.deep.equal([
        { type: 'checksum-error', tag: 1, byteOffset: 226, message: 'checksum stored 0xAA43, computed 0x3E1E' },
      ]);
    });

    it('still decodes the strings and the nested security set', function () {
      const bytes = readFixture(this, 'klvdata_DynamicConstantMISMMSPacketData.bin');
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(valueOf(packet, 3)).to.equal('Mission 12');
      expect(valueOf(packet, 10)).to.equal('Predator');
      expect(valueOf(packet, 11)).to.equal('EO Nose');
      expect(valueOf(packet, 12)).to.equal('Geodetic WGS84');
      const security = valueOf(packet, 48) as { items: { tag: number; value: unknown }[] };
      expect(security.items.find((i) => i.tag === 3)?.value).to.equal('//USA');
      const miis = valueOf(packet, 94) as { text: string };
      expect(miis.text).to.equal('0170:F592-F023-7336-4AF8-AA91-62C0-0F2E-B2DA/16B7-4341-0008-41A0-BE36-5B5A-B96A-3645');
    });
  });

  for (const [name, count, version] of [
    ['klvdata_Cheyenne.klv.bin', 407, 1],
    ['klvdata_realflight.klv.bin', 19, 11],
  ] as const) {
    it(`decodes all ${count} packets of ${name} with valid checksums, known tags and no problem`, function () {
      const bytes = readFixture(this, name);
      const scan = scanKlvStream(bytes);
      expect(scan.triplets).to.have.length(count);
      const problems: unknown[] = [];
      let valid = 0;
      for (const t of scan.triplets) {
        const packet = decodeSt0601(bytes, t.keyOffset, t.end);
        if (packet.checksum.valid) valid++;
        expect(packet.version).to.equal(version);
        expect(packet.items.filter((item) => item.error !== undefined)).to.deep.equal([]);
        problems.push(...packet.problems);
      }
      expect(valid).to.equal(count);
      expect(problems).to.deep.equal([]);
    });
  }

  it('reads the first Cheyenne packet: time stamp, mission and sensor position', function () {
    const bytes = readFixture(this, 'klvdata_Cheyenne.klv.bin');
    const t = scanKlvStream(bytes).triplets[0];
    const packet = decodeSt0601(bytes, t.keyOffset, t.end);
    expect(new Date(packet.precisionTimeStamp! / 1000).toISOString()).to.equal('2012-09-19T20:40:44.105Z');
    expect(valueOf(packet, 3)).to.equal('ESRI_Metadata_Collect');
    expect(valueOf(packet, 10)).to.equal('C208B');
    expect(valueOf(packet, 59)).to.equal('Firebird');
    expect(valueOf(packet, 13)).to.be.closeTo(41.14385, 1e-5);
    expect(valueOf(packet, 14)).to.be.closeTo(-104.8056, 1e-4);
  });

  it('decodes the first realflight packet, error indicators and IMAPB items included', function () {
    const bytes = readFixture(this, 'klvdata_realflight.klv.bin');
    const t = scanKlvStream(bytes).triplets[0];
    const packet = decodeSt0601(bytes, t.keyOffset, t.end);
    expect(valueOf(packet, 3)).to.equal('mission12/09/2019 14:07:01');
    expect(valueOf(packet, 11)).to.equal('Sony FCB-EV7500');
    expect(valueOf(packet, 13)).to.be.closeTo(39.34839, 1e-5);
    expect(valueOf(packet, 14)).to.be.closeTo(-9.32071, 1e-5);
    expect(valueOf(packet, 23)).to.deep.equal({ special: 'out-of-range' });
    expect(valueOf(packet, 96)).to.equal(1_500_000);
  });

  describe('problems', () => {
    it('reports a key that is not the ST 0601 key and still decodes the items', () => {
      const bytes = packetFromItems(TIME_AND_VERSION);
      bytes[12] = 0x02;
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.problems.map((p) => [p.type, p.byteOffset])).to.deep.equal([
        ['unknown-key', 0],
        ['checksum-error', bytes.length - 2],
      ]);
      expect(packet.version).to.equal(13);
    });

    it('reports a missing checksum, time stamp and version as missing mandatory items', () => {
      const body = hexToBytes('0f02c221')!;
      const bytes = new Uint8Array([...hexToBytes(KEY)!, body.length, ...body]);
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.problems.map((p) => [p.type, p.tag])).to.deep.equal([
        ['missing-mandatory', 1],
        ['missing-mandatory', 2],
        ['missing-mandatory', 65],
      ]);
      expect(packet.checksum).to.deep.equal({ present: false, stored: null, computed: st0601Checksum(bytes, 0, bytes.length), valid: false });
    });

    it('reports a duplicate tag at its second occurrence, but not a repeated control command', () => {
      const bytes = packetFromItems(TIME_AND_VERSION + '0502 71c2 0502 71c3 7303 0101 41 7303 0201 42'.replace(/ /g, ''));
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.problems).to.deep.equal([
        { type: 'duplicate-tag', tag: 5, byteOffset: 34, message: 'Platform Heading Angle (tag 5) appears more than once; ST 0601 allows it once per packet' },
      ]);
      expect(packet.items.filter((i) => i.tag === 115).map((i) => i.value)).to.deep.equal([
        { id: 1, command: 'A' },
        { id: 2, command: 'B' },
      ]);
    });

    it('reports an unknown tag at the tag byte and keeps its raw hex', () => {
      const bytes = packetFromItems(TIME_AND_VERSION + '8170 02 abcd'.replace(/ /g, ''));
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.problems).to.deep.equal([{ type: 'unknown-tag', tag: 240, byteOffset: 30, message: 'tag 240 is not defined by MISB ST 0601' }]);
      expect(packet.items[2]).to.deep.equal({ tag: 240, name: 'Unknown item 240', units: null, rawHex: 'abcd', value: null, deprecated: false, error: 'tag 240 is not defined by MISB ST 0601' });
    });

    it('reports an item of a length its definition does not allow', () => {
      const bytes = packetFromItems(TIME_AND_VERSION + '0503 71c200');
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.problems).to.deep.equal([
        { type: 'bad-item-length', tag: 5, byteOffset: 32, message: 'Platform Heading Angle: length 3 is not allowed: Platform Heading Angle is 2 bytes' },
      ]);
      expect(packet.items[2].value).to.equal(null);
      expect(packet.items[2].rawHex).to.equal('71c200');
    });

    it('reports a pack that cannot be read where it fails', () => {
      const bytes = packetFromItems(TIME_AND_VERSION + '7f02 8181');
      const packet = decodeSt0601(bytes, 0, bytes.length);
      expect(packet.problems).to.have.length(1);
      expect(packet.problems[0]).to.deep.include({ type: 'raw-decode-error', tag: 127, byteOffset: 32 });
    });

    it('flags a deprecated item and decodes it as raw bytes', () => {
      const bytes = packetFromItems(TIME_AND_VERSION + '4202 0102');
      const item = decodeSt0601(bytes, 0, bytes.length).items[2];
      expect(item).to.deep.equal({ tag: 66, name: 'Target Location Covariance Matrix', units: null, rawHex: '0102', value: { hex: '0102' }, deprecated: true });
    });

    it('decodes what is there when the packet length runs past the data', () => {
      const bytes = packetFromItems(TIME_AND_VERSION);
      const cut = bytes.subarray(0, bytes.length - 4);
      const packet = decodeSt0601(cut, 0, cut.length);
      expect(packet.problems[0]).to.deep.include({ type: 'raw-decode-error', tag: null, byteOffset: 16 });
      expect(packet.precisionTimeStamp).to.equal(1231798102000000);
      expect(packet.problems.map((p) => p.type)).to.include('missing-mandatory');
    });

    it('reports a packet too short for key and length', () => {
      const packet = decodeSt0601(hexToBytes('060e2b34')!, 0, 4);
      expect(packet.problems).to.deep.equal([{ type: 'raw-decode-error', tag: null, byteOffset: 0, message: 'packet truncated: 4 bytes, no room for key and length' }]);
      expect(packet.items).to.deep.equal([]);
    });

    it('reports a checksum item that is not last', () => {
      const bytes = packetFromItems(TIME_AND_VERSION);
      // Swap in a trailing item after the checksum by rebuilding the body by hand.
      const body = hexToBytes(`${TIME_AND_VERSION}01020000 0f02c221`.replace(/ /g, ''))!;
      const moved = new Uint8Array([...bytes.subarray(0, 16), body.length, ...body]);
      const sum = st0601Checksum(moved, 0, 16 + 1 + TIME_AND_VERSION.length / 2 + 2);
      moved[17 + TIME_AND_VERSION.length / 2 + 2] = sum >> 8;
      moved[17 + TIME_AND_VERSION.length / 2 + 3] = sum & 0xff;
      const packet = decodeSt0601(moved, 0, moved.length);
      expect(packet.checksum.valid).to.equal(true);
      expect(packet.problems.map((p) => [p.type, p.tag])).to.deep.equal([['raw-decode-error', 1]]);
    });
  });
});

describe('ST 0601 items framed without decoding', () => {
  it('frames the items decodeSt0601 decodes, in its order, each giving its item when decoded alone', function () {
    const realflight = readFixture(this, 'klvdata_realflight.klv.bin');
    const packets = [...scanKlvStream(realflight).triplets.map((t) => realflight.subarray(t.keyOffset, t.end)), ...malformedSt0601Packets()];
    for (const bytes of packets) {
      const framed = frameSt0601Items(bytes, 0, bytes.length);
      const decoded = framed.map((span) => decodeSt0601ItemInto(span.tag, bytes, span.valueOffset, span.valueOffset + span.length, span.tagOffset, null));
      expect(decoded).to.deep.equal(decodeSt0601(bytes, 0, bytes.length).items);
    }
    expect(malformedSt0601Packets().map((bytes) => frameSt0601Items(bytes, 0, bytes.length).length)).to.deep.equal([4, 4, 4, 4, 2, 0, 0]);
  });
});

describe('ST 0601 packet encoding', () => {
  it('writes key, BER length, items and the checksum item last with the right value', () => {
    const bytes = encodeSt0601([
      { tag: 2, value: 1231798102000000 },
      { tag: 5, value: 159.974 },
      { tag: 65, value: 19 },
    ]);
    expect(Array.from(bytes.subarray(0, 16))).to.deep.equal(Array.from(hexToBytes(KEY)!));
    const packet = decodeSt0601(bytes, 0, bytes.length);
    expect(packet.problems).to.deep.equal([]);
    expect(packet.checksum.valid).to.equal(true);
    expect(packet.items.map((i) => i.tag)).to.deep.equal([2, 5, 65, 1]);
    expect(bytes[bytes.length - 4]).to.equal(0x01);
    expect(bytes[bytes.length - 3]).to.equal(0x02);
  });

  it('reproduces the ST 0902.5 dynamic-only example byte for byte from its decoded values', function () {
    const bytes = readFixture(this, 'klvdata_DynamicOnlyMISMMSPacketData.bin');
    const decoded = decodeSt0601(bytes, 0, bytes.length);
    expect(Array.from(encodeSt0601(decoded.items))).to.deep.equal(Array.from(bytes));
  });

  it('reproduces every realflight packet byte for byte from its decoded values', function () {
    const bytes = readFixture(this, 'klvdata_realflight.klv.bin');
    for (const t of scanKlvStream(bytes).triplets) {
      const decoded = decodeSt0601(bytes, t.keyOffset, t.end);
      expect(Buffer.from(encodeSt0601(decoded.items)).toString('hex')).to.equal(Buffer.from(bytes.subarray(t.keyOffset, t.end)).toString('hex'));
    }
  });

  it('uses a long-form BER length for packets over 127 bytes', () => {
    const bytes = encodeSt0601([{ tag: 3, value: 'x'.repeat(127) }]);
    expect(bytes[16]).to.equal(0x81);
    expect(decodeSt0601(bytes, 0, bytes.length).checksum.valid).to.equal(true);
  });
});
