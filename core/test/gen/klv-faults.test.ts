/**
 * KLV fault kinds against the analyzer: each injected fault is seen exactly
 * at the TS packet its ground truth names, and nowhere else.
 */
import { expect } from 'chai';
import { GeneratorError, generateTransportStream, parseFaultSpec, type InjectedFault } from '../../src/gen/index.js';
import type { KlvStreamOptions } from '../../src/gen/klv-stream-options.js';
import type { Observation, ObservationOf } from '../../src/kernel/observations.js';
import { St1402Carriage } from '../../src/klv/st1402-carriage.js';
import { lookupUniversalKey } from '../../src/klv/universal-key.js';
import { UNREGISTERED_KLV_KEY } from '../../src/gen/klv-packet-faults.js';
import { demux, ofKind } from '../ts/demux-helper.js';

const PERIOD_MICROS = 1e6 / 30;

function run(faults: string[], klv: KlvStreamOptions = {}, durationSeconds = 4): { obs: Observation[]; faults: InjectedFault[] } {
  const generated = generateTransportStream({ durationSeconds, bitrate: 2_000_000, seed: 11, klv, faults: faults.map((f) => parseFaultSpec(f)) });
  return { obs: demux(generated.bytes, 65536, { payloadConsumer: new St1402Carriage() }), faults: generated.faults };
}

function klvErrors(obs: Observation[]): ObservationOf<'klv-error'>[] {
  return ofKind(obs, 'klv-error');
}

/** Item 2 minus the PTS, µs. */
function timestampMinusPts(m: ObservationOf<'metadata-packet'>): number {
  return (m.timestampMicros as number) - ((m.pts90kHz as number) * 100) / 9;
}

/** Consecutive pairs of `list` with the later one's packet index. */
function steps<T extends { packetIndex: number }>(list: T[], value: (o: T) => number): Array<{ delta: number; packetIndex: number }> {
  return list.slice(1).map((o, i) => ({ delta: value(o) - value(list[i]), packetIndex: o.packetIndex }));
}

function expectDetail(fault: InjectedFault, key: string): unknown {
  expect(fault.details).to.have.property(key);
  return fault.details?.[key];
}

