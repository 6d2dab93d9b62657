/**
 * A looping replay is one continuous stream: across every restart of the
 * file the PCR runs on at its regular interval, each PID's continuity
 * counter carries on, PTS and DTS move on by the length of a pass, and the
 * ST 0601 time stamps too, their checksums made again. Received on
 * 127.0.0.1 and read back with core's demuxer.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKlvAwareTsDemuxer, generateTransportStream, pcrDelta27MHz, type Observation } from '@klvscope/core';
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
});
