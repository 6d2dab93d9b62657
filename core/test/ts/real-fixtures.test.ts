/**
 * The demuxer on the real third-party files of ../shared/fixtures/real,
 * against ../shared/fixtures/MANIFEST.md. Per-PID packet counts are not in
 * the manifest; they are pinned here and must add up to the file size / 188.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { Observation } from '../../src/kernel/observations.js';
import { demux, errors, ofKind } from './demux-helper.js';

interface PidExpectation {
  packets: number;
  streamType?: number;
  registration?: string;
  pes?: number;
  pesWithPts?: number;
  streamIds?: number[];
}

interface FileExpectation {
  file: string;
  totalPackets: number;
  pcrPid: number;
  pids: Record<number, PidExpectation>;
  declaredButAbsent?: number[];
}

const EXPECTED: FileExpectation[] = [
  {
    file: 'osh-addons_sample-stream.ts',
    totalPackets: 11943,
    pcrPid: 0x100,
    pids: {
      0x0000: { packets: 298 },
      0x0011: { packets: 57 },
      0x1000: { packets: 298 },
      0x0100: { packets: 10681, streamType: 0x1b, pes: 277, pesWithPts: 277 },
      0x0101: { packets: 609, streamType: 0x06, registration: 'KLVA', pes: 277, pesWithPts: 277, streamIds: [0xfc] },
    },
  },
  {
    file: 'kwiver_aphill_klv_10s.ts',
    totalPackets: 2176,
    pcrPid: 0x100,
    pids: {
      0x0000: { packets: 52 },
      0x0011: { packets: 11 },
      0x1000: { packets: 52 },
      0x0100: { packets: 861, streamType: 0x02, pes: 10, pesWithPts: 10 },
      0x0101: { packets: 1200, streamType: 0x06, registration: 'KLVA', pes: 300, pesWithPts: 300, streamIds: [0xfc] },
    },
  },
  {
    file: 'kwiver_h265_tricky_klv.ts',
    totalPackets: 718,
    pcrPid: 0x100,
    pids: {
      0x0000: { packets: 11 },
      0x0011: { packets: 2 },
      0x1000: { packets: 11 },
      0x0100: { packets: 228, streamType: 0x24, registration: 'HEVC', pes: 30, pesWithPts: 30 },
      0x0101: { packets: 406, streamType: 0x15, registration: 'KLVA', pes: 30, pesWithPts: 30, streamIds: [0xfc] },
      0x0102: { packets: 60, streamType: 0x06, registration: 'KLVA', pes: 60, pesWithPts: 0, streamIds: [0xbd] },
    },
    declaredButAbsent: [0x103],
  },
  {
    file: 'kwiver_h264_klv.ts',
    totalPackets: 584,
    pcrPid: 0x100,
    pids: {
      0x0000: { packets: 11 },
      0x0011: { packets: 2 },
      0x1000: { packets: 11 },
      0x0100: { packets: 154, streamType: 0x1b, pes: 30, pesWithPts: 30 },
      0x0101: { packets: 406, streamType: 0x06, registration: 'KLVA', pes: 30, pesWithPts: 0, streamIds: [0xbd] },
    },
  },
  {
    file: 'kwiver_h264_no_klv.ts',
    totalPackets: 171,
    pcrPid: 0x100,
    pids: {
      0x0000: { packets: 10 },
      0x0011: { packets: 2 },
      0x1000: { packets: 10 },
      0x0100: { packets: 149, streamType: 0x1b, pes: 30, pesWithPts: 30 },
    },
  },
];

describe('the demuxer on the real fixtures (MANIFEST.md)', () => {
  for (const expected of EXPECTED) {
    describe(expected.file, () => {
      let obs: Observation[] = [];
      let size = 0;

      before(function () {
        const path = fixtureOrSkip(this, 'real', expected.file);
        const bytes = readFileSync(path);
        size = bytes.length;
        obs = demux(bytes, 65536);
      });

      it('finds no sync, continuity, transport or other error', () => {
        expect(errors(obs)).to.deep.equal([]);
      });

      it('counts the packets of every PID, adding up to the file size', () => {
        const stats = ofKind(obs, 'pid-stats');
        const counts = Object.fromEntries(stats.map((s) => [s.pid, s.packets]));
        expect(counts).to.deep.equal(Object.fromEntries(Object.entries(expected.pids).map(([pid, e]) => [pid, e.packets])));
        expect(stats.reduce((n, s) => n + s.packets, 0)).to.equal(expected.totalPackets).and.to.equal(size / 188);
      });

      it('reads the PMT: PCR PID, stream types and registration descriptors', () => {
        const [pmt] = ofKind(obs, 'pmt');
        expect(pmt.pid).to.equal(0x1000);
        expect(pmt.pcrPid).to.equal(expected.pcrPid);
        const declared = Object.entries(expected.pids).filter(([, e]) => e.streamType !== undefined);
        const streams = pmt.streams.filter((s) => !(expected.declaredButAbsent ?? []).includes(s.pid));
        expect(streams.map((s) => [s.pid, s.streamType])).to.deep.equal(declared.map(([pid, e]) => [Number(pid), e.streamType]));
        for (const s of streams) {
          const registration = s.descriptors.find((d) => d.tag === 0x05)?.fields?.formatIdentifier;
          expect(registration).to.equal(expected.pids[s.pid].registration);
        }
      });

      it('counts PES with and without PTS per PID, with their stream_id', () => {
        const stats = ofKind(obs, 'pid-stats');
        for (const [pid, e] of Object.entries(expected.pids)) {
          if (e.pes === undefined) continue;
          const s = stats.find((x) => x.pid === Number(pid));
          expect([s?.pesCount, s?.pesWithPts], `PID ${pid}`).to.deep.equal([e.pes, e.pesWithPts]);
          if (e.streamIds) {
            const ids = new Set(ofKind(obs, 'pes').filter((p) => p.pid === Number(pid)).map((p) => p.streamId));
            expect([...ids]).to.deep.equal(e.streamIds);
          }
        }
      });

      it('times every observation after the first PCR, increasing with the offset', () => {
        const timed = obs.filter((o) => o.kind !== 'pid-stats' && o.t !== null);
        expect(timed.length).to.be.greaterThan(0);
        const pcrs = ofKind(obs, 'pcr').filter((p) => p.pid === expected.pcrPid);
        for (let i = 1; i < pcrs.length; i++) expect(pcrs[i].t).to.be.greaterThan(pcrs[i - 1].t ?? -1);
      });
    });
  }

  it('h265_tricky_klv declares PID 0x103 in the PMT but never carries it', function () {
    const bytes = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts'));
    const obs = demux(bytes);
    const [pmt] = ofKind(obs, 'pmt');
    const absent = pmt.streams.find((s) => s.pid === 0x103);
    expect(absent?.streamType).to.equal(0x06);
    expect(absent?.descriptors[0].fields?.formatIdentifier).to.equal('KLVA');
    expect(ofKind(obs, 'pid-stats').some((s) => s.pid === 0x103)).to.be.false;
    const metadata = pmt.streams.find((s) => s.pid === 0x101)?.descriptors.map((d) => [d.tag, d.dataHex]);
    expect(metadata).to.deep.equal([[0x05, '4b4c5641'], [0x26, '0100ff4b4c5641000f'], [0x27, 'c00000c00000c00000']]);
  });
});
