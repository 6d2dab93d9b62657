/**
 * The generator's KLV stream read back by the analyzer (TsDemuxer with MISB
 * ST 1402 carriage): clean streams give no problem, one ST 0601 packet per
 * period, every value in range, and item 2 running with the PTS.
 */
import { expect } from 'chai';
import { generateTransportStream, type GeneratorOptions } from '../../src/gen/index.js';
import { DEFAULT_KLV_START_TIME_MICROS, type KlvStreamOptions } from '../../src/gen/klv-stream-options.js';
import type { Observation, ObservationOf } from '../../src/kernel/observations.js';
import { St1402Carriage, klvCarriageOf } from '../../src/klv/st1402-carriage.js';
import { st0601Item } from '../../src/klv/st0601-items.js';
import { demux, ofKind } from '../ts/demux-helper.js';

const KLV_PID = 0x102;
const ITEM_TAGS = [2, 3, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25, 65, 1];

function analyze(options: GeneratorOptions): Observation[] {
  const { bytes } = generateTransportStream(options);
  return demux(bytes, 65536, { payloadConsumer: new St1402Carriage() });
}

function problems(obs: Observation[]): Observation[] {
  return obs.filter((o) => o.kind === 'ts-error' || o.kind === 'klv-error');
}

/** Item 2 minus the PTS, in µs (a constant when the metadata clock runs with the video clock). */
function timestampMinusPts(m: ObservationOf<'metadata-packet'>): number {
  return (m.timestampMicros as number) - ((m.pts90kHz as number) * 100) / 9;
}

