import { expect } from 'chai';
import { generateTransportStream } from '../../src/gen/index.js';
import type { Observation } from '../../src/kernel/observations.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';
import { scanPacketRuns, type PacketRuns } from '../../src/ts/packet-runs.js';

/** Demuxes `bytes` in chunks, each with its runs when `withRuns` (as the parallel file source gives them). */
function demuxChunks(bytes: Uint8Array, chunkSize: number, runsOf: ((chunk: Uint8Array) => PacketRuns) | null): { observations: Observation[]; counted: number } {
  const observations: Observation[] = [];
  const demuxer = new TsDemuxer((o) => observations.push(o));
  for (let i = 0; i < bytes.length; i += chunkSize) {
    const chunk = bytes.subarray(i, i + chunkSize);
    demuxer.push(chunk, runsOf ? runsOf(chunk) : undefined);
  }
  demuxer.end();
  return { observations, counted: demuxer.packetsCountedInRuns };
}

/** A deterministic pseudo-random sequence (xorshift32). */
function randomBytes(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

const stream = generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, seed: 3, audio: true, klv: { carriage: 'async', rateHz: 30 } }).bytes;

describe('runs of plain packets', () => {
  it('are plain packets at one stride whose counters step by one on each PID', () => {
    const { stride, runs, pids } = scanPacketRuns(stream);
    expect(stride).to.equal(188);
    expect(runs.length).to.be.greaterThan(0);
    for (let r = 0; r < runs.length; r += 4) {
      const [start, packets, firstEntry, entries] = runs.subarray(r, r + 4);
      expect(packets).to.be.at.least(4);
      const seen = new Map<number, { count: number; first: number; last: number }>();
      for (let k = 0; k < packets; k++) {
        const p = start + k * stride;
        const pid = ((stream[p + 1] & 0x1f) << 8) | stream[p + 2];
        const cc = stream[p + 3] & 0x0f;
        expect(stream[p]).to.equal(0x47);
        if (pid !== 0x1fff) expect([stream[p + 1] & 0xc0, stream[p + 3] & 0xf0]).to.deep.equal([0, 0x10]);
        const entry = seen.get(pid);
        if (entry && pid !== 0x1fff) expect(cc).to.equal((entry.last + 1) & 0x0f);
        seen.set(pid, entry ? { count: entry.count + 1, first: entry.first, last: cc } : { count: 1, first: cc, last: cc });
      }
      const listed = Array.from({ length: entries }, (_, e) => Array.from(pids.subarray((firstEntry + e) * 4, (firstEntry + e) * 4 + 4)));
      expect(listed).to.deep.equal([...seen].map(([pid, { count, first, last }]) => [pid, count, first, last]));
    }
  });

  it('let the demuxer count most packets of a clean stream and change none of its observations', () => {
    const plain = demuxChunks(stream, 65_536, null);
    const withRuns = demuxChunks(stream, 65_536, scanPacketRuns);
    expect(withRuns.observations).to.deep.equal(plain.observations);
    expect(withRuns.counted).to.be.greaterThan(stream.length / 188 / 2);
  });

  it('are refused where the demuxer’s state does not allow them: a run after a lost packet is read packet by packet', () => {
    // Drop one video packet in the middle: the run after it starts with a counter that does not follow on.
    const packets = stream.length / 188;
    let dropped = -1;
    for (let k = Math.floor(packets / 2); dropped < 0; k++) {
      const p = k * 188;
      if ((((stream[p + 1] & 0x1f) << 8) | stream[p + 2]) === 0x100 && (stream[p + 1] & 0x40) === 0) dropped = p;
    }
    const damaged = new Uint8Array(stream.length - 188);
    damaged.set(stream.subarray(0, dropped), 0);
    damaged.set(stream.subarray(dropped + 188), dropped);
    const plain = demuxChunks(damaged, 65_536, null);
    const withRuns = demuxChunks(damaged, 65_536, scanPacketRuns);
    expect(withRuns.observations).to.deep.equal(plain.observations);
    expect(plain.observations.filter((o) => o.kind === 'ts-error').map((o) => [o.type, o.offset])).to.deep.equal([['continuity-error', dropped]]);
  });

  it('never throw and change nothing on damaged or random bytes, whatever the chunking', () => {
    const next = randomBytes(0x5eed);
    for (let round = 0; round < 16; round++) {
      const bytes = round % 4 === 0 ? new Uint8Array(200_000).map(() => (next() < 0.05 ? 0x47 : Math.floor(next() * 256))) : stream.slice();
      // Damage: flipped bytes, sync bytes knocked out, a slice removed (sync loss).
      for (let k = 0; k < 30; k++) bytes[Math.floor(next() * bytes.length)] ^= 1 << Math.floor(next() * 8);
      const cut = Math.floor(next() * (bytes.length - 5000));
      const rest = bytes.subarray(cut + Math.floor(next() * 4000));
      const data = new Uint8Array(cut + rest.length);
      data.set(bytes.subarray(0, cut), 0);
      data.set(rest, cut);
      const chunkSize = 1000 + Math.floor(next() * 70_000);
      const plain = demuxChunks(data, chunkSize, null);
      const withRuns = demuxChunks(data, chunkSize, scanPacketRuns);
      expect(withRuns.observations, `round ${round}, chunks of ${chunkSize}`).to.deep.equal(plain.observations);
    }
  });

  it('find nothing in bytes too short to lock onto', () => {
    expect(scanPacketRuns(new Uint8Array(0)).runs.length).to.equal(0);
    expect(scanPacketRuns(stream.subarray(0, 188 * 4)).runs.length).to.equal(0);
  });
});