describe('KLV faults', function () {
  this.timeout(60_000);

  const errorKinds: Array<[string, string, boolean]> = [
    ['klv-checksum', 'klv-checksum-error', true],
    ['klv-unknown-tag', 'klv-unknown-tag', true],
    ['klv-duplicate-tag', 'klv-duplicate-tag', true],
    ['klv-missing-timestamp', 'klv-missing-mandatory', true],
    ['klv-missing-version', 'klv-missing-mandatory', true],
    ['klv-wrong-key', 'klv-unknown-key', true],
    ['klv-truncated', 'klv-raw-decode-error', false],
  ];
  for (const carriage of ['sync', 'async'] as const) {
    for (const [kind, type, framed] of errorKinds) {
      if (kind === 'klv-truncated' && carriage === 'async') continue;
      it(`finds ${kind} (${carriage}) as one ${type} at the packet starting its PES, and nothing else`, () => {
        const { obs, faults } = run([`${kind}@2`], { carriage });
        expect(faults).to.have.length(1);
        const [fault] = faults;
        expect([fault.kind, fault.pid, fault.atSeconds, fault.expect]).to.deep.equal([kind, 0x102, 2, { observation: 'klv-error', type }]);
        const found = klvErrors(obs);
        expect(found.map((e) => [e.type, e.pid, e.packetIndex, e.offset])).to.deep.equal([[type, 0x102, fault.packetIndex, fault.offset]]);
        expect(ofKind(obs, 'ts-error')).to.deep.equal([]);
        // The packet of 2 s is number 60; every packet before it was framed.
        expect(expectDetail(fault, 'klvIndex')).to.equal(60);
        expect(found[0].klvIndex).to.equal(framed ? 60 : null);
        expect(ofKind(obs, 'klv-packet')).to.have.length(framed ? 120 : 119);
        if (framed) expect(ofKind(obs, 'klv-packet')[60].packetIndex).to.equal(fault.packetIndex);
      });
    }
  }

  it('gives the offset of the sync byte with 192-byte packets and audio', () => {
    const generated = generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, packetSize: 192, audio: true, klv: { carriage: 'async', pts: true }, faults: [parseFaultSpec('klv-duplicate-tag@1')] });
    const obs = demux(generated.bytes, 65536, { payloadConsumer: new St1402Carriage() });
    const [fault] = generated.faults;
    expect(fault.offset).to.equal(fault.packetIndex * 192 + 4);
    expect(klvErrors(obs).map((e) => [e.type, e.packetIndex, e.offset])).to.deep.equal([['klv-duplicate-tag', fault.packetIndex, fault.offset]]);
    expect(ofKind(obs, 'ts-error')).to.deep.equal([]);
  });

  it('says what each content fault did in its details', () => {
    const details = (kind: string): unknown => run([`${kind}@1`], {}, 2).faults[0].details;
    expect(details('klv-unknown-tag')).to.deep.equal({ klvIndex: 30, tag: 150 });
    expect(details('klv-duplicate-tag')).to.deep.equal({ klvIndex: 30, tag: 5 });
    expect(details('klv-missing-timestamp')).to.deep.equal({ klvIndex: 30, tag: 2 });
    expect(details('klv-missing-version')).to.deep.equal({ klvIndex: 30, tag: 65 });
    expect(details('klv-wrong-key')).to.deep.equal({ klvIndex: 30, keyHex: '060e2b34020b01010e0103017f000000' });
    const checksum = details('klv-checksum') as Record<string, number>;
    expect(checksum.storedChecksum ^ checksum.computedChecksum).to.equal(0xffff);
    const truncated = details('klv-truncated') as Record<string, number>;
    expect([truncated.bytesSent, truncated.bytesDeclared]).to.deep.equal([Math.floor((truncated.bytesDeclared * 2) / 3), truncated.bytesDeclared]);
  });

  it('uses a key no registry knows for klv-wrong-key', () => {
    expect(lookupUniversalKey(UNREGISTERED_KLV_KEY, 0)).to.equal(null);
  });

  for (const carriage of ['sync', 'async'] as const) {
    it(`finds klv-timestamp-reversal (${carriage}) as the one packet whose item 2 goes back`, () => {
      const { obs, faults } = run(['klv-timestamp-reversal@2'], { carriage });
      const [fault] = faults;
      expect(fault.expect).to.deep.equal({ observation: 'metadata-packet', timestamp: 'reversal' });
      const back = steps(ofKind(obs, 'metadata-packet'), (m) => m.timestampMicros as number).filter((s) => s.delta < 0);
      expect(back.map((s) => s.packetIndex)).to.deep.equal([fault.packetIndex]);
      expect(back[0].delta).to.be.closeTo(PERIOD_MICROS - 500_000, 1);
      expect(fault.details).to.deep.equal({ klvIndex: 60, amountMs: 500 });
      expect(klvErrors(obs)).to.deep.equal([]);
    });

    it(`finds klv-dropout (${carriage}) at the first packet after the gap, the only interval over 1.5 periods`, () => {
      const { obs, faults } = run(['klv-dropout@1.5'], { carriage });
      const [fault] = faults;
      expect(fault.expect).to.deep.equal({ observation: 'klv-packet', interval: 'gap' });
      const metadata = ofKind(obs, 'metadata-packet');
      expect(metadata).to.have.length(90);
      const long = steps(metadata, (m) => m.timestampMicros as number).filter((s) => s.delta > 1.5 * PERIOD_MICROS);
      expect(long.map((s) => s.packetIndex)).to.deep.equal([fault.packetIndex]);
      expect(long[0].delta).to.be.closeTo(31 * PERIOD_MICROS, 1);
      expect(fault.details).to.deep.equal({ klvIndex: 45, gapMs: 1000, droppedPackets: 30, intervalMs: 31000 / 30 });
      expect(ofKind(obs, 'klv-packet')[45].packetIndex).to.equal(fault.packetIndex);
      expect(klvErrors(obs)).to.deep.equal([]);
    });
  }

  it('finds klv-dropout in the PTS of synchronous packets too', () => {
    const { obs, faults } = run(['klv-dropout@2,durationMs=500']);
    const long = steps(ofKind(obs, 'klv-packet'), (p) => p.pts90kHz as number).filter((s) => s.delta > 4500);
    expect(long.map((s) => [s.packetIndex, s.delta])).to.deep.equal([[faults[0].packetIndex, 16 * 3000]]);
  });

  for (const carriage of ['sync', 'async'] as const) {
    it(`finds klv-rate-jitter (${carriage}) at the packet whose interval deviates most, with no deviation outside its window`, () => {
      const { obs, faults } = run(['klv-rate-jitter@1,durationMs=1000,amountMs=8'], { carriage });
      const [fault] = faults;
      expect(fault.expect).to.deep.equal({ observation: 'klv-packet', interval: 'jitter' });
      const metadata = ofKind(obs, 'metadata-packet');
      const deviations = steps(metadata, (m) => m.timestampMicros as number).map((s, i) => ({ ...s, klvIndex: i + 1, off: Math.abs(s.delta - PERIOD_MICROS) }));
      const largest = deviations.reduce((a, b) => (b.off > a.off ? b : a));
      expect(largest.packetIndex).to.equal(fault.packetIndex);
      expect(largest.off).to.be.closeTo((expectDetail(fault, 'maxDeviationMs') as number) * 1000, 2);
      expect(largest.off).to.be.at.most(16_000 + 2);
      // Packets 30..59 move; the intervals ending at 31..60 change, no other.
      expect(fault.details).to.deep.include({ amountMs: 8, durationMs: 1000, jitteredPackets: 30, firstJitteredKlvIndex: 30, lastJitteredKlvIndex: 59 });
      const moved = deviations.filter((d) => d.off > 1).map((d) => d.klvIndex);
      expect(moved.every((k) => k >= 30 && k <= 60)).to.be.true;
      expect(moved.length).to.be.greaterThan(20);
      if (carriage === 'sync') {
        const offsets = metadata.map(timestampMinusPts);
        expect(Math.max(...offsets) - Math.min(...offsets)).to.be.at.most(1);
      }
      expect(klvErrors(obs)).to.deep.equal([]);
    });
  }

  for (const [kind, sign] of [['klv-clock-drift', 1], ['klv-clock-drift-slow', -1]] as const) {
    it(`finds ${kind} at the first drifting packet: item 2 minus PTS constant before it, moving ${sign > 0 ? 'up' : 'down'} from it`, () => {
      const { obs, faults } = run([`${kind}@2,amountMs=2`]);
      const [fault] = faults;
      expect(fault.expect).to.deep.equal({ observation: 'metadata-packet', timestamp: 'drift' });
      expect(fault.details).to.deep.equal({ klvIndex: 60, msPerSecond: 2 * sign, ppm: 2000 * sign });
      const metadata = ofKind(obs, 'metadata-packet');
      const at = metadata.findIndex((m) => m.packetIndex === fault.packetIndex);
      expect(at).to.equal(60);
      const offsets = metadata.map(timestampMinusPts);
      const before = offsets.slice(0, at);
      expect(Math.max(...before) - Math.min(...before)).to.be.at.most(1);
      const growth = offsets.slice(at - 1).map((o, i, all) => (i === 0 ? 0 : (o - all[i - 1]) * sign)).slice(1);
      // 2 ms/s over a 1/30 s period: 66.7 µs per packet.
      expect(Math.min(...growth)).to.be.above(65);
      expect(Math.max(...growth)).to.be.below(68);
      expect(klvErrors(obs)).to.deep.equal([]);
    });
  }

  it('places several KLV faults in one stream, each where its ground truth says', () => {
    const { obs, faults } = run(['klv-checksum@0.5', 'klv-dropout@1,durationMs=300', 'klv-unknown-tag@1', 'klv-timestamp-reversal@2.5', 'klv-wrong-key@2.5']);
    expect(faults.map((f) => f.kind)).to.deep.equal(['klv-checksum', 'klv-dropout', 'klv-unknown-tag', 'klv-timestamp-reversal', 'klv-wrong-key']);
    // The unknown tag waits for the first packet after the dropout; the wrong key for the packet after the reversal.
    const errorsFound = klvErrors(obs).map((e) => [e.type, e.packetIndex]);
    expect(errorsFound).to.deep.equal([
      ['klv-checksum-error', faults[0].packetIndex],
      ['klv-unknown-tag', faults[2].packetIndex],
      ['klv-unknown-key', faults[4].packetIndex],
    ]);
    const dropoutTruth = faults[1];
    expect(dropoutTruth.details?.klvIndex).to.equal(30);
    expect(faults[2].details?.klvIndex).to.equal(31);
    expect(faults[2].packetIndex).to.be.greaterThan(dropoutTruth.packetIndex);
    expect([faults[3].details?.klvIndex, faults[4].details?.klvIndex]).to.deep.equal([66, 67]);
  });

  it('accepts the KLV kinds in the command-line form', () => {
    expect(parseFaultSpec('klv-rate-jitter@3,durationMs=2000,amountMs=5')).to.deep.equal({ kind: 'klv-rate-jitter', atSeconds: 3, durationMs: 2000, amountMs: 5 });
    expect(parseFaultSpec('klv-clock-drift@1,pid=0x102')).to.deep.equal({ kind: 'klv-clock-drift', atSeconds: 1, pid: 0x102 });
  });

  describe('refuses', () => {
    const refusal = (faults: string[], klv: KlvStreamOptions | undefined, durationSeconds = 4): GeneratorError => {
      try {
        generateTransportStream({ durationSeconds, bitrate: 2_000_000, klv, faults: faults.map((f) => parseFaultSpec(f)) });
      } catch (error) {
        if (error instanceof GeneratorError) return error;
        throw error;
      }
      throw new Error('no GeneratorError');
    };

    it('a KLV fault without a KLV stream', () => {
      const error = refusal(['klv-checksum@1'], undefined);
      expect([error.code, error.message]).to.deep.equal(['ERR_FAULT_SPEC', "fault klv-checksum@1 needs a KLV stream: set the klv option (e.g. klv: { carriage: 'sync' })"]);
    });

    it('a KLV fault on a PID that is not the KLV stream', () => {
      expect(refusal(['klv-checksum@1,pid=0x100'], {}).message).to.equal('fault klv-checksum@1,pid=0x100: PID 0x100 is not a KLV stream (KLV streams: 0x102)');
    });

    it('klv-truncated with asynchronous carriage, where a packet may continue in the next PES', () => {
      expect(refusal(['klv-truncated@1'], { carriage: 'async' }).message).to.match(/^fault klv-truncated@1: needs synchronous carriage/);
    });

    it('a reversal shorter than the packet period, jitter of half a period or more, a dropout that outlasts the stream', () => {
      expect(refusal(['klv-timestamp-reversal@1,amountMs=30'], {}).message).to.equal('fault klv-timestamp-reversal@1: amountMs 30 must exceed the packet period of 33.333 ms to go back in time');
      expect(refusal(['klv-rate-jitter@1,amountMs=17'], {}).message).to.equal('fault klv-rate-jitter@1: amountMs 17 must be below half the packet period (16.667 ms)');
      expect(refusal(['klv-dropout@3.5'], {}).message).to.equal('fault klv-dropout@3.5: the gap ends at 4.5 s, after the stream (4 s): no packet would follow it');
      expect(refusal(['klv-checksum@4'], {}).code).to.equal('ERR_FAULT_SPEC');
    });

    it('two timing faults whose ground truth is the same packet', () => {
      const error = refusal(['klv-timestamp-reversal@2', 'klv-clock-drift@2'], {});
      expect(error.message).to.equal('faults klv-timestamp-reversal@2 and klv-clock-drift@2 both show at KLV packet 60 (2.000 s); move one');
    });
  });
});
