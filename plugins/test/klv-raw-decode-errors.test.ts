import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvRawDecodeErrors as check } from '../src/klv-raw-decode-errors.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { handMadeKlv, handMadeKlvError, regularKlv, runOnObservations } from './klv-observations.js';

describe('klv-raw-decode-errors', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('reports each raw decode error once, with the bytes skipped as its value', async () => {
      const { result, violations } = await runOnObservations(check, [
        ...handMadeKlv(regularKlv(3)),
        handMadeKlvError('klv-raw-decode-error', 350, 'no universal label where a key should start (12 bytes)', { bytes: 12 }),
        handMadeKlvError('klv-raw-decode-error', 420, 'metadata AU cell of 80 bytes runs past the PES payload', { available: 40 }),
      ]);
      expect(violations.map((v) => [v.packetIndex, v.value, v.unit, v.severity, v.type])).to.deep.equal([
        [350, 12, 'bytes', 'error', 'klv-raw-decode-error'],
        [420, null, null, 'error', 'klv-raw-decode-error'],
      ]);
      expect(violations[0].message).to.equal('KLV PID 0x0102: no universal label where a key should start (12 bytes)');
      expect(violations[0].citation).to.equal('SMPTE ST 336 (KLV key, BER length, value framing)');
      expect(result.summary.verdict).to.equal('fail');
    });

    it('ignores the other KLV problems', async () => {
      const { result } = await runOnObservations(check, [...handMadeKlv(regularKlv(2)), handMadeKlvError('klv-checksum-error', 150, 'checksum stored 0x0000, computed 0x1234')]);
      expect(result.points).to.have.length(0);
      expect(result.summary.verdict).to.equal('pass');
    });

    it('applies to a KLV stream where no packet could be framed at all', async () => {
      const { result } = await runOnObservations(check, [handMadeKlvError('klv-raw-decode-error', 5, 'no universal label (184 bytes)', { bytes: 184 })]);
      expect(result.summary.verdict).to.equal('fail');
      expect(result.summary.violations).to.equal(1);
    });

    it('is not applicable without KLV', async () => {
      const { result } = await runOnObservations(check, []);
      expect(result.summary.verdict).to.equal('not-applicable');
      expect(result.summary.reason).to.equal('no KLV in this source');
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    it('finds each packet cut short in its metadata AU cell at its packet, with the bytes sent', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-truncated@1.5', 'klv-truncated@3'], { carriage: 'sync' }, { audio: true }));
      expect(faults).to.have.length(2);
      expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-raw-decode-error'));
      expect(violations.map((v) => v.value)).to.deep.equal(faults.map((f) => f.details?.bytesSent));
    });

    it('finds it in 192-byte packets too', async () => {
      const { violations, faults } = await runCheck(check, klvFaultStream(['klv-truncated@2'], { carriage: 'sync' }, { packetSize: 192 }));
      expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-raw-decode-error'));
    });

    it('is not fooled by the content faults: they frame as KLV', async () => {
      const specs = ['klv-checksum@0.5', 'klv-unknown-tag@1', 'klv-duplicate-tag@1.5', 'klv-missing-timestamp@2', 'klv-wrong-key@3'];
      for (const carriage of ['sync', 'async'] as const) {
        const { violations } = await runCheck(check, klvFaultStream(specs, { carriage }));
        expect(violations, carriage).to.deep.equal([]);
      }
    });
  });

  describe('on the real fixtures', () => {
    for (const name of ['osh-addons_sample-stream.ts', 'kwiver_h264_klv.ts', 'kwiver_h265_tricky_klv.ts']) {
      it(`${name}: every KLV byte frames (pass, no point)`, async function () {
        const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', name) });
        expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
      });
    }

    it('kwiver_aphill_klv_10s.ts: the 300 EG 0104 packets are decoded, not a storm of decode errors', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      // A legacy universal set is still KLV: its key is a warning of klv-universal-key-errors, not bytes that are not KLV.
      expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
    });

    it('kwiver_h264_no_klv.ts: not applicable', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });
  });
});
