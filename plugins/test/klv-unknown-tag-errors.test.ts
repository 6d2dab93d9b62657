import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvUnknownTagErrors as check } from '../src/klv-unknown-tag-errors.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, handMadeKlv, rawSt0601Bytes, runOnObservations, timestampItem, tripletBytes } from './klv-observations.js';

describe('klv-unknown-tag-errors', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('reports each undefined tag as a warning at its packet', async () => {
      const { result, violations } = await runOnObservations(
        check,
        handMadeKlv([
          { packetIndex: 10, bytes: rawSt0601Bytes([timestampItem(T0_MICROS), [150, Uint8Array.of(7)], [65, Uint8Array.of(17)]]) },
          { packetIndex: 20, bytes: rawSt0601Bytes([timestampItem(T0_MICROS + 1000), [143, Uint8Array.of(0, 0, 0, 0)], [65, Uint8Array.of(17)]]) },
        ]),
      );
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity, v.value])).to.deep.equal([[10, 'klv-unknown-tag', 'warning', null]]);
      expect(violations[0].message).to.equal('KLV PID 0x0102 packet 0: tag 150 is not defined by MISB ST 0601');
      expect(result.summary.verdict).to.equal('warn');
    });

    it('is not applicable when no packet is a decoded set', async () => {
      const { result } = await runOnObservations(check, handMadeKlv([{ packetIndex: 1, bytes: tripletBytes('st0102-security-ls', Uint8Array.of(22, 1, 17)) }]));
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no ST 0601, ST 0903 or EG 0104 set among 1 KLV packet']);
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const }]) {
      it(`finds each undefined tag 150 at its packet (${klv.carriage})`, async () => {
        const { violations, faults, result } = await runCheck(check, klvFaultStream(['klv-unknown-tag@0.5', 'klv-unknown-tag@3.5'], klv, { audio: true }));
        expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-unknown-tag'));
        expect(result.summary.violationsBySeverity).to.deep.equal({ info: 0, warning: 2, error: 0 });
      });
    }
  });

  describe('on the real fixtures', () => {
    it('kwiver_h264_klv.ts: every tag 1-142 but 66 and 98, the two-byte BER-OID tags 128-142 included, is defined', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts') });
      expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
    });

    for (const name of ['osh-addons_sample-stream.ts', 'kwiver_h265_tricky_klv.ts', 'kwiver_aphill_klv_10s.ts']) {
      it(`${name}: no undefined tag`, async function () {
        const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', name) });
        expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
      });
    }
  });
});
