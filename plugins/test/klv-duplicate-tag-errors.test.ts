import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvDuplicateTagErrors as check } from '../src/klv-duplicate-tag-errors.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, handMadeKlv, rawSt0601Bytes, runOnObservations, timestampItem } from './klv-observations.js';

describe('klv-duplicate-tag-errors', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('reports an item that may appear once, repeated, at its second appearance', async () => {
      const heading = Uint8Array.of(0x40, 0x00);
      const { violations } = await runOnObservations(
        check,
        handMadeKlv([{ packetIndex: 10, bytes: rawSt0601Bytes([timestampItem(T0_MICROS), [5, heading], [5, heading], [65, Uint8Array.of(17)]]) }]),
      );
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity])).to.deep.equal([[10, 'klv-duplicate-tag', 'error']]);
      expect(violations[0].message).to.equal('KLV PID 0x0102 packet 0: Platform Heading Angle (tag 5) appears more than once; ST 0601 allows it once per packet');
    });

    it('lets the items ST 0601 allows to repeat repeat: 100, 101, 102 and 115 (the decoder excepts them)', async () => {
      const nested = Uint8Array.of(1, 1, 0);
      const { result } = await runOnObservations(
        check,
        handMadeKlv([
          {
            packetIndex: 10,
            bytes: rawSt0601Bytes([timestampItem(T0_MICROS), [100, nested], [100, nested], [101, nested], [101, nested], [102, nested], [102, nested], [115, nested], [115, nested], [65, Uint8Array.of(17)]]),
          },
        ]),
      );
      expect(result.points).to.deep.equal([]);
      expect(result.summary.verdict).to.equal('pass');
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const, pts: true }, { carriage: 'async' as const }]) {
      it(`finds each repeated item 5 at its packet (${klv.carriage}${klv.pts ? ' with PTS' : ''})`, async () => {
        const { violations, faults } = await runCheck(check, klvFaultStream(['klv-duplicate-tag@1', 'klv-duplicate-tag@2'], klv, { packetSize: 192 }));
        expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-duplicate-tag'));
      });
    }
  });

  describe('on the real fixtures', () => {
    for (const name of ['osh-addons_sample-stream.ts', 'kwiver_h264_klv.ts', 'kwiver_h265_tricky_klv.ts', 'kwiver_aphill_klv_10s.ts']) {
      it(`${name}: no repeated item`, async function () {
        const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', name) });
        expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
      });
    }
  });
});
