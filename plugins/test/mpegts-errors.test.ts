import { expect } from 'chai';
import { createKlvAwareTsDemuxer, generateTransportStream, writePcr, type Observation } from '@klvscope/core';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsErrors as check } from '../src/mpegts-errors.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({ valid: CLEAN_STREAMS });

  const byType: Array<[string, string]> = [
    ['drop-packet@2', 'continuity-error'],
    ['tei@2', 'transport-error'],
    ['sync-byte@2', 'sync-byte-error'],
    ['psi-crc@2', 'psi-crc-error'],
    ['pat-gap@2', 'pat-missing'],
    ['pmt-gap@2', 'pmt-missing'],
    ['pcr-jump-forward@2', 'pcr-discontinuity'],
    ['pcr-jump-backward@2', 'pcr-discontinuity'],
    ['pts-gap@2', 'pts-repetition'],
  ];
  for (const [fault, type] of byType) {
    it(`reports ${fault} as one '${type}' at its exact packet`, async () => {
      const { violations, faults } = await runCheck(check, withFault(fault));
      expect(violations.map((v) => [v.type, v.packetIndex])).to.deep.equal([[type, faults[0].packetIndex]]);
    });
  }

  it('reports a PCR gap as PCR repetition (2.3a) and, its values over 100 ms apart, PCR discontinuity (2.3b), both at the first PCR after it', async () => {
    const { violations, faults } = await runCheck(check, withFault('pcr-gap@2'));
    expect(violations.map((v) => [v.type, v.packetIndex])).to.deep.equal([
      ['pcr-repetition', faults[0].packetIndex],
      ['pcr-discontinuity', faults[0].packetIndex],
    ]);
  });

  it('notes a duplicate packet as information, not a violation', async () => {
    const { violations, result, faults } = await runCheck(check, withFault('duplicate-packet@2'));
    expect(violations).to.deep.equal([]);
    expect(result.points.map((p) => [p.type, p.severity, p.packetIndex])).to.deep.equal([['duplicate-packet', 'info', faults[0].packetIndex]]);
  });

  it('reports a PCR 1 µs off the constant-bitrate line as a PCR accuracy error', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 3, bitrate: 3_000_000, seed: 5 });
    const pcrs: Array<Extract<Observation, { kind: 'pcr' }>> = [];
    const demuxer = createKlvAwareTsDemuxer((o) => {
      if (o.kind === 'pcr') pcrs.push(o);
    });
    demuxer.push(bytes);
    demuxer.end();
    const target = pcrs[40];
    // The PCR field follows the 6-byte TS header and adaptation field start (ISO 13818-1 2.4.3.4-5).
    writePcr(bytes, target.offset + 6, target.pcr27MHz + 27);
    const { violations } = await runCheck(check, bytes);
    expect(violations.map((v) => [v.type, v.packetIndex, Math.round(v.value ?? 0)])).to.deep.equal([['pcr-accuracy', target.packetIndex, 1000]]);
  });

  it('reports PID 0x103 of kwiver_h265_tricky_klv.ts, declared but never carried, once', async function () {
    const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') });
    expect(violations.map((v) => [v.type, v.message])).to.deep.equal([['pid-missing', 'PID 0x0103 is declared in the PMT but never carried']]);
  });

  it('finds on the osh sample only its 333 ms PCR repetition and steps (TR 101 290 2.3a/2.3b), no accuracy error on its variable rate', async function () {
    const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
    const types = new Set(result.points.map((p) => p.type));
    expect([...types].sort()).to.deep.equal(['pcr-discontinuity', 'pcr-repetition']);
    expect(result.summary.violations).to.equal(54);
  });
});
