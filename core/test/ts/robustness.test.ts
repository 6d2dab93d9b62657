/**
 * Thousands of random mutations and truncations of real streams: the demuxer
 * never throws, always ends, and accounts for every byte it was given as
 * packets, skipped bytes or a truncated tail.
 */
import { expect } from 'chai';
import { seededRandom as random } from '../../../test-support/random.js';
import { existsSync, readFileSync } from 'node:fs';
import { fixturePath } from '../../../test-support/fixtures.js';
import type { Observation } from '../../src/kernel/observations.js';
import { St1402Carriage } from '../../src/klv/st1402-carriage.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';
import { concatPackets, packet, patSection, pes, pesPackets, pmtSection, psiPacket } from './packet-builder.js';

function mutate(source: Uint8Array, rnd: () => number): Uint8Array {
  let bytes: Uint8Array = source.slice();
  const edits = 1 + Math.floor(rnd() * 20);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * bytes.length);
    const op = rnd();
    if (op < 0.5) bytes[at] = Math.floor(rnd() * 256);
    else if (op < 0.6) bytes[at] ^= 1 << Math.floor(rnd() * 8);
    else if (op < 0.75) bytes = concat(bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + 1 + Math.floor(rnd() * 400))));
    else if (op < 0.9) bytes = concat(concat(bytes.subarray(0, at), Uint8Array.from({ length: Math.floor(rnd() * 300) }, () => Math.floor(rnd() * 256))), bytes.subarray(at));
    else bytes = bytes.subarray(0, at);
  }
  return bytes;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function run(bytes: Uint8Array, chunk: number): { observations: Observation[]; packets: number } {
  const observations: Observation[] = [];
  // With the KLV carriage, mutated KLV bytes go through the whole KLV decoder too.
  const demuxer = new TsDemuxer((o) => observations.push(o), { payloadConsumer: new St1402Carriage() });
  for (let i = 0; i < bytes.length; i += chunk) demuxer.push(bytes.subarray(i, i + chunk));
  demuxer.end();
  return { observations, packets: demuxer.packets };
}

function synthetic(): Uint8Array {
  return concatPackets([
    psiPacket(0, patSection([[1, 0x1000]])),
    psiPacket(0x1000, pmtSection(1, 0x100, [{ type: 0x1b, pid: 0x100 }, { type: 0x15, pid: 0x101 }])),
    ...pesPackets(0x100, pes(0xe0, new Array<number>(1000).fill(3), { pts: 1, dts: 0, length: 0 }), 0, { pcr27MHz: 1000 }),
    ...pesPackets(0x101, pes(0xfc, new Array<number>(300).fill(4), { pts: 1 }), 0),
    packet({ pid: 0x100, cc: 6, pcr27MHz: 300000 }),
  ]);
}

describe('demuxer robustness', function () {
  this.timeout(120_000);

  const sources: Array<[string, Uint8Array]> = [['synthetic', synthetic()]];
  for (const name of ['kwiver_h265_tricky_klv.ts', 'kwiver_h264_klv.ts', 'osh-addons_sample-stream.ts', 'kwiver_aphill_klv_10s.ts']) {
    const path = fixturePath('real', name);
    if (existsSync(path)) sources.push([name, readFileSync(path).subarray(0, 40_000)]);
    else console.log(`      (fixture ${name} absent: mutating the synthetic stream only)`);
  }

  for (const [name, source] of sources) {
    it(`never throws or hangs on 1000 mutations of ${name}, KLV included`, () => {
      const rnd = random(name.length * 7919);
      for (let i = 0; i < 1000; i++) {
        const bytes = mutate(source, rnd);
        const chunk = 1 + Math.floor(rnd() * 3000);
        const { observations, packets } = run(bytes, chunk);
        // Every byte is a packet, skipped, or part of a short tail.
        const skipped = observations.reduce((n, o) => n + (o.kind === 'ts-error' && o.type === 'sync-loss' ? Number(o.details?.skippedBytes ?? 0) : 0), 0);
        expect(packets * 188 + skipped, `case ${i}`).to.be.at.most(bytes.length + 188);
        expect(observations.filter((o) => o.kind === 'pid-stats').reduce((n, o) => n + (o.kind === 'pid-stats' ? o.packets : 0), 0)).to.equal(packets);
      }
    });
  }

  it('never throws on pure noise in any chunking', () => {
    const rnd = random(42);
    for (let i = 0; i < 300; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(rnd() * 5000) }, () => (rnd() < 0.05 ? 0x47 : Math.floor(rnd() * 256)));
      expect(() => run(bytes, 1 + Math.floor(rnd() * 500))).not.to.throw();
    }
  });
});
