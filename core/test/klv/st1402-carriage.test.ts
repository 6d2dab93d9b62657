import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { ElementaryStream, Observation, ObservationOf } from '../../src/kernel/observations.js';
import { KlvStreamDemuxer } from '../../src/klv/klv-stream-demuxer.js';
import { St1402Carriage, klvCarriageOf } from '../../src/klv/st1402-carriage.js';
import { encodeSt0601 } from '../../src/klv/st0601-packet.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';
import { parseDescriptors } from '../../src/ts/descriptors.js';
import { concatPackets, pes, pesPackets, pmtSection, patSection, psiPacket } from '../ts/packet-builder.js';

function demuxKlv(bytes: Uint8Array, chunk = 4096): Observation[] {
  const observations: Observation[] = [];
  const demuxer = new TsDemuxer((o) => observations.push(o), { payloadConsumer: new St1402Carriage() });
  for (let i = 0; i < bytes.length; i += chunk) demuxer.push(bytes.subarray(i, i + chunk));
  demuxer.end();
  return observations;
}

const of = <K extends Observation['kind']>(obs: Observation[], kind: K): ObservationOf<K>[] => obs.filter((o): o is ObservationOf<K> => o.kind === kind);

const KLVA_REGISTRATION = [0x05, 0x04, 0x4b, 0x4c, 0x56, 0x41];
const METADATA_DESCRIPTOR = [0x26, 0x09, 0x01, 0x00, 0xff, 0x4b, 0x4c, 0x56, 0x41, 0x00, 0x0f];

function stream(type: number, pid: number, descriptors: number[]): ElementaryStream {
  return { streamType: type, streamTypeName: '', pid, descriptors: parseDescriptors(Uint8Array.from(descriptors), 0, descriptors.length) ?? [] };
}

function tables(type: number, descriptors: number[]): Uint8Array[] {
  return [psiPacket(0, patSection([[1, 0x1000]])), psiPacket(0x1000, pmtSection(1, 0x1fff, [{ type, pid: 0x101, descriptors }]))];
}

const st0601 = (mission: string, stamp = 1_600_000_000_000_000): number[] => [...encodeSt0601([{ tag: 2, value: stamp }, { tag: 3, value: mission }, { tag: 65, value: 17 }])];

/** A metadata AU cell (ISO 13818-1 2.12.4): service 0, sequence, fragment indication, then the data. */
const cell = (sequence: number, fragment: number, data: number[]): number[] => [0, sequence, (fragment << 6) | 0x1f, data.length >> 8, data.length & 0xff, ...data];

