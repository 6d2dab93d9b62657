import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvUniversalKeyErrors as check } from '../src/klv-universal-key-errors.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { UNREGISTERED_KEY, handMadeKlv, runOnObservations, st0601Bytes, tripletBytes, T0_MICROS } from './klv-observations.js';

describe('klv-universal-key-errors', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('rates an unknown key an error, EG 0104 a warning, another MISB set informational', async () => {
      const { result, violations } = await runOnObservations(
        check,
        handMadeKlv([
          { packetIndex: 100, bytes: st0601Bytes(T0_MICROS) },
          { packetIndex: 200, bytes: tripletBytes(UNREGISTERED_KEY, Uint8Array.of(1)) },
          { packetIndex: 300, bytes: tripletBytes('eg0104-predator-uav-basic-us') },
          { packetIndex: 400, bytes: tripletBytes('st0102-security-ls', Uint8Array.of(22, 1, 17)) },
          { packetIndex: 500, bytes: st0601Bytes(T0_MICROS + 33_333) },
        ]),
      );
      expect(result.points.map((p) => [p.packetIndex, p.type, p.severity, p.violation])).to.deep.equal([
        [200, 'unknown-key', 'error', true],
        [300, 'legacy-eg0104-key', 'warning', true],
        [400, 'other-misb-key', 'info', false],
      ]);
      expect(violations[0].message).to.equal('KLV PID 0x0102 packet 1: unknown universal key 060e2b34020b01010e0103017f000000');
      expect(result.summary.verdict).to.equal('fail');
      expect(result.summary.reason).to.equal(
        '1 packet under an unknown key; 1 EG 0104 (legacy) packet: not ST 0601; 1 packet of other MISB sets (not violations); 2 of 5 KLV packets under the ST 0601 key',
      );
    });

    it('rates a run stored before the sets were named (EG 0104 and ST 0102 as klv-unknown-key) as it rates a new one', async () => {
      const named = handMadeKlv([
        { packetIndex: 300, bytes: tripletBytes('eg0104-predator-uav-basic-us') },
        { packetIndex: 400, bytes: tripletBytes('st0102-security-ls', Uint8Array.of(22, 1, 17)) },
      ]);
      const stored = named.map((o) => (o.kind === 'klv-error' && o.details?.keyHex !== undefined ? { ...o, type: 'klv-unknown-key' as const } : o));
      const pointsOf = async (observations: typeof named) => (await runOnObservations(check, observations)).result.points.map((p) => [p.packetIndex, p.type, p.severity, p.violation]);
      expect(await pointsOf(stored)).to.deep.equal(await pointsOf(named));
      expect(await pointsOf(named)).to.deep.equal([
        [300, 'legacy-eg0104-key', 'warning', true],
        [400, 'other-misb-key', 'info', false],
      ]);
    });

    it('sums a file of EG 0104 packets up in one warning sentence', async () => {
      const packets = Array.from({ length: 300 }, (_, k) => ({ packetIndex: k * 10, bytes: tripletBytes('eg0104-predator-uav-basic-us') }));
      const { result } = await runOnObservations(check, handMadeKlv(packets));
      expect(result.summary.violations).to.equal(300);
      expect(result.summary.verdict).to.equal('warn');
      expect(result.summary.reason).to.equal('300 EG 0104 (legacy) packets: not ST 0601');
    });

    it('passes ST 0601 and says so', async () => {
      const { result } = await runOnObservations(check, handMadeKlv([{ packetIndex: 1 }, { packetIndex: 2 }]));
      expect([result.summary.verdict, result.summary.reason, result.points.length]).to.deep.equal(['pass', 'all 2 KLV packets under the ST 0601 key', 0]);
    });

    it('is not applicable without KLV', async () => {
      const { result } = await runOnObservations(check, []);
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const, pts: true }, { carriage: 'async' as const }]) {
      it(`finds each unregistered key at its packet (${klv.carriage}${klv.pts ? ' with PTS' : ''})`, async () => {
        const { violations, faults, result } = await runCheck(check, klvFaultStream(['klv-wrong-key@1', 'klv-wrong-key@3'], klv, { audio: true }));
        expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'unknown-key'));
        expect(violations.map((v) => v.message)).to.deep.equal(faults.map((f) => `KLV PID 0x0102 packet ${String(f.details?.klvIndex)}: unknown universal key ${String(f.details?.keyHex)}`));
        expect(result.summary.reason).to.equal('2 packets under an unknown key; 118 of 120 KLV packets under the ST 0601 key');
      });
    }
  });

  describe('on the real fixtures', () => {
    it('kwiver_aphill_klv_10s.ts: 300 EG 0104 packets are one warning verdict, one point per packet', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      // The legacy Predator UAV Basic Universal Set (EG 0104) is decoded, so each packet is a warning (not ST 0601), not an error.
      expect(result.summary.verdict).to.equal('warn');
      expect(result.summary.reason).to.equal('300 EG 0104 (legacy) packets: not ST 0601');
      expect(result.summary.violationsBySeverity).to.deep.equal({ info: 0, warning: 300, error: 0 });
      expect(new Set(result.points.map((p) => p.type))).to.deep.equal(new Set(['legacy-eg0104-key']));
    });

    for (const [name, count] of [['osh-addons_sample-stream.ts', 277], ['kwiver_h264_klv.ts', 30], ['kwiver_h265_tricky_klv.ts', 90]] as const) {
      it(`${name}: all ${count} packets under the ST 0601 key`, async function () {
        const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', name) });
        expect([result.summary.verdict, result.summary.reason, result.points.length]).to.deep.equal(['pass', `all ${count} KLV packets under the ST 0601 key`, 0]);
      });
    }

    it('kwiver_h264_no_klv.ts: not applicable', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts') });
      expect(result.summary.verdict).to.equal('not-applicable');
    });
  });
});
