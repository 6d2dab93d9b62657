import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvStreamVsKlvDrift as check } from '../src/klv-stream-vs-klv-drift.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, handMadeKlv, regularKlv, runOnObservations, type HandMadeKlvPacket } from './klv-observations.js';

/** Packets at 30 Hz by PTS whose item 2 is off by driftMs(k). */
const drifting = (count: number, driftMs: (k: number) => number, pts = true): HandMadeKlvPacket[] =>
  regularKlv(count, { pts, shiftMicros: (k) => Math.round(driftMs(k) * 1000) });

describe('klv-stream-vs-klv-drift', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('gives one point per packet: the drift of item 2 against the PTS since the first packet', async () => {
      const { result } = await runOnObservations(check, handMadeKlv(regularKlv(30)));
      expect(result.points).to.have.length(30);
      expect(result.points.every((p) => p.type === 'klv-drift' && p.unit === 'ms' && Math.abs(p.value ?? 1) < 0.01 && !p.violation)).to.be.true;
      expect(result.points[0].message).to.equal('KLV PID 0x0102: KLV time against the PTS');
      expect(result.points[0].citation).to.equal('MISB ST 0601 item 2 (Precision Time Stamp); MISB ST 0603; MISB ST 1402 (PTS, PCR)');
      expect(result.summary.verdict).to.equal('pass');
    });

    it('reports a clock running fast once, at the packet where the drift began', async () => {
      // From packet 40 on, item 2 gains 100 ms per second (3.333 ms per packet); it passes 100 ms at packet 70.
      const { result, violations } = await runOnObservations(check, handMadeKlv(drifting(100, (k) => (k >= 40 ? ((k - 39) / 30) * 100 : 0))));
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity])).to.deep.equal([[4000, 'klv-drift-excursion', 'error']]);
      expect(violations[0].value).to.be.closeTo(3.333, 0.01);
      expect(violations[0].message).to.equal(
        'KLV PID 0x0102 packet 40: KLV time +3.333 ms against the PTS: onset of a drift that passes ±100 ms at packet 70 (+103.333 ms, KLV time ahead of stream time)',
      );
      const beyond = result.points.filter((p) => p.type === 'klv-drift-beyond-limit');
      expect(beyond.map((p) => p.packetIndex)).to.deep.equal(Array.from({ length: 29 }, (_, i) => (71 + i) * 100));
      expect(result.points.map((p) => p.packetIndex)).to.deep.equal(Array.from({ length: 100 }, (_, k) => k * 100));
      expect(result.summary.reason).to.equal('KLV PID 0x0102 (MISB ST 0601, by PTS): |drift| up to 200.000 ms, 1 excursion beyond ±100 ms');
    });

    it('puts a clock step, and a single bad time stamp, at that packet', async () => {
      const step = await runOnObservations(check, handMadeKlv(drifting(60, (k) => (k >= 50 ? 500 : 0))));
      expect(violationsAt(step.violations)).to.deep.equal([{ packetIndex: 5000, type: 'klv-drift-excursion' }]);
      expect(step.violations[0].message).to.equal('KLV PID 0x0102 packet 50: KLV time +500.000 ms against the PTS: beyond ±100 ms (KLV time ahead of stream time)');
      const single = await runOnObservations(check, handMadeKlv(drifting(60, (k) => (k === 50 ? -500 : 0))));
      expect(violationsAt(single.violations)).to.deep.equal([{ packetIndex: 5000, type: 'klv-drift-excursion' }]);
    });

    it('ends an excursion only when the drift is back within half the limit', async () => {
      const offsets: Record<number, number> = { 10: 120, 11: 90, 12: 120, 13: 40, 14: 120 };
      const { violations } = await runOnObservations(check, handMadeKlv(drifting(20, (k) => offsets[k] ?? 0)));
      expect(violations.map((v) => v.packetIndex)).to.deep.equal([1000, 1400]);
    });

    it('without PTS, measures against the PCR time at the packet, arrival jitter included', async () => {
      // Stream time (the PCR line at the packet) off the ideal by up to ±12 ms: the multiplexer's placement.
      const packets = regularKlv(60, { pts: false }).map((p, k) => ({ ...p, t: (p.t as number) + ((k * 7) % 5) * 0.006 - 0.012 }));
      const { result } = await runOnObservations(check, handMadeKlv(packets));
      expect(result.summary.violations).to.equal(0);
      expect(result.points[1].message).to.equal('KLV PID 0x0102: KLV time against the PCR time at its position');
      expect(result.summary.reason).to.equal('KLV PID 0x0102 (MISB ST 0601, by PCR): |drift| up to 24.000 ms');
    });

    it('starts the series at the first packet with a stream time (none before the first PCR)', async () => {
      const packets = regularKlv(10, { pts: false }).map((p, k) => (k < 2 ? { ...p, t: null } : p));
      const { result } = await runOnObservations(check, handMadeKlv(packets));
      expect(result.points.map((p) => [p.packetIndex, p.type])).to.deep.equal([
        [0, 'klv-drift-unmeasured'],
        [100, 'klv-drift-unmeasured'],
        ...Array.from({ length: 8 }, (_, i) => [(i + 2) * 100, 'klv-drift']),
      ]);
      expect(result.points[0].message).to.equal('KLV PID 0x0102 packet 0: drift not measured (no PTS, and no PCR before it)');
      expect(result.points[2].value).to.equal(0);
    });

    it('says when a drift may have begun before the look-back', async () => {
      const { violations } = await runOnObservations(check, handMadeKlv(drifting(200, (k) => (k >= 20 ? ((k - 19) / 30) * 20 : 0))), { onsetLookbackSeconds: 2 });
      // 20 ms per second passes 100 ms 5 s after packet 20: the 2 s look-back no longer holds the onset.
      expect(violations).to.have.length(1);
      expect(violations[0].message).to.match(/; it may have begun before the 2 s look-back$/);
      expect(violations[0].packetIndex).to.be.greaterThan(2000);
    });

    it('is not applicable where neither PTS nor a PCR gives a stream time', async () => {
      const packets = regularKlv(5, { pts: false }).map((p) => ({ ...p, t: null }));
      const one = await runOnObservations(check, handMadeKlv(packets));
      expect([one.result.summary.verdict, one.result.summary.reason]).to.deep.equal(['not-applicable', 'KLV PID 0x0102 carries no PTS and no PCR can stand in']);
      const two = await runOnObservations(check, handMadeKlv([...packets, ...packets.map((p) => ({ ...p, pid: 0x101 }))]));
      expect(two.result.summary.reason).to.equal('KLV PID 0x0102, KLV PID 0x0101 carry no PTS and no PCR can stand in');
      const mixed = await runOnObservations(check, handMadeKlv([...packets, ...regularKlv(5, { pid: 0x101 })]));
      expect([mixed.result.summary.verdict, mixed.result.summary.reason]).to.deep.equal([
        'pass',
        'KLV PID 0x0101 (MISB ST 0601, by PTS): |drift| up to 0.000 ms; KLV PID 0x0102: no PTS and no PCR, not measured',
      ]);
      const none = await runOnObservations(check, []);
      expect([none.result.summary.verdict, none.result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
      const untimed = await runOnObservations(check, handMadeKlv([{ packetIndex: 1, timestampMicros: null }]));
      expect(untimed.result.summary.reason).to.equal('no time stamp (ST 0601 item 2) in 1 KLV packet');
    });

    it('keeps its first time stamp per series: T0 does not matter', async () => {
      const late = regularKlv(10).map((p) => ({ ...p, timestampMicros: (p.timestampMicros as number) - T0_MICROS + 86_400_000_000 }));
      const { result } = await runOnObservations(check, handMadeKlv(late));
      expect(result.summary.violations).to.equal(0);
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const kind of ['klv-clock-drift', 'klv-clock-drift-slow']) {
      for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const, pts: true }]) {
        it(`finds ${kind} (1 ms/s) at its first drifting packet, by PTS (${klv.carriage}, limit 1 ms)`, async () => {
          // The first drifting packet is one period's worth off (33 µs); clean packets are within 0.5 µs, so the fit finds it exactly.
          const { violations, faults } = await runCheck(check, klvFaultStream([`${kind}@2`], klv, { audio: true }), { maxDriftMs: 1 });
          expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-drift-excursion'));
          expect(Math.sign(violations[0].value ?? 0)).to.equal(kind === 'klv-clock-drift' ? 1 : -1);
        });
      }
    }

    for (const [rateHz, packetSize] of [[30, 188], [10, 192]] as const) {
      it(`finds a 100 ms/s drift at its first drifting packet without PTS, by the PCR (${rateHz} Hz, ${packetSize}-byte packets, default limit)`, async () => {
        const { violations, faults } = await runCheck(check, klvFaultStream(['klv-clock-drift@1.5,amountMs=100'], { carriage: 'async', rateHz }, { audio: true, packetSize }));
        expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-drift-excursion'));
      });
    }

    it('finds a slow clock without PTS too', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-clock-drift-slow@2,amountMs=200'], { carriage: 'async' }));
      expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-drift-excursion'));
    });

    it('sees a reversed time stamp as a one-packet excursion at its packet', async () => {
      // klv-timestamp-monotonicity reports it as a reversal; against the PTS it is 500 ms off for one packet.
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-timestamp-reversal@2'], { carriage: 'sync' }));
      expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-drift-excursion'));
    });

    it('is not disturbed by dropouts, jitter (PTS and item 2 move together) or content faults', async () => {
      const specs = ['klv-checksum@0.5', 'klv-dropout@1', 'klv-missing-timestamp@2.2', 'klv-rate-jitter@2.5', 'klv-wrong-key@3.6'];
      for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const }]) {
        const { violations } = await runCheck(check, klvFaultStream(specs, klv));
        expect(violations, klv.carriage).to.deep.equal([]);
      }
    });
  });

  describe('on the real fixtures', () => {
    it('kwiver_h264_klv.ts: no PTS, so the PCR at each packet stands in (applicable)', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts') });
      // Packet 0 comes before the first PCR (not measured); packet 1 is the origin; FFmpeg places the
      // packets up to 13 ms off the 33.3 ms line that item 2 follows exactly.
      expect([result.summary.verdict, result.summary.points, result.summary.violations]).to.deep.equal(['pass', 30, 0]);
      expect(result.points[0].type).to.equal('klv-drift-unmeasured');
      expect(result.summary.reason).to.equal('KLV PID 0x0101 (MISB ST 0601, by PCR): |drift| up to 13.017 ms');
    });

    it('kwiver_h265_tricky_klv.ts: the sync PID by PTS, the async PID 0x0102 without PTS by the PCR', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') });
      // PID 0x0102's packets leave in pairs, so half of them arrive ~16 ms early against item 2.
      expect([result.summary.verdict, result.summary.violations]).to.deep.equal(['pass', 0]);
      expect(result.summary.reason).to.equal('KLV PID 0x0102 (MISB ST 0601, by PCR): |drift| up to 19.624 ms; KLV PID 0x0101 (MISB ST 0601, by PTS): |drift| up to 0.001 ms');
    });

    it('osh-addons_sample-stream.ts: item 2 follows the PTS exactly', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
      expect([result.summary.verdict, result.summary.points, result.summary.reason]).to.deep.equal(['pass', 277, 'KLV PID 0x0101 (MISB ST 0601, by PTS): |drift| up to 0.000 ms']);
    });

    it("kwiver_aphill_klv_10s.ts: EG 0104's real-flight time stamps wander up to 23 ms from the PTS", async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      expect([result.summary.verdict, result.summary.points, result.summary.reason]).to.deep.equal(['pass', 300, 'KLV PID 0x0101 (MISB EG 0104, by PTS): |drift| up to 22.733 ms']);
    });

    it('kwiver_h264_no_klv.ts: not applicable', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });
  });
});
