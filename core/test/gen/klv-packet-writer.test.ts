/**
 * The pieces of the KLV stream on their own: the fast ST 0601 packet writer,
 * the metadata AU cell, the PMT declaration and the option checks.
 */
import { expect } from 'chai';
import { GeneratorError, createGenerator, type GeneratorOptions } from '../../src/gen/index.js';
import { FlightPath } from '../../src/gen/klv-flight-path.js';
import { St0601PacketWriter } from '../../src/gen/klv-packet-writer.js';
import { KlvSource } from '../../src/gen/klv-source.js';
import { SeededRandom } from '../../src/gen/seeded-random.js';
import { writeAuCell } from '../../src/gen/st1402-au-cell-writer.js';
import { klvStreamDeclaration } from '../../src/gen/st1402-stream-declaration.js';
import { readAuCellHeader } from '../../src/klv/st1402-au-cell.js';
import { decodeSt0601, encodeSt0601 } from '../../src/klv/st0601-packet.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('KLV stream pieces', () => {
  describe('the ST 0601 packet writer', () => {
    const flight = new FlightPath(new SeededRandom(9));
    const writer = new St0601PacketWriter({ missionId: 'M1', version: 17 }, flight.at(0));

    it('writes byte for byte what encodeSt0601 writes for the same items, checksum included', () => {
      for (const seconds of [0, 1.5, 300, 1234.567]) {
        const f = flight.at(seconds);
        const stamp = 1_767_225_600_000_000 + Math.round(seconds * 1e6);
        expect(hex(writer.write(stamp, f))).to.equal(hex(encodeSt0601(writer.items(stamp, f))));
      }
    });

    it('writes packets that decode with a valid checksum and no problem', () => {
      const packet = writer.write(1_767_225_600_000_000, flight.at(42));
      const decoded = decodeSt0601(packet, 0, packet.length);
      expect([decoded.problems, decoded.checksum.valid, decoded.version, decoded.precisionTimeStamp]).to.deep.equal([[], true, 17, 1_767_225_600_000_000]);
      expect(writer.packetBytes).to.equal(packet.length);
    });
  });

  describe('the metadata AU cell (ISO 13818-1 2.12.4)', () => {
    it('has service id, sequence number, fragment indication 11, random access, reserved 1111 and the data length', () => {
      const cell = writeAuCell({ serviceId: 0, sequenceNumber: 257, randomAccess: true }, Uint8Array.of(0xaa, 0xbb, 0xcc));
      expect(hex(cell)).to.equal('0001df0003aabbcc');
      expect(readAuCellHeader(cell, 0)).to.deep.equal({
        metadataServiceId: 0,
        sequenceNumber: 1,
        cellFragmentIndication: 3,
        decoderConfigFlag: false,
        randomAccessIndicator: true,
        auCellDataLength: 3,
      });
    });
  });

  describe('the PMT declaration (MISB ST 1402)', () => {
    it('is stream_type 0x15 with registration, metadata and metadata_STD descriptors and a metadata pointer when synchronous', () => {
      const d = klvStreamDeclaration('sync', 1, 40_000);
      expect([d.streamType, hex(d.descriptors), hex(d.programDescriptors)]).to.deep.equal([
        0x15,
        '05044b4c5641' + '26090100ff4b4c5641000f' + '2709c00190c00001c00190',
        '250b0100ff4b4c5641001f0001',
      ]);
    });

    it('is stream_type 0x06 with a KLVA registration when asynchronous', () => {
      const d = klvStreamDeclaration('async', 1, 40_000);
      expect([d.streamType, hex(d.descriptors), d.programDescriptors.length]).to.deep.equal([0x06, '05044b4c5641', 0]);
    });

    it('asks the multiplexer for room for every packet', () => {
      const source = new KlvSource({ rateHz: 10 });
      expect(source.nominalBitrate).to.equal((source.st0601PacketBytes + 5 + 14) * 8 * 10);
    });
  });

  describe('the klv option', () => {
    const optionError = (options: Partial<GeneratorOptions>): string => {
      try {
        createGenerator({ durationSeconds: 1, bitrate: 1_000_000, ...options });
      } catch (error) {
        if (error instanceof GeneratorError && error.code === 'ERR_GENERATOR_OPTIONS') return error.message;
        throw error;
      }
      return 'no error';
    };

    it('refuses a KLV PID taken by another stream', () => {
      expect(optionError({ audio: true, klv: { pid: 0x101 } })).to.equal('klv.pid and audioPid are both 0x101');
    });

    it('refuses synchronous carriage without PTS or on another stream_id, and a rate out of (0, 1000]', () => {
      expect(optionError({ klv: { carriage: 'sync', pts: false } })).to.match(/^klv\.pts cannot be false for synchronous carriage/);
      expect(optionError({ klv: { carriage: 'sync', streamId: 0xbd } })).to.equal('klv.streamId must be 0xFC for synchronous carriage, got 0xbd');
      expect(optionError({ klv: { carriage: 'async', streamId: 0xc0 } })).to.equal('klv.streamId must be 0xBD or 0xFC for asynchronous carriage, got 0xc0');
      expect(optionError({ klv: { rateHz: 0 } })).to.equal('klv.rateHz must be in (0, 1000], got 0');
    });

    it('lists the KLV stream in the layout', () => {
      expect(createGenerator({ durationSeconds: 1, bitrate: 1_000_000, audio: true, klv: {} }).layout.elementaryPids).to.deep.equal([0x100, 0x101, 0x102]);
    });
  });
});
