import { expect } from 'chai';
import { generateTransportStream, parseFaultSpec, writePcr, type GeneratorOptions } from '@klvscope/core';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsErrors as check } from '../src/mpegts-errors.js';
import { MPEGTS_ERROR_POINT_TYPES } from '../src/mpegts-error-types.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { EditableStream, MORE_CLEAN_STREAMS, observationsOf, pcrOffsetFault, privateDataStream, signalledPcrJumpFault, withOwnFault } from './mpegts-test-streams.js';

const base: GeneratorOptions = { durationSeconds: 3, bitrate: 3_000_000, seed: 11 };
const VIDEO = 0x100;
const PMT = 0x1000;

describe('mpegts-errors', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: [...CLEAN_STREAMS, ...MORE_CLEAN_STREAMS],
  });

  describe('the problems the parser reports, one point each with its TR 101 290 or ISO/IEC 13818-1 clause', () => {
    const byFault: Array<[string, string, string]> = [
      ['drop-packet@2', 'continuity-error', 'ETSI TR 101 290 5.2.1 1.4'],
      ['tei@2', 'transport-error', 'ETSI TR 101 290 5.2.2 2.1'],
      ['sync-byte@2', 'sync-byte-error', 'ETSI TR 101 290 5.2.1 1.2'],
      ['psi-crc@2', 'psi-crc-error', 'ETSI TR 101 290 5.2.2 2.2'],
    ];
    for (const [fault, type, citation] of byFault) {
      it(`reports ${fault} as one '${type}' at its exact packet, citing ${citation}`, async () => {
        const { violations, faults } = await runCheck(check, withFault(fault));
        expect(violations.map((v) => [v.type, v.packetIndex, v.severity, v.citation])).to.deep.equal([[type, faults[0].packetIndex, 'error', citation]]);
      });
    }

    it('notes a duplicate packet as information (ISO/IEC 13818-1 2.4.3.3 allows one), not a violation', async () => {
      const { violations, result, faults } = await runCheck(check, withFault('duplicate-packet@2'));
      expect(violations).to.deep.equal([]);
      expect(result.points.map((p) => [p.type, p.severity, p.packetIndex])).to.deep.equal([['duplicate-packet', 'info', faults[0].packetIndex]]);
      expect(result.summary.verdict).to.equal('pass');
    });

    it("reports 50 junk bytes between two packets as one 'sync-loss' (1.1) at the packet that should have followed, valued in bytes", async () => {
      const clean = generateTransportStream(base).bytes;
      const cut = 2000 * 188;
      const bytes = new Uint8Array(clean.length + 50);
      bytes.set(clean.subarray(0, cut), 0);
      bytes.fill(0x55, cut, cut + 50);
      bytes.set(clean.subarray(cut), cut + 50);
      const { violations } = await runCheck(check, bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.offset, v.value, v.unit, v.citation])).to.deep.equal([
        ['sync-loss', 2000, cut, 50, 'bytes', 'ETSI TR 101 290 5.2.1 1.1'],
      ]);
    });

    it("reports a scrambled PAT packet as 'pat-error' (1.3.a)", async () => {
      const s = new EditableStream(base);
      const index = s.find(4000, (i) => s.pid(i) === 0);
      s.scramble(index);
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.citation])).to.deep.equal([['pat-error', index, 'ETSI TR 101 290 5.2.1 1.3.a']]);
    });

    it("reports a scrambled PMT packet as 'pmt-error' (1.5.a)", async () => {
      const s = new EditableStream(base);
      const index = s.find(4000, (i) => s.pid(i) === PMT);
      s.scramble(index);
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.citation])).to.deep.equal([['pmt-error', index, 'ETSI TR 101 290 5.2.1 1.5.a']]);
    });

    it("notes scrambled video once as 'scrambled-packet' information (ISO/IEC 13818-1 2.4.3.3)", async () => {
      const s = new EditableStream(base);
      const index = s.findPlainPayload(4000, VIDEO);
      s.scramble(index);
      const { violations, result } = await runCheck(check, s.bytes);
      expect(violations).to.deep.equal([]);
      expect(result.points.map((p) => [p.type, p.packetIndex, p.severity, p.citation])).to.deep.equal([['scrambled-packet', index, 'info', 'ISO/IEC 13818-1 2.4.3.3']]);
    });

    it("reports a PAT whose pointer_field points past the packet as 'malformed-psi-section' (ISO/IEC 13818-1 2.4.4)", async () => {
      const s = new EditableStream(base);
      const index = s.find(4000, (i) => s.pid(i) === 0 && s.unitStart(i));
      s.bytes[s.payloadPos(index)] = 200;
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.citation])).to.deep.equal([['malformed-psi-section', index, 'ISO/IEC 13818-1 2.4.4']]);
    });

    it("reports a video PES without its start code as 'malformed-pes-header' (ISO/IEC 13818-1 2.4.3.7)", async () => {
      const s = new EditableStream(base);
      const index = s.find(4000, (i) => s.pid(i) === VIDEO && s.unitStart(i));
      s.bytes[s.payloadPos(index) + 2] = 0x02;
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.citation])).to.deep.equal([['malformed-pes-header', index, 'ISO/IEC 13818-1 2.4.3.7']]);
    });

    it("reports an adaptation-only packet with a short adaptation_field_length as 'malformed-adaptation-field' (ISO/IEC 13818-1 2.4.3.5)", async () => {
      const s = new EditableStream(base);
      const index = s.find(4000, (i) => s.adaptationFieldControl(i) === 2 && s.bytes[s.offset(i) + 4] === 183);
      // '10' (adaptation field only) needs adaptation_field_length 183; the PCR still fits in 7 bytes.
      s.bytes[s.offset(index) + 4] = 7;
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.citation])).to.deep.equal([['malformed-adaptation-field', index, 'ISO/IEC 13818-1 2.4.3.5']]);
    });

    it("warns of a last packet cut short as 'truncated-packet' (ISO/IEC 13818-1 2.4.3.2), valued in bytes", async () => {
      const clean = generateTransportStream(base).bytes;
      const bytes = clean.subarray(0, clean.length - 100);
      const last = clean.length / 188 - 1;
      const { violations, result } = await runCheck(check, bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.severity, v.value, v.unit, v.citation])).to.deep.equal([
        ['truncated-packet', last, 'warning', 88, 'bytes', 'ISO/IEC 13818-1 2.4.3.2'],
      ]);
      expect(result.summary.verdict).to.equal('warn');
    });
  });

  describe('the TR 101 290 timing indicators', () => {
    it("reports a 1 s PAT gap as 'pat-missing' (1.3.a) at the first PAT after it, valued in ms", async () => {
      const { violations, faults } = await runCheck(check, withFault('pat-gap@2'));
      expect(violations.map((v) => [v.type, v.packetIndex, v.pid, v.unit, v.citation])).to.deep.equal([
        ['pat-missing', faults[0].packetIndex, 0, 'ms', 'ETSI TR 101 290 5.2.1 1.3.a'],
      ]);
      // Ten PATs left out of a 100 ms carousel: 11 carousel periods of 98.763 ms (whole 188-byte slots at 3 Mb/s).
      expect(violations[0].value).to.equal(1086.389333);
    });

    it("reports a 1 s PMT gap as 'pmt-missing' (1.5.a) at the first PMT after it", async () => {
      const { violations, faults } = await runCheck(check, withFault('pmt-gap@2'));
      expect(violations.map((v) => [v.type, v.packetIndex, v.pid, v.citation])).to.deep.equal([['pmt-missing', faults[0].packetIndex, PMT, 'ETSI TR 101 290 5.2.1 1.5.a']]);
    });

    it("reports a stream without any PAT once, as 'pat-missing' at the end of the data", async () => {
      const s = new EditableStream(base);
      s.movePid(0, 0x1fff);
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.message])).to.deep.equal([['pat-missing', s.packetCount, 'no PAT section in the data']]);
    });

    it('reports a PAT that stops as a gap running to the end of the data', async () => {
      const s = new EditableStream(base);
      s.movePid(0, 0x1fff, 4000);
      const { violations } = await runCheck(check, s.bytes);
      // The last PAT came at about 1.98 s (packet 3951); the data ends at 3.0 s, after packet 5984.
      expect(violations.map((v) => [v.type, v.packetIndex, v.value, v.message])).to.deep.equal([
        ['pat-missing', s.packetCount, 1025.226667, 'PAT (to the end of the data) missing for 1025.227 ms (limit 250 ms)'],
      ]);
    });

    it("reports a PMT PID the PAT names but that carries no PMT once, as 'pmt-missing' at the PAT", async () => {
      const s = new EditableStream(base);
      s.movePid(PMT, 0x1001);
      const { violations } = await runCheck(check, s.bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.pid, v.message])).to.deep.equal([
        ['pmt-missing', 0, PMT, 'PID 0x1000 is named in the PAT but carries no PMT'],
      ]);
    });

    it("reports an elementary stream the PMT declares but never carries once, as 'pid-missing' (1.6) at the PMT", async () => {
      const { violations } = await runCheck(check, { generate: { ...base, extraStreams: [privateDataStream(0x104)] } });
      expect(violations.map((v) => [v.type, v.packetIndex, v.pid, v.value, v.message])).to.deep.equal([
        ['pid-missing', 1, 0x104, null, 'PID 0x0104 is declared in the PMT but never carried'],
      ]);
    });

    it("reports a KLV dropout longer than pidMaxGapMs as 'pid-missing' at the first KLV PES after it (and, its PES carrying PTS, as 'pts-repetition')", async () => {
      const input = { generate: { ...base, durationSeconds: 4, klv: {}, faults: [parseFaultSpec('klv-dropout@2', ['klv-dropout'])] } };
      const { violations, faults } = await runCheck(check, input, { pidMaxGapMs: 500 });
      expect(violations.map((v) => [v.type, v.packetIndex, v.pid, v.value])).to.deep.equal([
        ['pid-missing', faults[0].packetIndex, 0x102, 1033.749333],
        ['pts-repetition', faults[0].packetIndex, 0x102, 1033.749333],
      ]);
    });

    it('reports an elementary stream that stops as a gap running to the end of the data', async () => {
      const input = { generate: { ...base, extraStreams: [privateDataStream(0x104, { untilSeconds: 1 })] } };
      const { violations } = await runCheck(check, input, { pidMaxGapMs: 1000 });
      // A PES every 100 ms up to about 1 s, the last sent at 1.0 s; the data ends at 3 s, after packet 5984.
      expect(violations.map((v) => [v.type, v.pid, v.packetIndex, v.value])).to.deep.equal([['pid-missing', 0x104, 5985, 2000.32]]);
    });

    it("reports a PCR gap as 'pcr-repetition' (2.3a) and, its values over 100 ms apart, 'pcr-discontinuity' (2.3b), both at the first PCR after it", async () => {
      const { violations, faults } = await runCheck(check, withFault('pcr-gap@2'));
      expect(violations.map((v) => [v.type, v.packetIndex, v.value, v.citation])).to.deep.equal([
        ['pcr-repetition', faults[0].packetIndex, 237.632, 'ETSI TR 101 290 5.2.2 2.3a'],
        ['pcr-discontinuity', faults[0].packetIndex, 237.632, 'ETSI TR 101 290 5.2.2 2.3b'],
      ]);
    });

    it('reports a short PCR gap only as repetition under the TR 101 290 limit of 40 ms', async () => {
      const { violations, faults } = await runCheck(check, withFault('pcr-gap@2,durationMs=50'), { pcrMaxIntervalMs: 40 });
      expect(violations.map((v) => [v.type, v.packetIndex, v.value])).to.deep.equal([['pcr-repetition', faults[0].packetIndex, 79.210667]]);
    });

    for (const [fault, value] of [['pcr-jump-forward@2', 1039.605333], ['pcr-jump-backward@2', -960.394667]] as const) {
      it(`reports ${fault} as one 'pcr-discontinuity' (2.3b) at its exact packet, valued by the PCR step`, async () => {
        const { violations, faults } = await runCheck(check, withFault(fault));
        expect(violations.map((v) => [v.type, v.packetIndex, v.value])).to.deep.equal([['pcr-discontinuity', faults[0].packetIndex, value]]);
      });
    }

    it('accepts a PCR jump announced by discontinuity_indicator', async () => {
      const input = withOwnFault({ kind: 'pcr-jump-signalled', atSeconds: 2 }, signalledPcrJumpFault);
      const { violations, faults } = await runCheck(check, input);
      expect(faults.map((f) => f.kind)).to.deep.equal(['pcr-jump-signalled']);
      expect(violations).to.deep.equal([]);
    });

    it("reports a PCR 2 µs off the constant-bitrate line as one 'pcr-accuracy' (2.4) at its exact packet, valued in ns", async () => {
      const input = withOwnFault({ kind: 'pcr-offset', atSeconds: 2, amountMs: 0.002 }, pcrOffsetFault);
      const { violations, faults } = await runCheck(check, input);
      expect(violations.map((v) => [v.type, v.packetIndex, v.value, v.unit, v.citation])).to.deep.equal([
        ['pcr-accuracy', faults[0].packetIndex, 2000, 'ns', 'ETSI TR 101 290 5.2.2 2.4'],
      ]);
    });

    it('reports a PCR 1 µs off (written into the bytes) as a PCR accuracy error, and not one 400 ns off', async () => {
      const { bytes } = generateTransportStream(base);
      const pcrs = observationsOf(bytes, 'pcr');
      const [bad, fine] = [pcrs[40], pcrs[60]];
      // The PCR field follows the 4-byte header, adaptation_field_length and the flags (ISO/IEC 13818-1 2.4.3.4).
      writePcr(bytes, bad.offset + 6, bad.pcr27MHz + 27);
      writePcr(bytes, fine.offset + 6, fine.pcr27MHz + 11);
      const { violations } = await runCheck(check, bytes);
      expect(violations.map((v) => [v.type, v.packetIndex, v.value])).to.deep.equal([['pcr-accuracy', bad.packetIndex, 1000]]);
    });

    it("reports a 1 s stretch of video PES without PTS as one 'pts-repetition' (2.5) at the first PES with a PTS after it", async () => {
      const { violations, faults } = await runCheck(check, withFault('pts-gap@2'));
      expect(violations.map((v) => [v.type, v.packetIndex, v.pid, v.citation])).to.deep.equal([['pts-repetition', faults[0].packetIndex, VIDEO, 'ETSI TR 101 290 5.2.2 2.5']]);
    });
  });

  it('types every point with one of MPEGTS_ERROR_POINT_TYPES, the list the detail endpoint filters by', async () => {
    const faults = ['drop-packet@0.5', 'duplicate-packet@0.8', 'tei@1', 'sync-byte@1.2', 'psi-crc@1.4', 'pat-gap@1.6', 'pmt-gap@2.8', 'pcr-gap@4', 'pts-gap@4.5'];
    const { result } = await runCheck(check, { generate: { ...base, durationSeconds: 6, faults: faults.map((f) => parseFaultSpec(f)) } });
    const types = new Set(result.points.map((p) => p.type));
    expect(types.size).to.be.greaterThan(8);
    expect([...types].filter((type) => type === undefined || !MPEGTS_ERROR_POINT_TYPES.includes(type))).to.deep.equal([]);
  });

  describe('on the real fixtures', () => {
    it('reports PID 0x0103 of kwiver_h265_tricky_klv.ts, declared but never carried, once', async function () {
      const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') });
      expect(violations.map((v) => [v.type, v.pid, v.message])).to.deep.equal([['pid-missing', 0x103, 'PID 0x0103 is declared in the PMT but never carried']]);
    });

    it('finds on the osh sample only its 333 ms PCR repetition and steps (2.3a/2.3b), no accuracy error on its variable rate', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
      // FFmpeg put a PCR on every 10th video frame: 27 intervals of 333 ms, each also a PCR step over
      // 100 ms. Its rate varies from PCR to PCR (no stretch of 5 PCRs on one line): never judged for 2.4.
      const count = (type: string): number => result.points.filter((p) => p.type === type).length;
      expect([count('pcr-repetition'), count('pcr-discontinuity'), result.summary.violations]).to.deep.equal([27, 27, 54]);
    });

    it('finds on the aphill cut its 1 fps PCR and PTS cadence and its two holes in the PAT/PMT cadence', async function () {
      const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
      // One video frame per second: 9 PCR intervals and steps of 1 s, 9 video PTS 1 s apart. The
      // tables: the PAT and PMT before the first PCR and the next ones ~0.5 s later, then another
      // ~0.5 s hole a second in; beyond 250 ms each time.
      const byType: Record<string, number> = {};
      for (const p of result.points) byType[p.type ?? ''] = (byType[p.type ?? ''] ?? 0) + 1;
      expect(byType).to.deep.equal({ 'pat-missing': 2, 'pmt-missing': 2, 'pcr-repetition': 9, 'pcr-discontinuity': 9, 'pts-repetition': 9 });
    });
  });
});