describe('the generated KLV stream', function () {
  this.timeout(60_000);

  const carriages: Array<[string, KlvStreamOptions]> = [
    ['synchronous', { carriage: 'sync' }],
    ['asynchronous without PTS', { carriage: 'async' }],
    ['asynchronous with PTS', { carriage: 'async', pts: true }],
  ];
  for (const [name, klv] of carriages) {
    for (const packetSize of [188, 192] as const) {
      for (const audio of [false, true]) {
        it(`is clean ${name} with ${packetSize}-byte packets${audio ? ' and audio' : ''}: 120 valid ST 0601 packets in 4 s`, () => {
          const obs = analyze({ durationSeconds: 4, bitrate: 2_000_000, packetSize, audio, seed: 3, klv });
          expect(problems(obs)).to.deep.equal([]);
          const packets = ofKind(obs, 'klv-packet');
          expect(packets.map((p) => p.klvIndex)).to.deep.equal([...Array(120).keys()]);
          expect(packets.every((p) => p.pid === KLV_PID && p.carriage === klv.carriage && p.keyName === 'st0601-uas-datalink-ls')).to.be.true;
          const metadata = ofKind(obs, 'metadata-packet');
          expect(metadata).to.have.length(120);
          expect(metadata.every((m) => m.checksum?.valid === true && m.version === 17)).to.be.true;
          expect(metadata.every((m) => m.items.map((i) => i.tag).join() === ITEM_TAGS.join())).to.be.true;
          expect(metadata[0].timestampMicros).to.equal(DEFAULT_KLV_START_TIME_MICROS);
          if (klv.pts === false || (klv.carriage === 'async' && klv.pts !== true)) {
            expect(metadata.every((m) => m.pts90kHz === null)).to.be.true;
          } else {
            const offsets = metadata.map(timestampMinusPts);
            expect(Math.max(...offsets) - Math.min(...offsets)).to.be.at.most(1);
          }
        });
      }
    }
  }

  it('decodes every item back in its ST 0601 range', () => {
    const obs = analyze({ durationSeconds: 4, bitrate: 2_000_000, klv: {} });
    const outOfRange = ofKind(obs, 'klv-field').filter((f) => {
      const range = st0601Item(f.tag)?.range;
      return range && !(typeof f.value === 'number' && f.value >= range.min && f.value <= range.max);
    });
    expect(outOfRange).to.deep.equal([]);
    const first = ofKind(obs, 'metadata-packet')[0].items;
    expect(first.filter((i) => typeof i.value === 'string').map((i) => [i.tag, i.value])).to.deep.equal([
      [3, 'KLVSCOPE-SYN-01'],
      [10, 'MQ-1C'],
      [11, 'EO'],
      [12, 'Geodetic WGS84'],
    ]);
  });

  it('flies a smooth orbit: a steady turn at altitude, the sensor on a point 2 to 4 km away', () => {
    const obs = analyze({ durationSeconds: 10, bitrate: 1_000_000, klv: { rateHz: 10 } });
    const values = ofKind(obs, 'metadata-packet').map((m) => new Map(m.items.map((i) => [i.tag, i.value as number])));
    expect(values).to.have.length(100);
    const headings = values.map((v) => v.get(5) as number);
    const steps = headings.slice(1).map((h, i) => (h - headings[i] + 360) % 360);
    // A clockwise orbit of 1.8-2.6 km at 35-45 m/s turns 0.8-1.5 °/s.
    expect(Math.min(...steps)).to.be.above(0.07);
    expect(Math.max(...steps)).to.be.below(0.16);
    for (const v of values) {
      expect(v.get(15)).to.be.within(1790, 2810);
      expect(v.get(21)).to.be.within(2000, 4000);
      expect(v.get(7)).to.be.within(2, 8);
      expect(v.get(18)).to.be.within(80, 100);
      expect(v.get(19)).to.be.within(-50, -15);
      expect(Math.abs((v.get(13) as number) - (v.get(23) as number))).to.be.below(0.03);
    }
  });

  it('gives a packet the PTS of the video frame shown at its capture time', () => {
    const obs = analyze({ durationSeconds: 2, bitrate: 2_000_000, klv: {} });
    const videoPts = new Set(ofKind(obs, 'pes').filter((p) => p.pid === 0x100).map((p) => p.pts90kHz));
    const klvPts = ofKind(obs, 'klv-packet').map((p) => p.pts90kHz);
    expect(klvPts).to.have.length(60);
    // The last two B-frames (display order) are still in the encoder when the stream ends.
    expect(klvPts.slice(0, 58).filter((pts) => !videoPts.has(pts))).to.deep.equal([]);
    expect(klvPts.slice(1).map((pts, i) => (pts as number) - (klvPts[i] as number))).to.deep.equal(Array(59).fill(3000));
  });

  it('sends 10 packets per second at rateHz 10, 100 ms apart in item 2', () => {
    const obs = analyze({ durationSeconds: 3, bitrate: 1_000_000, klv: { rateHz: 10, carriage: 'async' } });
    expect(problems(obs)).to.deep.equal([]);
    const stamps = ofKind(obs, 'metadata-packet').map((m) => m.timestampMicros as number);
    expect(stamps.slice(1).map((t, i) => t - stamps[i])).to.deep.equal(Array(29).fill(100_000));
  });

  it('declares synchronous carriage in the PMT with KLVA registration, metadata and metadata_STD descriptors', () => {
    const obs = analyze({ durationSeconds: 1, bitrate: 1_000_000, klv: {} });
    const pmt = ofKind(obs, 'pmt')[0];
    const stream = pmt.streams.find((s) => s.pid === KLV_PID);
    expect(stream?.streamType).to.equal(0x15);
    expect(stream?.descriptors.map((d) => d.tag)).to.deep.equal([0x05, 0x26, 0x27]);
    expect(stream && klvCarriageOf(stream)).to.equal('sync');
    expect(ofKind(obs, 'pes').filter((p) => p.pid === KLV_PID).every((p) => p.streamId === 0xfc && p.pts90kHz !== null)).to.be.true;
  });

  it('declares asynchronous carriage as private data with a KLVA registration, on stream_id 0xBD or 0xFC', () => {
    for (const streamId of [0xbd, 0xfc]) {
      const obs = analyze({ durationSeconds: 1, bitrate: 1_000_000, klv: { carriage: 'async', streamId } });
      const stream = ofKind(obs, 'pmt')[0].streams.find((s) => s.pid === KLV_PID);
      expect([stream?.streamType, stream?.descriptors.map((d) => d.tag)]).to.deep.equal([0x06, [0x05]]);
      expect(ofKind(obs, 'pes').filter((p) => p.pid === KLV_PID).every((p) => p.streamId === streamId && p.pts90kHz === null)).to.be.true;
      expect(problems(obs)).to.deep.equal([]);
    }
  });

  it('writes the version, start time, mission and PID it is given', () => {
    const obs = analyze({ durationSeconds: 1, bitrate: 1_000_000, klv: { pid: 0x1f0, st0601Version: 19, startTimeMicros: 1_700_000_000_000_000, missionId: 'TEST' } });
    const [first] = ofKind(obs, 'metadata-packet');
    expect([first.pid, first.version, first.timestampMicros, first.items[1].value]).to.deep.equal([0x1f0, 19, 1_700_000_000_000_000, 'TEST']);
  });

  it('gives the same bytes for the same options, and another flight for another seed', () => {
    const options: GeneratorOptions = { durationSeconds: 1, bitrate: 1_000_000, klv: { seed: 5 } };
    expect(generateTransportStream(options).bytes).to.deep.equal(generateTransportStream(options).bytes);
    const latitude = (seed: number): unknown => ofKind(analyze({ ...options, klv: { seed } }), 'metadata-packet')[0].items[8].value;
    expect(latitude(5)).to.not.equal(latitude(6));
  });
});
