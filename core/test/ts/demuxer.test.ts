import { expect } from 'chai';
import type { ElementaryStream, PesObservation } from '../../src/kernel/observations.js';
import type { PesPayloadConsumer } from '../../src/ts/pes-payload-consumer.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';
import { demux, errors, ofKind } from './demux-helper.js';
import { concatPackets, packet, patSection, pes, pesPackets, pmtSection, psiPacket } from './packet-builder.js';

const PMT_PID = 0x1000;
const VIDEO = 0x100;
const KLV = 0x101;
const KLVA = [0x05, 0x04, 0x4b, 0x4c, 0x56, 0x41];

function tables(cc = 0): Uint8Array[] {
  return [
    psiPacket(0, patSection([[1, PMT_PID]]), cc),
    psiPacket(PMT_PID, pmtSection(1, VIDEO, [{ type: 0x1b, pid: VIDEO }, { type: 0x06, pid: KLV, descriptors: KLVA }]), cc),
  ];
}

/** Video packets with consecutive counters, the first carrying a PCR. */
function video(count: number, firstCc: number, pcr27MHz?: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) =>
    packet({ pid: VIDEO, cc: (firstCc + i) & 15, ...(i === 0 && pcr27MHz !== undefined ? { pcr27MHz } : {}) }),
  );
}