describe('KLV carriage (MISB ST 1402)', () => {
  describe('which streams carry KLV, from the PMT', () => {
    it('0x15 with a KLVA metadata descriptor is synchronous; 0x06 with a KLVA registration is asynchronous', () => {
      expect(klvCarriageOf(stream(0x15, 1, METADATA_DESCRIPTOR))).to.equal('sync');
      expect(klvCarriageOf(stream(0x06, 1, KLVA_REGISTRATION))).to.equal('async');
    });

    it('a private-data or metadata stream without KLVA is not KLV', () => {
      expect(klvCarriageOf(stream(0x06, 1, []))).to.equal(null);
      expect(klvCarriageOf(stream(0x15, 1, []))).to.equal(null);
      expect(klvCarriageOf(stream(0x1b, 1, KLVA_REGISTRATION))).to.equal(null);
    });
  });

  describe('on hand-built streams', () => {
    it('joins a KLV packet that spans two asynchronous PES, at the first PES', () => {
      const p = st0601('SPANNING');
      const first = pesPackets(0x101, pes(0xbd, p.slice(0, 20)), 0);
      const second = pesPackets(0x101, pes(0xbd, p.slice(20)), 1);
      const obs = demuxKlv(concatPackets([...tables(0x06, KLVA_REGISTRATION), ...first, ...second]));
      const [packet] = of(obs, 'klv-packet');
      expect([packet.packetIndex, packet.carriage, packet.length, packet.pts90kHz]).to.deep.equal([2, 'async', p.length - 17, null]);
      expect(of(obs, 'metadata-packet').map((m) => [m.version, m.checksum?.valid])).to.deep.equal([[17, true]]);
      expect(of(obs, 'klv-error')).to.deep.equal([]);
    });

    it('reads several KLV packets from one PES', () => {
      const obs = demuxKlv(concatPackets([...tables(0x06, KLVA_REGISTRATION), ...pesPackets(0x101, pes(0xfc, [...st0601('ONE'), ...st0601('TWO')], { pts: 900 }), 0)]));
      const fields = of(obs, 'klv-field').filter((f) => f.tag === 3);
      expect(fields.map((f) => [f.value, f.klvIndex])).to.deep.equal([['ONE', 0], ['TWO', 1]]);
      expect(of(obs, 'klv-packet').map((p) => p.pts90kHz)).to.deep.equal([900, 900]);
    });

    it('reads synchronous AU cells, a whole AU and one fragmented over three cells', () => {
      const whole = st0601('WHOLE');
      const split = st0601('FRAGMENTED');
      const payload = [...cell(0, 3, whole), ...cell(1, 2, split.slice(0, 10)), ...cell(1, 0, split.slice(10, 30)), ...cell(1, 1, split.slice(30))];
      const obs = demuxKlv(concatPackets([...tables(0x15, METADATA_DESCRIPTOR), ...pesPackets(0x101, pes(0xfc, payload, { pts: 3000 }), 0)]));
      expect(of(obs, 'klv-field').filter((f) => f.tag === 3).map((f) => f.value)).to.deep.equal(['WHOLE', 'FRAGMENTED']);
      expect(of(obs, 'klv-packet').map((p) => p.carriage)).to.deep.equal(['sync', 'sync']);
      expect(of(obs, 'klv-error')).to.deep.equal([]);
    });

    it('reports garbage inside a KLV PES and still reads the packet after it', () => {
      const obs = demuxKlv(concatPackets([...tables(0x06, KLVA_REGISTRATION), ...pesPackets(0x101, pes(0xbd, [1, 2, 3, 4, 5, ...st0601('AFTER')]), 0)]));
      expect(of(obs, 'klv-error').map((e) => [e.type, e.details])).to.deep.equal([['klv-raw-decode-error', { bytes: 5 }]]);
      expect(of(obs, 'klv-field').filter((f) => f.tag === 3).map((f) => f.value)).to.deep.equal(['AFTER']);
    });

    it('reports a KLV packet cut short by the end of its access unit', () => {
      const p = st0601('SHORT');
      const obs = demuxKlv(concatPackets([...tables(0x15, METADATA_DESCRIPTOR), ...pesPackets(0x101, pes(0xfc, cell(0, 3, p.slice(0, 25)), { pts: 1 }), 0)]));
      expect(of(obs, 'klv-error').map((e) => [e.type, e.message])).to.deep.equal([
        ['klv-raw-decode-error', 'KLV packet cut short at the end of its metadata access unit (25 bytes)'],
      ]);
    });

    it('decodes a raw KLV byte stream with the offset of each key', () => {
      const a = st0601('A');
      const b = st0601('B');
      const obs: Observation[] = [];
      const d = new KlvStreamDemuxer((o) => obs.push(o));
      const bytes = Uint8Array.from([...a, 9, 9, ...b]);
      for (let i = 0; i < bytes.length; i += 7) d.push(bytes.subarray(i, i + 7));
      d.end();
      expect(of(obs, 'klv-packet').map((p) => [p.offset, p.pid, p.packetIndex, p.carriage])).to.deep.equal([[0, -1, -1, 'raw'], [a.length + 2, -1, -1, 'raw']]);
      expect(of(obs, 'klv-error').map((e) => [e.type, e.offset])).to.deep.equal([['klv-raw-decode-error', a.length]]);
    });
  });

  describe('on the real fixtures (MANIFEST.md)', () => {
    it('osh-addons_sample-stream.ts: 277 ST 0601 v4 packets, checksums valid, nested ST 0102 and ST 0903 decoded', function () {
      const obs = demuxKlv(readFileSync(fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts')));
      const meta = of(obs, 'metadata-packet');
      expect(meta).to.have.length(277);
      expect(new Set(meta.map((m) => `${m.standard} v${m.version} ${m.checksum?.valid}`))).to.deep.equal(new Set(['MISB ST 0601 v4 true']));
      expect(of(obs, 'klv-error')).to.deep.equal([]);
      const security = meta.map((m) => m.items.find((i) => i.tag === 48));
      expect(security.every((s) => s !== undefined && s.error === undefined && typeof s.value === 'object')).to.be.true;
      const vmti = meta.flatMap((m) => m.items.filter((i) => i.tag === 74));
      expect(vmti).to.have.length(37);
      expect(vmti.every((v) => v.error === undefined && typeof v.value === 'object')).to.be.true;
      expect(new Date(meta[0].timestampMicros! / 1000).toISOString()).to.equal('2012-06-29T14:32:34.100Z');
      expect(new Date(meta[276].timestampMicros! / 1000).toISOString()).to.equal('2012-06-29T14:32:43.300Z');
      expect(meta[0].items.find((i) => i.tag === 10)?.value).to.equal('VRSG 5.6');
    });

    it('kwiver_h264_klv.ts: 30 packets without PTS, items 1-142 (but 66 and 98) all known', function () {
      const obs = demuxKlv(readFileSync(fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts')));
      const meta = of(obs, 'metadata-packet');
      expect(meta).to.have.length(30);
      expect(of(obs, 'klv-packet').every((p) => p.pts90kHz === null && p.carriage === 'async')).to.be.true;
      const tags = [...new Set(meta.flatMap((m) => m.items.map((i) => i.tag)))].sort((a, b) => a - b);
      expect(tags).to.deep.equal(Array.from({ length: 142 }, (_, i) => i + 1).filter((t) => t !== 66 && t !== 98));
      expect(of(obs, 'klv-error')).to.deep.equal([]);
      expect(meta.every((m) => m.version === 17 && m.checksum?.valid)).to.be.true;
    });

    it('kwiver_h265_tricky_klv.ts: the synchronous PID with AU cells, the asynchronous PID without PTS, the empty PID', function () {
      const obs = demuxKlv(readFileSync(fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts')));
      const packets = of(obs, 'klv-packet');
      const byPid = (pid: number): typeof packets => packets.filter((p) => p.pid === pid);
      expect(byPid(0x101)).to.have.length(30);
      expect(byPid(0x101).every((p) => p.carriage === 'sync' && p.pts90kHz !== null)).to.be.true;
      expect(byPid(0x102)).to.have.length(60);
      expect(byPid(0x102).every((p) => p.carriage === 'async' && p.pts90kHz === null)).to.be.true;
      expect(byPid(0x103)).to.have.length(0);
      const small = of(obs, 'metadata-packet').filter((m) => m.pid === 0x102);
      expect(new Set(small.map((m) => m.items.map((i) => i.tag).join(',')))).to.deep.equal(new Set(['2,10,65,1']));
      expect(small[0].items.find((i) => i.tag === 10)?.value).to.equal('TEST_001');
      expect(of(obs, 'klv-error')).to.deep.equal([]);
    });

    it('kwiver_aphill_klv_10s.ts: recognised as EG 0104 and decoded, one key warning a packet, no decode error', function () {
      const obs = demuxKlv(readFileSync(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts')));
      const meta = of(obs, 'metadata-packet');
      expect(meta).to.have.length(300);
      expect(new Set(meta.map((m) => m.standard))).to.deep.equal(new Set(['MISB EG 0104']));
      const errors = of(obs, 'klv-error');
      expect(errors).to.have.length(300);
      expect(new Set(errors.map((e) => `${e.type} ${e.severity}`))).to.deep.equal(new Set(['klv-legacy-set warning']));
      expect(new Date(meta[0].timestampMicros! / 1000).toISOString()).to.equal('2008-09-17T15:23:32.027Z');
      expect(new Date(meta[299].timestampMicros! / 1000).toISOString()).to.equal('2008-09-17T15:23:42.017Z');
      const keys = new Set(meta.flatMap((m) => m.items.map((i) => (i as { keyHex?: string }).keyHex)));
      expect(keys.size).to.equal(23);
      expect(meta.every((m) => m.items.every((i) => i.error === undefined))).to.be.true;
    });
  });
});

describe('klvFields: false', () => {
  const packet = encodeSt0601([{ tag: 2, value: 1_700_000_000_000_000 }, { tag: 65, value: 19 }]);

  it('leaves out the klv-field observations of a raw KLV stream, the items still in the metadata packet', () => {
    const made = (options: { klvFields?: boolean }): Observation[] => {
      const obs: Observation[] = [];
      const d = new KlvStreamDemuxer((o) => obs.push(o), options);
      d.push(packet);
      d.end();
      return obs;
    };
    const all = made({});
    expect(all.filter((o) => o.kind === 'klv-field')).to.have.length(3);
    expect(made({ klvFields: false })).to.deep.equal(all.filter((o) => o.kind !== 'klv-field'));
  });
});
