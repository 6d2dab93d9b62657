import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvChecksumErrors as check } from '../src/klv-checksum-errors.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, handMadeKlv, rawSt0601Bytes, runOnObservations, timestampItem, tripletBytes } from './klv-observations.js';

const hex4 = (n: unknown): string => (n as number).toString(16).toUpperCase().padStart(4, '0');

describe('klv-checksum-errors', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('reports a wrong item 1 once, with the stored and the computed sum in the message and no value', async () => {
      const items: Array<[number, Uint8Array]> = [timestampItem(T0_MICROS), [65, Uint8Array.of(17)]];
      const good = rawSt0601Bytes(items);
      const computed = (good[good.length - 2] << 8) | good[good.length - 1];
      const { violations } = await runOnObservations(check, handMadeKlv([{ packetIndex: 10, bytes: good }, { packetIndex: 20, bytes: rawSt0601Bytes(items, 0x1234) }]));
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity, v.value, v.unit, v.citation])).to.deep.equal([
        [20, 'klv-checksum-error', 'error', null, null, 'MISB ST 0601 item 1 (checksum)'],
      ]);
      expect(violations[0].message).to.equal(`KLV PID 0x0102 packet 1: checksum stored 0x1234, computed 0x${hex4(computed)}`);
    });

    it('is not applicable to KLV without ST 0601, nor without KLV', async () => {
      const eg0104 = await runOnObservations(check, handMadeKlv([{ packetIndex: 1, bytes: tripletBytes('eg0104-predator-uav-basic-us') }]));
      expect([eg0104.result.summary.verdict, eg0104.result.summary.reason]).to.deep.equal(['not-applicable', 'no ST 0601 packet among 1 KLV packet']);
      const none = await runOnObservations(check, []);
      expect([none.result.summary.verdict, none.result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const, pts: true }, { carriage: 'async' as const }]) {
      for (const packetSize of [188, 192] as const) {
        it(`finds each bad checksum at its packet (${klv.carriage}${klv.pts ? ' with PTS' : ''}, ${packetSize}-byte packets)`, async () => {
          const { violations, faults } = await runCheck(check, klvFaultStream(['klv-checksum@1', 'klv-checksum@2.5'], klv, { audio: true, packetSize }));
          expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-checksum-error'));
          expect(violations.map((v) => v.message)).to.deep.equal(
            faults.map((f) => `KLV PID 0x0102 packet ${String(f.details?.klvIndex)}: checksum stored 0x${hex4(f.details?.storedChecksum)}, computed 0x${hex4(f.details?.computedChecksum)}`),
          );
        });
      }
    }

    it('leaves the other content faults to their checks', async () => {
      const { violations } = await runCheck(check, klvFaultStream(['klv-unknown-tag@1', 'klv-duplicate-tag@1.5', 'klv-missing-version@2', 'klv-wrong-key@3'], { carriage: 'sync' }));
      expect(violations).to.deep.equal([]);
    });
  });

  describe('on the real fixtures', () => {
    for (const [name, packets] of [['osh-addons_sample-stream.ts', 277], ['kwiver_h264_klv.ts', 30], ['kwiver_h265_tricky_klv.ts', 90]] as const) {
      it(`${name}: all ${packets} ST 0601 checksums are right`, async function () {
        const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', name) });
        expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
      });
    }

    it('kwiver_aphill_klv_10s.ts: not applicable, EG 0104 has no checksum', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no ST 0601 packet among 300 KLV packets']);
    });
  });
});
