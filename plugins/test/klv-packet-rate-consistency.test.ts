import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvPacketRateConsistency as check } from '../src/klv-packet-rate-consistency.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, handMadeKlv, regularKlv, runOnObservations, type HandMadeKlvPacket } from './klv-observations.js';

const PERIOD_MS = 1000 / 30;

/** Packet k's ms shift for a jitter burst: shifts[k] when given, else 0. */
const burst = (shifts: Record<number, number>) => (k: number) => shifts[k] ?? 0;

describe('klv-packet-rate-consistency', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('gives one point per interval, by PTS, against the detected rate', async () => {
      const { result } = await runOnObservations(check, handMadeKlv(regularKlv(40)));
      expect(result.points).to.have.length(39);
      expect(result.points.every((p) => p.type === 'klv-interval' && !p.violation && p.unit === 'ms' && Math.abs((p.value ?? 0) - PERIOD_MS) < 0.006)).to.be.true;
      expect(result.points[0].message).to.equal('KLV PID 0x0102: interval since the previous packet by PTS');
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['pass', 'KLV PID 0x0102: 30.000 Hz detected by PTS, 39 intervals']);
    });

    it('reports a dropout once, at the first packet after the gap, as an error', async () => {
      const { violations, result } = await runOnObservations(check, handMadeKlv(regularKlv(60, { drop: (k) => k >= 20 && k < 30 })));
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity])).to.deep.equal([[3000, 'klv-dropout', 'error']]);
      expect(violations[0].value).to.be.closeTo(11 * PERIOD_MS, 0.006);
      expect(violations[0].message).to.equal('KLV PID 0x0102 packet 20: 366.667 ms since packet 19 by PTS, expected 33.333 ms (30.000 Hz): dropout, about 10 packets missing');
      expect(result.summary.verdict).to.equal('fail');
    });

    it('counts one lost packet as a dropout', async () => {
      const { violations } = await runOnObservations(check, handMadeKlv(regularKlv(50, { drop: (k) => k === 40 })));
      expect(violations.map((v) => [v.packetIndex, v.type])).to.deep.equal([[4100, 'klv-dropout']]);
      expect(violations[0].message).to.match(/about 1 packet missing$/);
    });

    it('reports a jitter episode once, as a warning at its largest deviation', async () => {
      // Intervals 40-43 deviate +9, -14, +9 and -4 ms; the tolerance is 25 % of 33.3 ms (8.3 ms).
      const { result, violations } = await runOnObservations(check, handMadeKlv(regularKlv(60, { jitterMs: burst({ 40: 9, 41: -5, 42: 4 }) })));
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity])).to.deep.equal([[4100, 'klv-rate-jitter', 'warning']]);
      expect(violations[0].message).to.equal(
        'KLV PID 0x0102 packet 41: 19.333 ms since packet 40 by PTS, expected 33.333 ms (30.000 Hz): off by -14.000 ms, more than 8.333 ms; the largest of 3 off-period intervals between packets 40 and 42',
      );
      expect(result.points.filter((p) => p.type === 'klv-interval-off-rate').map((p) => [p.packetIndex, p.violation])).to.deep.equal([
        [4000, false],
        [4200, false],
      ]);
      expect(result.points.find((p) => p.packetIndex === 4000)?.message).to.match(/; part of the jitter reported at packet 41$/);
      // Held back while the episode was open, the points still come out in stream order.
      expect(result.points.map((p) => p.packetIndex)).to.deep.equal(Array.from({ length: 59 }, (_, i) => (i + 1) * 100));
      // An interval within the tolerance, held while the episode was open, is still the PID's plain interval point.
      expect(result.points.find((p) => p.packetIndex === 4300)).to.deep.include({
        type: 'klv-interval',
        violation: false,
        severity: 'info',
        unit: 'ms',
        message: 'KLV PID 0x0102: interval since the previous packet by PTS',
        citation: 'MISB ST 1402 (KLV carriage and timing); no MISB standard fixes a KLV rate: klvscope tolerance',
      });
      expect(result.points.find((p) => p.packetIndex === 4300)?.value).to.be.closeTo(29.333, 0.001);
      expect(result.summary.verdict).to.equal('warn');
    });

    it('reports two episodes more than jitterQuietMs apart twice', async () => {
      const jitter = burst({ 35: 10, 75: -10 });
      const { violations } = await runOnObservations(check, handMadeKlv(regularKlv(100, { jitterMs: jitter })));
      expect(violationsAt(violations)).to.deep.equal([
        { packetIndex: 3500, type: 'klv-rate-jitter' },
        { packetIndex: 7500, type: 'klv-rate-jitter' },
      ]);
      const merged = await runOnObservations(check, handMadeKlv(regularKlv(100, { jitterMs: jitter })), { jitterQuietMs: 2000 });
      expect(violationsAt(merged.violations)).to.deep.equal([{ packetIndex: 3500, type: 'klv-rate-jitter' }]);
    });

    it('finds jitter among the first intervals too, while the rate is still being learnt', async () => {
      // Intervals 3-5 deviate +12, -6 and -6 ms.
      const { violations } = await runOnObservations(check, handMadeKlv(regularKlv(40, { jitterMs: burst({ 3: 12, 4: 6 }) })));
      expect(violationsAt(violations)).to.deep.equal([{ packetIndex: 300, type: 'klv-rate-jitter' }]);
    });

    it('judges against expectedRateHz when the rules give it', async () => {
      const at20 = await runOnObservations(check, handMadeKlv(regularKlv(40)), { expectedRateHz: 20 });
      // Every interval is 16.7 ms short of 50 ms: one episode, reported once.
      expect(violationsAt(at20.violations)).to.deep.equal([{ packetIndex: 100, type: 'klv-rate-jitter' }]);
      expect(at20.result.summary.reason).to.equal('KLV PID 0x0102: 20.000 Hz expected by PTS, 39 intervals, 1 jitter episode');
      const at25 = await runOnObservations(check, handMadeKlv(regularKlv(40)), { expectedRateHz: 25, maxDeviationMs: 5 });
      expect(at25.violations).to.have.length(1);
      expect((await runOnObservations(check, handMadeKlv(regularKlv(40)), { expectedRateHz: 25 })).violations).to.deep.equal([]);
    });

    it('without PTS, measures by item 2, a packet without item 2 spanning two periods', async () => {
      const packets = regularKlv(40, { pts: false });
      packets[20] = { ...packets[20], timestampMicros: null };
      const { result } = await runOnObservations(check, handMadeKlv(packets));
      expect(result.summary.violations).to.equal(0);
      expect(result.points.find((p) => p.packetIndex === 2000)?.type).to.equal('klv-interval-unmeasured');
      // Item 2 is whole µs: the detected period is the median step, 33.333 ms.
      expect(result.points.find((p) => p.packetIndex === 2100)?.message).to.equal(
        'KLV PID 0x0102 packet 21: 66.667 ms since packet 19 (1 untimed in between) by item 2, expected 66.666 ms (30.000 Hz)',
      );
      expect(result.summary.reason).to.equal('KLV PID 0x0102: 30.000 Hz detected by item 2, 38 intervals');
    });

    it('by item 2, a single time stamp gone back is no interval, and a clock reset is followed', async () => {
      const reversal = await runOnObservations(check, handMadeKlv(regularKlv(50, { pts: false, shiftMicros: (k) => (k === 40 ? -500_000 : 0) })));
      expect(reversal.result.summary.violations).to.equal(0);
      expect(reversal.result.points.find((p) => p.packetIndex === 4000)?.message).to.equal('KLV PID 0x0102 packet 40: item 2 goes back 466.667 ms: no interval measured');
      const reset = await runOnObservations(check, handMadeKlv(regularKlv(50, { pts: false, shiftMicros: (k) => (k >= 40 ? -500_000 : 0) })));
      expect(reset.result.summary.violations).to.equal(0);
      // Measured from packet 40 (the reset), not from packet 39: one period.
      expect(reset.result.points.find((p) => p.packetIndex === 4100)?.value).to.be.closeTo(33.333, 0.001);
    });

    it('counts several KLV packets of one PES as one instant', async () => {
      const packets: HandMadeKlvPacket[] = regularKlv(40).flatMap((p) => [p, { ...p }]);
      const { result } = await runOnObservations(check, handMadeKlv(packets));
      expect([result.summary.points, result.summary.violations]).to.deep.equal([39, 0]);
    });

    it("shows why arrival times make a poor clock: 60 Hz packets sent in pairs every 33 ms", async () => {
      // As kwiver_h265_tricky_klv.ts's PID 0x0102: item 2 says 60 Hz, but two packets leave together.
      const packets: HandMadeKlvPacket[] = Array.from({ length: 60 }, (_, k) => ({
        packetIndex: k * 10,
        t: Math.floor(k / 2) / 30 + (k % 2) * 0.0015,
        timestampMicros: T0_MICROS + Math.round((k * 1e6) / 60),
      }));
      const byItem2 = await runOnObservations(check, handMadeKlv(packets));
      // Item 2 in whole µs steps 16.666 and 16.667 ms: the median step, 16.667 ms, reads 59.999 Hz.
      expect(byItem2.result.summary.reason).to.equal('KLV PID 0x0102: 59.999 Hz detected by item 2, 59 intervals');
      const byArrival = await runOnObservations(check, handMadeKlv(packets), { clock: 'stream-time' });
      expect(byArrival.result.summary.verdict).to.equal('fail');
    });

    it('is not applicable without two timed packets on a PID, nor without KLV', async () => {
      const one = await runOnObservations(check, handMadeKlv([{ packetIndex: 1 }]));
      expect([one.result.summary.verdict, one.result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV PID has two packets with a time to measure an interval by (1 KLV packet)']);
      const none = await runOnObservations(check, []);
      expect([none.result.summary.verdict, none.result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    const shapes = [
      { name: 'sync KLV, 188-byte packets, audio', klv: { carriage: 'sync' as const }, options: { audio: true } },
      { name: 'sync KLV, 192-byte packets', klv: { carriage: 'sync' as const }, options: { packetSize: 192 as const } },
      { name: 'async KLV with PTS, 192-byte packets, audio', klv: { carriage: 'async' as const, pts: true }, options: { audio: true, packetSize: 192 as const } },
      { name: 'async KLV without PTS (by item 2), audio', klv: { carriage: 'async' as const }, options: { audio: true } },
    ];
    for (const shape of shapes) {
      it(`finds a dropout and a jitter episode at their ground-truth packets (${shape.name})`, async () => {
        const { violations, faults } = await runCheck(check, klvFaultStream(['klv-dropout@1.2', 'klv-rate-jitter@2.5'], shape.klv, shape.options));
        expect(faults.map((f) => f.kind)).to.deep.equal(['klv-dropout', 'klv-rate-jitter']);
        expect(violationsAt(violations)).to.deep.equal([
          { packetIndex: faults[0].packetIndex, type: 'klv-dropout' },
          { packetIndex: faults[1].packetIndex, type: 'klv-rate-jitter' },
        ]);
        // The jitter violation is the ground truth's largest deviation.
        expect(Math.abs((violations[1].value ?? 0) - PERIOD_MS)).to.be.closeTo(faults[1].details?.maxDeviationMs as number, 0.006);
      });
    }

    it('finds them at 10 Hz without PTS (a 30 ms jitter: the default 10 ms is within 25 % of 100 ms)', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-dropout@1.2', 'klv-rate-jitter@2.5,amountMs=30'], { carriage: 'async', rateHz: 10 }, { packetSize: 192 }));
      expect(violationsAt(violations)).to.deep.equal([
        { packetIndex: faults[0].packetIndex, type: 'klv-dropout' },
        { packetIndex: faults[1].packetIndex, type: 'klv-rate-jitter' },
      ]);
    });

    it('finds a dropout of a single packet', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-dropout@2,durationMs=40'], { carriage: 'sync', rateHz: 25 }));
      expect(faults[0].details?.droppedPackets).to.equal(1);
      expect(violationsAt(violations)).to.deep.equal([{ packetIndex: faults[0].packetIndex, type: 'klv-dropout' }]);
    });

    it('sees a packet cut short (and so never framed) as one lost packet', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-truncated@2'], { carriage: 'sync' }));
      // klv-raw-decode-errors reports the cut packet itself; here the rhythm misses it at the next packet.
      expect(violations.map((v) => [v.type, v.value?.toFixed(3)])).to.deep.equal([['klv-dropout', '66.667']]);
      expect(violations[0].packetIndex).to.be.greaterThan(faults[0].packetIndex);
    });

    it('is not disturbed by content faults, reversals or drift', async () => {
      const specs = ['klv-checksum@0.5', 'klv-timestamp-reversal@1', 'klv-wrong-key@1.5', 'klv-missing-timestamp@2', 'klv-clock-drift@3'];
      for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const }]) {
        const { violations } = await runCheck(check, klvFaultStream(specs, klv));
        expect(violations, klv.carriage).to.deep.equal([]);
      }
    });
  });

  describe('on the real fixtures', () => {
    it('osh-addons_sample-stream.ts: 30 Hz by PTS, every interval 33.333 ms', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['pass', 'KLV PID 0x0101: 30.000 Hz detected by PTS, 276 intervals']);
    });

    it('osh-addons_sample-stream.ts by arrival time: FFmpeg sends the KLV in bursts around each PCR (every 333 ms)', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') }, { clock: 'stream-time' });
      // Why 'auto' never uses arrival times when a PTS or item 2 exists: the same packets look like 27 dropouts.
      expect(result.summary.violationsBySeverity).to.deep.equal({ info: 0, warning: 1, error: 27 });
    });

    it('kwiver_h264_klv.ts: no PTS, so item 2 times the 30 Hz rhythm', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['pass', 'KLV PID 0x0101: 30.000 Hz detected by item 2, 29 intervals']);
    });

    it('kwiver_h265_tricky_klv.ts: 30 Hz by PTS on the sync PID, 60 Hz by item 2 on the async PID sent in pairs', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') });
      // 60 packets over 0.98 s of item 2 (steps 16.666-16.668 ms: a median of 16.666 ms reads 60.002 Hz).
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal([
        'pass',
        'KLV PID 0x0102: 60.002 Hz detected by item 2, 59 intervals; KLV PID 0x0101: 30.000 Hz detected by PTS, 29 intervals',
      ]);
      const byArrival = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') }, { clock: 'stream-time' });
      // By arrival the pairs (1.4 ms, then ~31 ms) break the rhythm of PID 0x0102 everywhere.
      expect(byArrival.result.summary.verdict).to.equal('fail');
    });

    it('kwiver_aphill_klv_10s.ts: the EG 0104 packets come at 29.970 Hz by PTS', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['pass', 'KLV PID 0x0101: 29.970 Hz detected by PTS, 299 intervals']);
    });

    it('kwiver_h264_no_klv.ts: not applicable', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });
  });
});
