/**
 * A looping replay is one continuous stream: across every restart of the
 * file the PCR runs on at its regular interval, each PID's continuity
 * counter carries on, PTS and DTS move on by the length of a pass, and the
 * ST 0601 time stamps too, their checksums moved with them (a valid one
 * stays valid, a faulty one stays as faulty on every pass). Received on
 * 127.0.0.1 and read back with core's demuxer.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKlvAwareTsDemuxer, generateTransportStream, parseFaultSpec, pcrDelta27MHz, type Observation } from '@klvscope/core';
import type { LiveChunk } from '../src/live-source.js';
import { replayFile } from '../src/replay.js';
import { openUdpSource } from '../src/udp.js';

function observe(bytes: Uint8Array): Observation[] {
  const seen: Observation[] = [];
  const demuxer = createKlvAwareTsDemuxer((o) => seen.push(o));
  demuxer.push(bytes);
  demuxer.end();
  return seen;
}

function joined(chunks: readonly LiveChunk[]): Uint8Array {
  return Buffer.concat(chunks.map((chunk) => chunk.bytes));
}

/** Replays the file in a loop to 127.0.0.1 (at 4x) until three passes went out; the datagrams received and the replay's figures. */
async function replayThreePasses(path: string): Promise<{ chunks: LiveChunk[]; stats: { loops: number; datagrams: number } }> {
  const source = await openUdpSource('udp://127.0.0.1:0');
  const chunks: LiveChunk[] = [];
  const reading = (async () => {
    for await (const chunk of source) chunks.push(chunk);
  })();
  const controller = new AbortController();
  const stats = await replayFile(path, `udp://127.0.0.1:${source.localPort}`, {
    loop: true,
    speed: 4,
    signal: controller.signal,
    onProgress: (progress) => {
      if (progress.loops >= 3) controller.abort();
    },
  });
  const deadline = Date.now() + 1000;
  while (source.stats().chunks < stats.datagrams && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  await source.close();
  await reading;
  return { chunks, stats };
}

describe('replay --loop carries the stream on across the restart of the file', function () {
  this.timeout(15_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'klvscope-replay-loop-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('sends no PCR step back, no continuity error, no PTS or KLV time going back over three passes', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 0.5, bitrate: 2_000_000, seed: 11, klv: { carriage: 'sync' } });
    const path = join(dir, 'half-second.ts');
    await writeFile(path, bytes);
    const file = observe(bytes);
    const filePcrs = file.flatMap((o) => (o.kind === 'pcr' ? [o.pcr27MHz] : []));
    // A pass lasts from its first frame to one frame after its last (the PES of the PCR PID, by decoding time).
    const pcrPid = file.find((o) => o.kind === 'pcr')?.pid;
    const frames = file.flatMap((o) => (o.kind === 'pes' && o.pid === pcrPid && o.pts90kHz !== null ? [o.dts90kHz ?? o.pts90kHz] : []));
    const passLength27MHz = ((frames.at(-1) as number) - frames[0] + ((frames.at(-1) as number) - (frames.at(-2) as number))) * 300;

    const { chunks, stats } = await replayThreePasses(path);
    expect(stats.loops).to.be.at.least(3);

    const received = observe(joined(chunks));
    expect(received.filter((o) => o.kind === 'ts-error').map((o) => (o.kind === 'ts-error' ? o.type : ''))).to.deep.equal([]);
    const pcrs = received.flatMap((o) => (o.kind === 'pcr' ? [o.pcr27MHz] : []));
    expect(pcrs.length).to.be.greaterThan(3 * filePcrs.length);
    const steps = pcrs.slice(1).map((pcr, i) => pcrDelta27MHz(pcrs[i], pcr));
    expect(Math.min(...steps)).to.be.greaterThan(0);
    // The wrap's step is no longer than the file's longest.
    expect(Math.max(...steps)).to.be.at.most(Math.max(...filePcrs.slice(1).map((pcr, i) => pcrDelta27MHz(filePcrs[i], pcr))));
    // The second pass is the first, one pass length later: PCR, then PTS on every PID.
    expect(pcrs[filePcrs.length]).to.equal(filePcrs[0] + passLength27MHz);
    const filePts = file.flatMap((o) => (o.kind === 'pes' && o.pts90kHz !== null ? [[o.pid, o.pts90kHz]] : []));
    const receivedPts = received.flatMap((o) => (o.kind === 'pes' && o.pts90kHz !== null ? [[o.pid, o.pts90kHz]] : []));
    const shift90kHz = passLength27MHz / 300;
    expect(receivedPts.slice(filePts.length, 2 * filePts.length)).to.deep.equal(filePts.map(([pid, pts]) => [pid, pts + shift90kHz]));
    // ST 0601 time: on after the wrap by the same time, every checksum valid.
    const fileKlv = file.flatMap((o) => (o.kind === 'metadata-packet' ? [o.timestampMicros as number] : []));
    const klv = received.flatMap((o) => (o.kind === 'metadata-packet' ? [o] : []));
    expect(fileKlv.length).to.be.greaterThan(10);
    expect(klv.slice(fileKlv.length, 2 * fileKlv.length).map((o) => o.timestampMicros)).to.deep.equal(fileKlv.map((micros) => micros + Math.round((shift90kHz * 1000) / 90)));
    expect(klv.filter((o) => o.checksum?.valid !== true)).to.deep.equal([]);
  });

  it('sends no PCR step back either where the PCRs outlast the frames (29 frames, 0.996 s of PCR): the pass is then as long as its PCRs', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 1, bitrate: 2_000_000, seed: 11, klv: {} });
    const path = join(dir, 'pcr-past-frames.ts');
    await writeFile(path, bytes);
    const file = observe(bytes);
    const filePcrs = file.flatMap((o) => (o.kind === 'pcr' ? [o.pcr27MHz] : []));
    const frames = file.flatMap((o) => (o.kind === 'pes' && o.pid === 256 && o.pts90kHz !== null ? [o.dts90kHz ?? o.pts90kHz] : []));
    const byFrames27MHz = ((frames.at(-1) as number) - frames[0] + 3000) * 300;
    expect(pcrDelta27MHz(filePcrs[0], filePcrs.at(-1) as number), 'the clip has PCRs past its frames').to.be.greaterThan(byFrames27MHz);

    const { chunks, stats } = await replayThreePasses(path);
    expect(stats.loops).to.be.at.least(3);
    const received = observe(joined(chunks));
    expect(received.filter((o) => o.kind === 'ts-error').map((o) => (o.kind === 'ts-error' ? o.type : ''))).to.deep.equal([]);
    const pcrs = received.flatMap((o) => (o.kind === 'pcr' ? [o.pcr27MHz] : []));
    const steps = pcrs.slice(1).map((pcr, i) => pcrDelta27MHz(pcrs[i], pcr));
    expect(pcrs.length).to.be.greaterThan(3 * filePcrs.length);
    expect(Math.min(...steps)).to.be.greaterThan(0);
    expect(Math.max(...steps)).to.be.at.most(Math.max(...filePcrs.slice(1).map((pcr, i) => pcrDelta27MHz(filePcrs[i], pcr))));
    // The clip is constant-rate: across the wraps too every PCR lies on the file's line, within ISO 13818-1's 500 ns (13.5 ticks).
    const filePcrObservations = file.flatMap((o) => (o.kind === 'pcr' ? [o] : []));
    const ticksPerPacket = pcrDelta27MHz(filePcrs[0], filePcrs.at(-1) as number) / ((filePcrObservations.at(-1)?.packetIndex as number) - filePcrObservations[0].packetIndex);
    const pcrObservations = received.flatMap((o) => (o.kind === 'pcr' ? [o] : []));
    const offLine = pcrObservations.map((o) => Math.abs(pcrDelta27MHz(pcrs[0], o.pcr27MHz) - (o.packetIndex - pcrObservations[0].packetIndex) * ticksPerPacket));
    expect(Math.max(...offLine)).to.be.below(13.5);
  });

  it('keeps a wrong ST 0601 checksum as wrong, by as much, on every pass (a replayed fault recurs)', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 0.5, bitrate: 2_000_000, seed: 12, klv: {}, faults: [parseFaultSpec('klv-checksum@0.25')] });
    const path = join(dir, 'half-second-bad-checksum.ts');
    await writeFile(path, bytes);
    const offBy = (o: Observation): number[] => (o.kind === 'metadata-packet' && o.checksum?.stored != null && !o.checksum.valid ? [(o.checksum.stored - o.checksum.computed) & 0xffff] : []);
    const inFile = observe(bytes).flatMap(offBy);
    expect(inFile).to.have.length(1);

    const { chunks, stats } = await replayThreePasses(path);
    expect(stats.loops).to.be.at.least(3);
    const received = observe(joined(chunks)).flatMap(offBy);
    // Three whole passes at least (the replay stops early in the fourth).
    expect(received.length, 'one wrong checksum per pass').to.be.at.least(3);
    expect(new Set(received), 'each off by what it is off by in the file').to.deep.equal(new Set(inFile));
  });
});
