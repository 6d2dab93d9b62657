import { expect } from 'chai';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvMandatoryFieldErrors as check } from '../src/klv-mandatory-field-errors.js';
import { CLEAN_KLV_STREAMS, NO_KLV_STREAMS, faultsAt, klvFaultStream, violationsAt } from './klv-generated-streams.js';
import { T0_MICROS, handMadeKlv, rawSt0601Bytes, runOnObservations, timestampItem, tripletBytes } from './klv-observations.js';

describe('klv-mandatory-field-errors', function () {
  this.timeout(60_000);

  describe('on hand-made observations', () => {
    it('reports each missing mandatory item of a packet once, citing ST 0601', async () => {
      const { violations } = await runOnObservations(
        check,
        handMadeKlv([
          { packetIndex: 10, bytes: rawSt0601Bytes([timestampItem(T0_MICROS), [65, Uint8Array.of(17)]]) },
          { packetIndex: 20, bytes: rawSt0601Bytes([[5, Uint8Array.of(0, 0)]]) },
        ]),
      );
      expect(violations.map((v) => [v.packetIndex, v.type, v.severity, v.citation, v.message])).to.deep.equal([
        [20, 'klv-missing-mandatory', 'error', 'MISB ST 0601 item 2 (mandatory)', 'KLV PID 0x0102 packet 1: mandatory item 2 (Precision Time Stamp) missing'],
        [20, 'klv-missing-mandatory', 'error', 'MISB ST 0601 item 65 (mandatory)', 'KLV PID 0x0102 packet 1: mandatory item 65 (UAS Datalink LS Version Number) missing'],
      ]);
    });

    it('does not take an item that is there but undecodable for a missing one', async () => {
      // Item 2 of 3 bytes: the packet has no time stamp, but it carries the item.
      const { result, violations } = await runOnObservations(check, handMadeKlv([{ packetIndex: 10, bytes: rawSt0601Bytes([[2, Uint8Array.of(1, 2, 3)], [65, Uint8Array.of(17)]]) }]));
      expect(result.summary.observations).to.be.greaterThan(0);
      expect(violations).to.deep.equal([]);
    });

    it('enforces the tags a profile adds, citing the rules', async () => {
      const packets = handMadeKlv([{ packetIndex: 10 }, { packetIndex: 20, items: [{ tag: 13, value: 36.5 }] }]);
      const { violations } = await runOnObservations(check, packets, { mandatoryTags: [1, 2, 65, 13] });
      expect(violations.map((v) => [v.packetIndex, v.citation, v.message])).to.deep.equal([
        [10, 'rules: mandatoryTags (ST 0601 item 13)', 'KLV PID 0x0102 packet 0: mandatory item 13 (Sensor Latitude) missing'],
      ]);
    });

    it('is not applicable to KLV without ST 0601, nor without KLV', async () => {
      const eg0104 = await runOnObservations(check, handMadeKlv([{ packetIndex: 1, bytes: tripletBytes('eg0104-predator-uav-basic-us') }]));
      expect([eg0104.result.summary.verdict, eg0104.result.summary.reason]).to.deep.equal(['not-applicable', 'no ST 0601 packet among 1 KLV packet']);
      const none = await runOnObservations(check, []);
      expect([none.result.summary.verdict, none.result.summary.reason]).to.deep.equal(['not-applicable', 'no KLV in this source']);
    });

    it('refuses a tag ST 0601 does not define in its rules', () => {
      expect(check.rules.safeParse({ mandatoryTags: [1, 144] }).success).to.be.false;
      expect(check.rules.parse({})).to.deep.equal({ mandatoryTags: [1, 2, 65] });
    });
  });

  new CheckTester(check).cases({ valid: [...CLEAN_KLV_STREAMS, ...NO_KLV_STREAMS] });

  describe('on generated faults', () => {
    for (const klv of [{ carriage: 'sync' as const }, { carriage: 'async' as const, pts: true }, { carriage: 'async' as const }]) {
      it(`finds each packet without item 2 or item 65 at its packet (${klv.carriage}${klv.pts ? ' with PTS' : ''})`, async () => {
        const { violations, faults } = await runCheck(check, klvFaultStream(['klv-missing-timestamp@1', 'klv-missing-version@2.5'], klv, { audio: true }));
        expect(violationsAt(violations)).to.deep.equal(faultsAt(faults, 'klv-missing-mandatory'));
        expect(violations.map((v) => v.citation)).to.deep.equal(faults.map((f) => `MISB ST 0601 item ${String(f.details?.tag)} (mandatory)`));
      });
    }
  });

  describe('on the real fixtures', () => {
    for (const name of ['osh-addons_sample-stream.ts', 'kwiver_h264_klv.ts', 'kwiver_h265_tricky_klv.ts']) {
      it(`${name}: every packet carries items 1, 2 and 65`, async function () {
        const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', name) });
        expect(`${result.summary.verdict} ${result.summary.points}`).to.equal('pass 0');
      });
    }

    it('kwiver_h265_tricky_klv.ts: the small packets of PID 0x0102 (items 1, 2, 10, 65) miss what a stricter profile asks', async function () {
      const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') }, { mandatoryTags: [1, 2, 65, 3] });
      // PID 0x0101 carries the "all tags" set (item 3 included); each of the 60 packets of PID 0x0102 lacks item 3 (Mission ID).
      expect(violations).to.have.length(60);
      expect(new Set(violations.map((v) => v.pid))).to.deep.equal(new Set([0x102]));
    });

    it('kwiver_aphill_klv_10s.ts: not applicable (EG 0104, no ST 0601)', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no ST 0601 packet among 300 KLV packets']);
    });
  });
});
