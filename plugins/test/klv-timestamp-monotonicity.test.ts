import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvTimestampMonotonicity as check } from '../src/klv-timestamp-monotonicity.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, UNREGISTERED_KEY, handMadeKlv, regularKlv, runOnObservations, tripletBytes } from './klv-observations.js';

/** Packets at 30 Hz whose item 2 is T0 plus these ms. */
const stamped = (ms: number[], pid?: number) => handMadeKlv(ms.map((m, k) => ({ pid, packetIndex: k * 100, timestampMicros: T0_MICROS + Math.round(m * 1000) })));

describe('klv-timestamp-monotonicity', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('gives one point per packet: the first time stamp, then each step in ms', async () => {
      const { result } = await runOnObservations(check, stamped([0, 33.333, 66.667, 100]));
      expect(result.points.map((p) => [p.packetIndex, p.type, p.value, p.unit, p.violation])).to.deep.equal([
        [0, 'klv-timestamp-first', null, null, false],
        [100, 'klv-timestamp-step', 33.333, 'ms', false],
        [200, 'klv-timestamp-step', 33.334, 'ms', false],
        [300, 'klv-timestamp-step', 33.333, 'ms', false],
      ]);
      expect(result.points[0].message).to.equal('KLV PID 0x0102 packet 0: first MISB ST 0601 time stamp, 2026-01-01T00:00:00.000000Z');
      expect(result.points[1].citation).to.equal('MISB ST 0601 item 2 (Precision Time Stamp); MISB ST 0603');
      expect(result.summary.verdict).to.equal('pass');
    });

    it('reports a reversal once, at the packet that went back, not at its recovery', async () => {
      const { violations } = await runOnObservations(check, stamped([0, 33.333, 66.667, -400, 133.333, 166.667]));
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity, v.value])).to.deep.equal([[300, 'klv-timestamp-reversal', 'error', -466.667]]);
      expect(violations[0].message).to.equal('KLV PID 0x0102 packet 3: time stamp goes back 466.667 ms (2025-12-31T23:59:59.600000Z)');
    });

    it('reports a repeated time stamp as a warning, unless allowEqual', async () => {
      const packets = stamped([0, 33.333, 33.333, 66.667]);
      const strict = await runOnObservations(check, packets);
      expect(strict.violations.map((v) => [v.packetIndex, v.type, v.severity, v.value])).to.deep.equal([[200, 'klv-timestamp-repeat', 'warning', 0]]);
      const lenient = await runOnObservations(check, packets, { allowEqual: true });
      expect(lenient.violations).to.deep.equal([]);
    });

    it('reports a leap forward beyond maxStepMs (2000 ms by default) as a warning; null turns it off', async () => {
      const packets = stamped([0, 33.333, 2100, 2133.333]);
      const { violations } = await runOnObservations(check, packets);
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity, v.value])).to.deep.equal([[200, 'klv-timestamp-jump', 'warning', 2066.667]]);
      expect((await runOnObservations(check, packets, { maxStepMs: null })).violations).to.deep.equal([]);
      expect((await runOnObservations(check, stamped([0, 1999]))).violations).to.deep.equal([]);
    });

    it('follows each PID and standard on its own', async () => {
      const observations = handMadeKlv([
        { pid: 0x101, packetIndex: 1, timestampMicros: T0_MICROS + 100_000 },
        { pid: 0x102, packetIndex: 2, timestampMicros: T0_MICROS },
        { pid: 0x101, packetIndex: 3, timestampMicros: T0_MICROS + 133_333 },
        { pid: 0x102, packetIndex: 4, timestampMicros: T0_MICROS + 33_333 },
      ]);
      const { result } = await runOnObservations(check, observations);
      expect(result.points.map((p) => [p.pid, p.value])).to.deep.equal([
        [0x101, null],
        [0x102, null],
        [0x101, 33.333],
        [0x102, 33.333],
      ]);
      expect(result.summary.violations).to.equal(0);
    });

    it('notes a packet without item 2 and measures the next one from the last time stamp', async () => {
      const observations = handMadeKlv([
        { packetIndex: 0, timestampMicros: T0_MICROS },
        { packetIndex: 100, timestampMicros: null },
        { packetIndex: 200, timestampMicros: T0_MICROS + 66_667 },
      ]);
      const { result } = await runOnObservations(check, observations);
      expect(result.points.map((p) => [p.packetIndex, p.type, p.value])).to.deep.equal([
        [0, 'klv-timestamp-first', null],
        [100, 'klv-timestamp-absent', null],
        [200, 'klv-timestamp-step', 66.667],
      ]);
      expect(result.summary.violations).to.equal(0);
    });

    it('is not applicable without time stamps, nor without KLV', async () => {
      const keyOnly = await runOnObservations(check, handMadeKlv([{ packetIndex: 1, bytes: tripletBytes(UNREGISTERED_KEY) }]));
      expect([keyOnly.result.summary.verdict, keyOnly.result.summary.reason]).to.deep.equal(['not-applicable', 'no time stamp (ST 0601 item 2) in 1 KLV packet']);
      const none = await runOnObservations(check, []);
      expect([none.result.summary.verdict, none.result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
      expect((await runOnObservations(check, handMadeKlv(regularKlv(2)))).result.summary.verdict).to.equal('pass');
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const, pts: true }, { carriage: 'async' as const }, { carriage: 'async' as const, rateHz: 10 }]) {
      it(`finds each time stamp reversal at its packet (${klv.carriage}${'pts' in klv ? ' with PTS' : ''}${'rateHz' in klv ? ' at 10 Hz' : ''})`, async () => {
        const { violations, faults } = await runCheck(check, klvFaultStream(['klv-timestamp-reversal@0.7', 'klv-timestamp-reversal@2.5'], klv, { audio: true }));
        expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-timestamp-reversal'));
      });
    }

    it('gives a reversal larger than two seconds no second violation at its recovery', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-timestamp-reversal@2,amountMs=3000'], { carriage: 'sync' }));
      expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-timestamp-reversal'));
      expect(violations[0].value).to.be.closeTo(-2966.667, 0.001);
    });

    it('finds no violation in a dropout, jitter or a drifting clock: item 2 still moves forward', async () => {
      const { violations } = await runCheck(check, klvFaultStream(['klv-dropout@0.5', 'klv-rate-jitter@2', 'klv-clock-drift-slow@3.2'], { carriage: 'sync' }));
      expect(violations).to.deep.equal([]);
    });
  });

  describe('on the real fixtures', () => {
    it('osh-addons_sample-stream.ts: 277 ST 0601 v4 time stamps, 33.333 ms apart', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
      expect([result.summary.verdict, result.summary.points]).to.deep.equal(['pass', 277]);
      expect(result.summary.value?.min).to.be.closeTo(33.333, 0.001);
      expect(result.summary.value?.max).to.be.closeTo(33.334, 0.001);
    });

    it('kwiver_h265_tricky_klv.ts: the 30 Hz sync PID and the 60 Hz async PID both move forward', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') });
      expect([result.summary.verdict, result.summary.points, result.summary.violations]).to.deep.equal(['pass', 90, 0]);
      const steps = result.points.filter((p) => p.pid === 0x102 && p.value !== null).map((p) => p.value);
      // 60 Hz by item 2: steps of 16.666 to 16.668 ms (the producer rounds to the µs).
      expect(new Set(steps)).to.deep.equal(new Set([16.666, 16.667, 16.668]));
    });

    it('kwiver_h264_klv.ts: 30 packets without PTS still carry increasing time stamps', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts') });
      expect([result.summary.verdict, result.summary.points, result.summary.violations]).to.deep.equal(['pass', 30, 0]);
    });

    it("kwiver_aphill_klv_10s.ts: EG 0104's time stamp (ms resolution, real flight) steps 20-50 ms, never back", async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      expect([result.summary.verdict, result.summary.points, result.summary.violations]).to.deep.equal(['pass', 300, 0]);
      expect([result.summary.value?.min, result.summary.value?.max]).to.deep.equal([20, 50]);
      expect(result.points[1].citation).to.equal('MISB EG 0104 (User Defined Time Stamp)');
    });
  });
});
