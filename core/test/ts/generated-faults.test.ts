/**
 * The generator and the demuxer check each other: every fault the generator
 * injects is seen by the demuxer at the exact packet its ground truth names,
 * and a clean stream gives no problem at all.
 */
import { expect } from 'chai';
import { generateTransportStream, parseFaultSpec, type InjectedFault } from '../../src/gen/index.js';
import type { Observation, ObservationOf } from '../../src/kernel/observations.js';
import { PCR_HZ, pcrDelta27MHz } from '../../src/ts/clock.js';
import { demux, errors, ofKind } from './demux-helper.js';

const VIDEO = 0x100;

function run(fault: string | null, options: { packetSize?: 188 | 192 | 204; audio?: boolean } = {}): { obs: Observation[]; faults: InjectedFault[] } {
  const { bytes, faults } = generateTransportStream({
    durationSeconds: 4,
    bitrate: 2_000_000,
    seed: 7,
    faults: fault ? [parseFaultSpec(fault)] : [],
    ...options,
  });
  return { obs: demux(bytes, 65536), faults };
}

/** Intervals in seconds between consecutive observations, by stream time, with the index of the later one. */
function intervals<T extends { t: number | null; packetIndex: number }>(list: T[]): Array<{ seconds: number; packetIndex: number }> {
  return list.slice(1).map((o, i) => ({ seconds: (o.t ?? 0) - (list[i].t ?? 0), packetIndex: o.packetIndex }));
}

function pcrSteps(obs: Observation[]): Array<{ seconds: number; packetIndex: number }> {
  const pcrs = ofKind(obs, 'pcr').filter((p) => p.pid === VIDEO);
  return pcrs.slice(1).map((p, i) => ({ seconds: pcrDelta27MHz(pcrs[i].pcr27MHz, p.pcr27MHz) / PCR_HZ, packetIndex: p.packetIndex }));
}

function tables(obs: Observation[], type: 'PAT' | 'PMT'): ObservationOf<'psi-section'>[] {
  return ofKind(obs, 'psi-section').filter((s) => s.tableType === type);
}

describe('generated streams through the demuxer', function () {
  this.timeout(60_000);

  describe('clean streams', () => {
    for (const packetSize of [188, 192, 204] as const) {
      for (const audio of [false, true]) {
        it(`give no problem with ${packetSize}-byte packets${audio ? ' and audio' : ''}`, () => {
          const { obs } = run(null, { packetSize, audio });
          expect(errors(obs)).to.deep.equal([]);
          expect(Math.max(...pcrSteps(obs).map((s) => s.seconds))).to.be.at.most(0.041);
          expect(Math.max(...intervals(tables(obs, 'PAT')).map((s) => s.seconds))).to.be.at.most(0.11);
          expect(Math.max(...intervals(tables(obs, 'PMT')).map((s) => s.seconds))).to.be.at.most(0.11);
          // Arrival spacing of PES starts: a large I-frame at 2 Mb/s takes longer than a frame period to send.
          const withPts = ofKind(obs, 'pes').filter((p) => p.pid === VIDEO && p.pts90kHz !== null);
          expect(Math.max(...intervals(withPts).map((s) => s.seconds))).to.be.below(0.3);
        });
      }
    }

    it('times PCRs on the stream time line exactly', () => {
      const { obs } = run(null);
      const pcrs = ofKind(obs, 'pcr');
      for (const p of pcrs) expect(p.t).to.be.closeTo(pcrDelta27MHz(pcrs[0].pcr27MHz, p.pcr27MHz) / PCR_HZ, 1e-9);
    });
  });

  const errorFaults = ['drop-packet', 'duplicate-packet', 'tei', 'sync-byte', 'psi-crc'];
  for (const kind of errorFaults) {
    it(`finds ${kind} at its exact packet and nothing else`, () => {
      const { obs, faults } = run(`${kind}@2`);
      expect(faults).to.have.length(1);
      const [fault] = faults;
      expect(fault.expect.observation).to.equal('ts-error');
      const found = errors(obs);
      expect(found.map((e) => [e.type, e.packetIndex, e.offset])).to.deep.equal([[fault.expect.type, fault.packetIndex, fault.offset]]);
      // A damaged sync byte is not tied to a PID; the others are.
      if (kind !== 'sync-byte') expect(found[0].pid).to.equal(fault.pid);
    });
  }

  it('finds a PCR gap at the first PCR after it and no other long interval', () => {
    const { obs, faults } = run('pcr-gap@2');
    const long = pcrSteps(obs).filter((s) => s.seconds > 0.041);
    expect(long.map((s) => s.packetIndex)).to.deep.equal([faults[0].packetIndex]);
    expect(long[0].seconds).to.be.greaterThan(0.1);
    expect(errors(obs)).to.deep.equal([]);
  });

  for (const [kind, sign] of [['pcr-jump-backward', -1], ['pcr-jump-forward', 1]] as const) {
    it(`finds ${kind} at the first shifted PCR`, () => {
      const { obs, faults } = run(`${kind}@2`);
      const odd = pcrSteps(obs).filter((s) => s.seconds < 0 || s.seconds > 0.041);
      expect(odd.map((s) => s.packetIndex)).to.deep.equal([faults[0].packetIndex]);
      expect(Math.sign(odd[0].seconds)).to.equal(sign);
      expect(errors(obs)).to.deep.equal([]);
    });
  }

  for (const [kind, type] of [['pat-gap', 'PAT'], ['pmt-gap', 'PMT']] as const) {
    it(`finds ${kind} at the first ${type} after it`, () => {
      const { obs, faults } = run(`${kind}@2`);
      const long = intervals(tables(obs, type)).filter((s) => s.seconds > 0.11);
      expect(long.map((s) => s.packetIndex)).to.deep.equal([faults[0].packetIndex]);
      expect(long[0].seconds).to.be.greaterThan(0.5);
      expect(errors(obs)).to.deep.equal([]);
    });
  }

  it('finds a PTS gap at the first video PES with a PTS after it', () => {
    const { obs, faults } = run('pts-gap@2');
    const withPts = ofKind(obs, 'pes').filter((p) => p.pid === VIDEO && p.pts90kHz !== null);
    const long = intervals(withPts).filter((s) => s.seconds > 0.3);
    expect(long.map((s) => s.packetIndex)).to.deep.equal([faults[0].packetIndex]);
    expect(long[0].seconds).to.be.greaterThan(0.7);
    expect(ofKind(obs, 'pes').some((p) => p.pid === VIDEO && p.pts90kHz === null)).to.be.true;
    expect(errors(obs)).to.deep.equal([]);
  });

  it('finds several faults in one stream, each where its ground truth says', () => {
    const { obs, faults } = run(null);
    expect(faults).to.deep.equal([]);
    const many = generateTransportStream({
      durationSeconds: 6,
      bitrate: 3_000_000,
      seed: 3,
      faults: ['drop-packet@1', 'tei@2', 'duplicate-packet@3', 'sync-byte@4', 'psi-crc@5'].map((spec) => parseFaultSpec(spec)),
    });
    const found = errors(demux(many.bytes, 100_000));
    expect(found.map((e) => [e.type, e.packetIndex])).to.deep.equal(many.faults.map((f) => [f.expect.type, f.packetIndex]));
    expect(errors(obs)).to.deep.equal([]);
  });
});