describe('MPEG-TS demuxer', () => {
  describe('tables', () => {
    it('emits the PAT and the PMT with stream types and descriptors', () => {
      const obs = demux(concatPackets(tables()));
      const [pat] = ofKind(obs, 'pat');
      expect(pat).to.include({ transportStreamId: 1, version: 0, packetIndex: 0, offset: 0 });
      expect(pat.programs).to.deep.equal([{ programNumber: 1, pid: PMT_PID }]);
      const [pmt] = ofKind(obs, 'pmt');
      expect(pmt).to.include({ pid: PMT_PID, programNumber: 1, pcrPid: VIDEO, packetIndex: 1 });
      expect(pmt.streams.map((s) => [s.pid, s.streamType, s.streamTypeName])).to.deep.equal([
        [VIDEO, 0x1b, 'H.264/AVC video'],
        [KLV, 0x06, 'PES private data'],
      ]);
      expect(pmt.streams[1].descriptors[0].fields).to.deep.equal({ formatIdentifier: 'KLVA' });
      expect(errors(obs)).to.deep.equal([]);
    });

    it('emits a psi-section for every section but PAT and PMT only when they change', () => {
      const stream = [...tables(0), ...tables(1), psiPacket(0, patSection([[1, PMT_PID]], { version: 1 }), 2)];
      const obs = demux(concatPackets(stream));
      expect(ofKind(obs, 'psi-section').map((s) => [s.tableType, s.packetIndex])).to.deep.equal([
        ['PAT', 0], ['PMT', 1], ['PAT', 2], ['PMT', 3], ['PAT', 4],
      ]);
      expect(ofKind(obs, 'pat').map((p) => p.version)).to.deep.equal([0, 1]);
      expect(ofKind(obs, 'pmt')).to.have.length(1);
    });

    it('reports a PSI CRC error at the packet and does not use the table', () => {
      const obs = demux(concatPackets([psiPacket(0, patSection([[1, PMT_PID]], { badCrc: true }))]));
      expect(errors(obs).map((e) => [e.type, e.packetIndex, e.tr101290])).to.deep.equal([['psi-crc-error', 0, '2.2']]);
      expect(ofKind(obs, 'pat')).to.have.length(0);
    });

    it('reports a PAT error for another table_id on PID 0', () => {
      const obs = demux(concatPackets([psiPacket(0, pmtSection(1, VIDEO, []))]));
      expect(errors(obs).map((e) => [e.type, e.tr101290])).to.deep.equal([['pat-error', '1.3.a']]);
    });

    it('reports a PMT error for a forbidden table_id on a PMT PID', () => {
      const obs = demux(concatPackets([tables()[0], psiPacket(PMT_PID, patSection([[1, 5]]))]));
      expect(errors(obs).map((e) => [e.type, e.pid])).to.deep.equal([['pmt-error', PMT_PID]]);
    });

    it('reports scrambling on the PAT PID as a PAT error', () => {
      const p = psiPacket(0, patSection([[1, PMT_PID]]));
      p[3] |= 0x80;
      expect(errors(demux(p)).map((e) => e.type)).to.deep.equal(['pat-error']);
    });
  });

  describe('PES and clocks', () => {
    it('counts PES with and without PTS and reads PTS and DTS', () => {
      const stream = [
        ...tables(),
        ...pesPackets(VIDEO, pes(0xe0, new Array<number>(400).fill(1), { pts: 93003, dts: 90000, length: 0 }), 0, { pcr27MHz: 27_000_000 }),
        ...pesPackets(KLV, pes(0xbd, [6, 14, 43, 52]), 0),
      ];
      const obs = demux(concatPackets(stream));
      const list = ofKind(obs, 'pes');
      expect(list.map((p) => [p.pid, p.streamId, p.pts90kHz, p.dts90kHz, p.pesPacketLength])).to.deep.equal([
        [VIDEO, 0xe0, 93003, 90000, 0],
        [KLV, 0xbd, null, null, 7],
      ]);
      const stats = ofKind(obs, 'pid-stats');
      expect(stats.find((s) => s.pid === VIDEO)).to.include({ packets: 3, pesCount: 1, pesWithPts: 1, pesWithDts: 1, pcrCount: 1 });
      expect(stats.find((s) => s.pid === KLV)).to.include({ packets: 1, pesCount: 1, pesWithPts: 0 });
      expect(errors(obs)).to.deep.equal([]);
    });

    it('reads a PES header that spans two packets', () => {
      const header = pes(0xe0, [9, 9, 9], { pts: 123456 });
      const first = packet({ pid: VIDEO, cc: 0, pusi: true, afLength: 183 - 5, payload: header.slice(0, 5) });
      const second = packet({ pid: VIDEO, cc: 1, payload: header.slice(5) });
      const obs = demux(concatPackets([...tables(), first, second]));
      expect(ofKind(obs, 'pes').map((p) => [p.pts90kHz, p.packetIndex])).to.deep.equal([[123456, 2]]);
      expect(errors(obs)).to.deep.equal([]);
    });

    it('reports a malformed PES header', () => {
      const bad = pes(0xe0, [], { pts: 1 });
      bad[9] &= 0xfe;
      const obs = demux(concatPackets([...tables(), packet({ pid: VIDEO, pusi: true, payload: bad })]));
      expect(errors(obs).map((e) => [e.type, e.message, e.packetIndex])).to.deep.equal([['malformed-pes-header', 'PTS marker bits not set', 2]]);
    });

    it('times observations from the PCR, interpolating by byte position', () => {
      const pcr0 = 27_000_000 * 10;
      const stream = [...tables(), ...video(10, 0, pcr0), ...video(10, 10, pcr0 + 270_000)];
      // A PES start in the 5th packet after the first PCR.
      stream[7] = packet({ pid: VIDEO, cc: 5, pusi: true, payload: pes(0xe0, [], { pts: 1, length: 0 }) });
      const obs = demux(concatPackets(stream));
      const pcrs = ofKind(obs, 'pcr');
      expect(pcrs.map((p) => [p.pcr27MHz, p.t, p.packetIndex])).to.deep.equal([[pcr0, 0, 2], [pcr0 + 270_000, 0.01, 12]]);
      const [start] = ofKind(obs, 'pes');
      expect(start.t).to.be.closeTo(0.005, 1e-12);
      // The PAT and PMT came before the first PCR: their time is unknown.
      expect(ofKind(obs, 'pat')[0].t).to.equal(null);
    });

    it('keeps the timeline going at the byte rate across a PCR jump', () => {
      const pcr0 = 27_000_000;
      const stream = [...tables(), ...video(10, 0, pcr0), ...video(10, 10, pcr0 + 270_000), ...video(10, 20, pcr0 - 27_000_000)];
      const pcrs = ofKind(demux(concatPackets(stream)), 'pcr');
      expect(pcrs.map((p) => p.t)).to.deep.equal([0, 0.01, 0.02]);
    });

    it('follows the PCR across the 42-bit wrap', () => {
      const last = 2 ** 33 * 300 - 135_000;
      const stream = [...tables(), ...video(10, 0, last), ...video(10, 10, 135_000)];
      const pcrs = ofKind(demux(concatPackets(stream)), 'pcr');
      expect(pcrs.map((p) => p.t)).to.deep.equal([0, 0.01]);
    });

    it('hands whole PES payloads to a consumer, flagging one with a lost packet', () => {
      const received: Array<{ pts: number | null; bytes: number[]; complete: boolean }> = [];
      const consumer: PesPayloadConsumer = {
        wants: (s: ElementaryStream) => s.pid === KLV,
        payload: (p: PesObservation, _s, payload, complete) => received.push({ pts: p.pts90kHz, bytes: [...payload], complete }),
      };
      const long = Array.from({ length: 300 }, (_, i) => i & 0xff);
      const broken = pesPackets(KLV, pes(0xfc, long, { pts: 2000 }), 2);
      const stream = [...tables(), ...pesPackets(KLV, pes(0xfc, long, { pts: 1000 }), 0), broken[0]];
      const obs = demux(concatPackets([...stream, ...pesPackets(KLV, pes(0xfc, [7, 7], { pts: 3000 }), 4)]), 100, { payloadConsumer: consumer });
      expect(received.map((r) => [r.pts, r.complete, r.bytes.length])).to.deep.equal([
        [1000, true, 300],
        // Only the first packet of that PES arrived: 184 bytes less its 14-byte header.
        [2000, false, 170],
        [3000, true, 2],
      ]);
      expect(received[0].bytes).to.deep.equal(long);
      expect(errors(obs).map((e) => e.type)).to.deep.equal(['continuity-error']);
    });

    it('hands a consumer only the prefix it asks for, whatever happens to the rest of the PES', () => {
      const received: Array<{ pts: number | null; bytes: number[]; complete: boolean }> = [];
      const consumer: PesPayloadConsumer = {
        wants: (s: ElementaryStream) => s.pid === KLV,
        prefixBytes: () => 100,
        payload: (p: PesObservation, _s, payload, complete) => received.push({ pts: p.pts90kHz, bytes: [...payload], complete }),
      };
      const long = Array.from({ length: 700 }, (_, i) => i & 0xff);
      // The second PES loses its third packet: after its first 100 bytes, so its prefix is whole.
      const second = pesPackets(KLV, pes(0xfc, long, { pts: 2000 }), 4);
      second.splice(2, 1);
      const stream = [...tables(), ...pesPackets(KLV, pes(0xfc, long, { pts: 1000 }), 0), ...second, ...pesPackets(KLV, pes(0xfc, [7, 7], { pts: 3000 }), 8)];
      const obs = demux(concatPackets(stream), 188, { payloadConsumer: consumer });
      expect(received.map((r) => [r.pts, r.complete, r.bytes.length])).to.deep.equal([
        [1000, true, 100],
        [2000, true, 100],
        [3000, true, 2],
      ]);
      expect(received[0].bytes).to.deep.equal(long.slice(0, 100));
      expect(received[1].bytes).to.deep.equal(long.slice(0, 100));
      expect(errors(obs).map((e) => e.type)).to.deep.equal(['continuity-error']);
    });

    it('counts the PES of a PID that no PMT names when it carries a start code', () => {
      const obs = demux(concatPackets(pesPackets(0x200, pes(0xe0, [1], { pts: 5 }))));
      expect(ofKind(obs, 'pes').map((p) => [p.pid, p.pts90kHz])).to.deep.equal([[0x200, 5]]);
    });
  });

  describe('continuity (ISO 13818-1 2.4.3.3)', () => {
    it('reports a missing packet at the packet after the gap', () => {
      const stream = [...tables(), ...video(5, 0)];
      stream.splice(4, 1);
      const found = errors(demux(concatPackets(stream)));
      expect(found.map((e) => [e.type, e.pid, e.packetIndex, e.tr101290, e.details])).to.deep.equal([
        ['continuity-error', VIDEO, 4, '1.4', { expected: 2, found: 3 }],
      ]);
    });

    it('allows one duplicate packet and notes it', () => {
      const stream = [...tables(), ...video(3, 0)];
      stream.splice(3, 0, stream[3]);
      expect(errors(demux(concatPackets(stream))).map((e) => [e.type, e.severity, e.packetIndex])).to.deep.equal([['duplicate-packet', 'info', 4]]);
    });

    it('reports a packet that occurs three times', () => {
      const stream = [...tables(), ...video(3, 0)];
      stream.splice(3, 0, stream[3], stream[3]);
      expect(errors(demux(concatPackets(stream))).map((e) => [e.type, e.packetIndex])).to.deep.equal([
        ['duplicate-packet', 4],
        ['continuity-error', 5],
      ]);
    });

    it('does not expect the counter to move on packets without payload', () => {
      const stream = [...tables(), ...video(2, 0), packet({ pid: VIDEO, cc: 1, adaptationOnly: true }), ...video(2, 2)];
      expect(errors(demux(concatPackets(stream)))).to.deep.equal([]);
    });

    it('accepts a jump where discontinuity_indicator is set', () => {
      const stream = [...tables(), ...video(2, 0), packet({ pid: VIDEO, cc: 9, discontinuity: true }), ...video(2, 10)];
      const obs = demux(concatPackets(stream));
      expect(errors(obs)).to.deep.equal([]);
      expect(ofKind(obs, 'discontinuity').map((d) => [d.pid, d.packetIndex])).to.deep.equal([[VIDEO, 4]]);
    });

    it('ignores the counters of null packets', () => {
      const stream = [...tables(), packet({ pid: 0x1fff, cc: 3 }), packet({ pid: 0x1fff, cc: 3 }), packet({ pid: 0x1fff, cc: 9 })];
      expect(errors(demux(concatPackets(stream)))).to.deep.equal([]);
    });
  });

  describe('damaged packets and synchronisation', () => {
    it('reports the transport error indicator without a follow-on continuity error', () => {
      const stream = [...tables(), ...video(4, 0)];
      stream[3] = packet({ pid: VIDEO, cc: 1, tei: true });
      expect(errors(demux(concatPackets(stream))).map((e) => [e.type, e.packetIndex, e.tr101290])).to.deep.equal([['transport-error', 3, '2.1']]);
    });

    it('reports a corrupted sync byte and keeps the packet', () => {
      const stream = [...tables(), ...video(8, 0)];
      stream[5][0] = 0x46;
      const obs = demux(concatPackets(stream));
      expect(errors(obs).map((e) => [e.type, e.packetIndex, e.offset])).to.deep.equal([['sync-byte-error', 5, 5 * 188]]);
      expect(ofKind(obs, 'pid-stats').find((s) => s.pid === VIDEO)?.packets).to.equal(8);
    });

    it('recovers sync after garbage and counts the bytes skipped', () => {
      const before = concatPackets([...tables(), ...video(6, 0)]);
      const after = concatPackets(video(6, 6));
      const garbage = new Uint8Array(77).fill(0x11);
      const obs = demux(concatPackets([before, garbage, after]));
      expect(errors(obs).map((e) => [e.type, e.offset, e.packetIndex, e.details])).to.deep.equal([
        ['sync-loss', before.length, 8, { skippedBytes: 77 }],
      ]);
      expect(ofKind(obs, 'pid-stats').find((s) => s.pid === VIDEO)?.packets).to.equal(12);
    });

    it('reports a truncated final packet', () => {
      const bytes = concatPackets([...tables(), ...video(5, 0)]);
      const obs = demux(bytes.subarray(0, bytes.length - 100));
      expect(errors(obs).map((e) => [e.type, e.offset, e.details])).to.deep.equal([['truncated-packet', 6 * 188, { bytes: 88 }]]);
    });

    it('reports an adaptation-only packet whose adaptation field is not 183 bytes', () => {
      const p = packet({ pid: VIDEO, adaptationOnly: true, afLength: 100 });
      const obs = demux(concatPackets([...tables(), p]));
      expect(errors(obs).map((e) => [e.type, e.packetIndex])).to.deep.equal([['malformed-adaptation-field', 2]]);
    });

    it('notes scrambled elementary stream packets once per PID', () => {
      const stream = [...tables(), ...video(3, 0).map((p) => { p[3] |= 0x80; return p; })];
      const obs = demux(concatPackets(stream));
      expect(errors(obs).map((e) => e.type)).to.deep.equal(['scrambled-packet']);
      expect(ofKind(obs, 'pid-stats').find((s) => s.pid === VIDEO)?.scrambledPackets).to.equal(3);
    });

    it('reports a source without any TS packet as a sync loss', () => {
      const obs = demux(new Uint8Array(3000).fill(0x20));
      expect(errors(obs).map((e) => [e.type, e.details])).to.deep.equal([['sync-loss', { skippedBytes: 3000 }]]);
    });
  });

  describe('packet sizes and chunking', () => {
    const packets = [...tables(), ...video(10, 0, 27_000_000), ...pesPackets(KLV, pes(0xfc, [1, 2, 3], { pts: 9 }), 0), ...video(10, 10, 27_270_000)];

    function widen(size: 192 | 204): Uint8Array {
      const out = new Uint8Array(packets.length * size);
      packets.forEach((p, i) => out.set(p, i * size + (size === 192 ? 4 : 0)));
      return out;
    }

    function summary(bytes: Uint8Array, chunk?: number): unknown[] {
      // Offsets differ with the packet size, and so does the time of the end of the data (pid-stats).
      return demux(bytes, chunk).map((o) => ({ ...o, offset: undefined, t: o.kind === 'pid-stats' ? undefined : o.t }));
    }

    it('gives the same observations for 192- and 204-byte packets as for 188', () => {
      const plain = summary(concatPackets(packets));
      expect(summary(widen(192))).to.deep.equal(plain);
      expect(summary(widen(204))).to.deep.equal(plain);
    });

    it('gives the same observations whatever the chunk size with 192- and 204-byte packets', () => {
      for (const size of [192, 204] as const) {
        const bytes = widen(size);
        const whole = demux(bytes);
        for (const chunk of [1, 5, 188, 191, 192, 193, 204, 205, 1000]) expect(demux(bytes, chunk)).to.deep.equal(whole, `${size}/${chunk}`);
      }
    });

    it('gives the same observations when the caller reuses one buffer for every chunk, overwriting it after each push', () => {
      const bytes = concatPackets(packets);
      const whole = demux(bytes);
      for (const chunk of [1, 7, 187, 188, 189, 1000, 4096]) {
        const observations: unknown[] = [];
        const demuxer = new TsDemuxer((o) => observations.push(o));
        const buffer = new Uint8Array(chunk);
        for (let i = 0; i < bytes.length; i += chunk) {
          const piece = bytes.subarray(i, i + chunk);
          buffer.set(piece);
          demuxer.push(buffer.subarray(0, piece.length));
          buffer.fill(0xee);
        }
        demuxer.end();
        expect(observations).to.deep.equal(whole, `chunk ${chunk}`);
      }
    });

    it('gives the same observations whatever the chunk size', () => {
      const bytes = concatPackets(packets);
      bytes[188 * 7] = 0x00; // one damaged sync byte
      const whole = demux(bytes);
      for (const chunk of [1, 7, 187, 188, 189, 1000]) expect(demux(bytes, chunk)).to.deep.equal(whole, `chunk ${chunk}`);
    });
  });
});
