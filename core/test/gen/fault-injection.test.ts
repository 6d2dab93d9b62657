import { expect } from 'chai';
import { createGenerator, generateTransportStream } from '../../src/gen/generator.js';
import type { GeneratorOptions } from '../../src/gen/generator-options.js';
import { DEFAULT_INITIAL_PCR_27MHZ } from '../../src/gen/generator-options.js';
import type { FaultSpec } from '../../src/gen/fault-spec.js';
import type { FaultKind } from '../../src/gen/fault-injector.js';
import type { InjectedFault } from '../../src/gen/injected-fault.js';
import { GeneratorError } from '../../src/gen/generator-error.js';
import { packetBytes, readPackets, readPes, readSections, type ReadPacket } from './ts-reader.js';

const BASE: GeneratorOptions = { durationSeconds: 3, bitrate: 3_000_000, audio: true };
const SECONDS_PER_PACKET = 1504 / BASE.bitrate;
const TICKS_PER_PACKET = 188 * 72; // 27 MHz ticks per packet at 3 Mbit/s

const clean = generateTransportStream(BASE).bytes;
const cleanPackets = readPackets(clean, 188);

function inject(...faults: FaultSpec[]): { bytes: Uint8Array; packets: ReadPacket[]; faults: InjectedFault[] } {
  const run = generateTransportStream({ ...BASE, faults });
  return { bytes: run.bytes, packets: readPackets(run.bytes, 188), faults: run.faults };
}

/** PCR at packet `index` under the CBR rule (3 Mbit/s: a whole number of ticks per byte). */
function pcrAt(index: number): number {
  return (DEFAULT_INITIAL_PCR_27MHZ + index * TICKS_PER_PACKET + 10 * 72) % (2 ** 33 * 300);
}

/** A copy of a packet with its PCR bytes (if any) zeroed. */
function withoutPcr(packet: Uint8Array): Uint8Array {
  const copy = packet.slice();
  if (copy[3] & 0x20 && copy[4] > 0 && copy[5] & 0x10) copy.fill(0, 6, 12);
  return copy;
}

/** Indices of packets that differ between two streams of the same length. */
function differing(a: Uint8Array, b: Uint8Array): number[] {
  expect(a.length).to.equal(b.length);
  const out: number[] = [];
  for (let i = 0; i * 188 < a.length; i++) if (Buffer.compare(packetBytes(a, 188, i), packetBytes(b, 188, i)) !== 0) out.push(i);
  return out;
}

/** Bytes (offsets in the packet) where packet `index` differs between two streams. */
function differingBytes(a: Uint8Array, b: Uint8Array, index: number): number[] {
  const [pa, pb] = [packetBytes(a, 188, index), packetBytes(b, 188, index)];
  return [...pa.keys()].filter((i) => pa[i] !== pb[i]);
}

/** Every continuity anomaly: [packet index, PID, 'skip' | 'repeat'] (ISO 13818-1 2.4.3.3). */
function continuityAnomalies(packets: ReadPacket[]): [number, number, string][] {
  const last = new Map<number, number>();
  const out: [number, number, string][] = [];
  for (const p of packets) {
    if (p.pid === 0x1fff) continue;
    const before = last.get(p.pid);
    const expected = before === undefined ? p.cc : p.afc & 1 ? (before + 1) & 15 : before;
    if (p.cc !== expected) out.push([p.index, p.pid, p.cc === before ? 'repeat' : 'skip']);
    last.set(p.pid, p.cc);
  }
  return out;
}

function isPlainVideoPacket(p: ReadPacket): boolean {
  return p.pid === 0x100 && !p.pusi && p.afc === 1;
}

function expectPcrsExact(packets: ReadPacket[], shiftFrom = Infinity, shift = 0): void {
  for (const p of packets) {
    if (p.pcr27MHz === null) continue;
    const expected = (pcrAt(p.index) + (p.index >= shiftFrom ? shift : 0) + 2 ** 33 * 300) % (2 ** 33 * 300);
    expect(p.pcr27MHz, `PCR of packet ${p.index}`).to.equal(expected);
  }
}

function inWindow(index: number, fromSeconds: number, toSeconds: number): boolean {
  const t = index * SECONDS_PER_PACKET;
  return t >= fromSeconds && t < toSeconds;
}

describe('fault injection', () => {
  it('drop-packet: removes one mid-PES video packet; the only continuity error is at the next video packet', () => {
    const run = inject({ kind: 'drop-packet', atSeconds: 1.2 });
    const [fault] = run.faults;
    const k = fault.packetIndex;
    expect(fault).to.deep.include({ kind: 'drop-packet', pid: 0x100, offset: k * 188, atSeconds: 1.2, expect: { observation: 'ts-error', type: 'continuity-error' } });
    expect(run.bytes.length).to.equal(clean.length - 188);
    expect(continuityAnomalies(run.packets)).to.deep.equal([[k, 0x100, 'skip']]);
    // The dropped packet j: everything before it is identical, everything after is the clean stream one packet earlier.
    const j = run.packets.findIndex((p, i) => Buffer.compare(packetBytes(run.bytes, 188, i), packetBytes(clean, 188, i)) !== 0);
    expect(isPlainVideoPacket(cleanPackets[j])).to.be.true;
    expect(j * SECONDS_PER_PACKET).to.be.at.least(1.2);
    for (let i = j; i < run.packets.length; i++) {
      expect(Buffer.compare(withoutPcr(packetBytes(run.bytes, 188, i)), withoutPcr(packetBytes(clean, 188, i + 1))), `packet ${i}`).to.equal(0);
    }
    expect(run.packets.slice(j, k).some((p) => p.pid === 0x100)).to.be.false;
    expect(fault.details).to.deep.equal({ expectedCc: cleanPackets[j].cc, foundCc: run.packets[k].cc });
    // PCRs follow the output positions, so only the continuity counter shows the loss.
    expectPcrsExact(run.packets);
  });

  it('duplicate-packet: repeats one mid-PES video packet; the second copy is the only continuity anomaly', () => {
    const run = inject({ kind: 'duplicate-packet', atSeconds: 1.2 });
    const [fault] = run.faults;
    const k = fault.packetIndex;
    expect(fault).to.deep.include({ pid: 0x100, offset: k * 188, expect: { observation: 'ts-error', type: 'duplicate-packet' } });
    expect(Buffer.compare(packetBytes(run.bytes, 188, k), packetBytes(run.bytes, 188, k - 1))).to.equal(0);
    expect(isPlainVideoPacket(run.packets[k])).to.be.true;
    expect(continuityAnomalies(run.packets)).to.deep.equal([[k, 0x100, 'repeat']]);
    expect(run.bytes.length).to.equal(clean.length + 188);
    for (let i = 0; i < run.packets.length; i++) {
      const from = i < k ? i : i - 1;
      expect(Buffer.compare(withoutPcr(packetBytes(run.bytes, 188, i)), withoutPcr(packetBytes(clean, 188, from))), `packet ${i}`).to.equal(0);
    }
    expectPcrsExact(run.packets);
  });

  it('tei: sets transport_error_indicator in one mid-PES video packet and changes nothing else', () => {
    const run = inject({ kind: 'tei', atSeconds: 1.2 });
    const [fault] = run.faults;
    expect(fault).to.deep.include({ pid: 0x100, expect: { observation: 'ts-error', type: 'transport-error' } });
    expect(differing(run.bytes, clean)).to.deep.equal([fault.packetIndex]);
    expect(differingBytes(run.bytes, clean, fault.packetIndex)).to.deep.equal([1]);
    expect(run.packets[fault.packetIndex].tei).to.be.true;
    expect(isPlainVideoPacket(cleanPackets[fault.packetIndex])).to.be.true;
  });

  it('sync-byte: turns one sync byte of a mid-PES video packet into 0x46 and changes nothing else', () => {
    const run = inject({ kind: 'sync-byte', atSeconds: 1.2 });
    const [fault] = run.faults;
    expect(fault).to.deep.include({ pid: 0x100, offset: fault.packetIndex * 188, expect: { observation: 'ts-error', type: 'sync-byte-error' } });
    expect(differing(run.bytes, clean)).to.deep.equal([fault.packetIndex]);
    expect(differingBytes(run.bytes, clean, fault.packetIndex)).to.deep.equal([0]);
    expect(run.bytes[fault.offset]).to.equal(0x46);
    expect(isPlainVideoPacket(cleanPackets[fault.packetIndex])).to.be.true;
  });

  it('psi-crc: breaks the CRC of the first PAT section from the time on, nothing else', () => {
    const run = inject({ kind: 'psi-crc', atSeconds: 1.2 });
    const [fault] = run.faults;
    expect(fault).to.deep.include({ pid: 0, expect: { observation: 'ts-error', type: 'psi-crc-error' } });
    expect(differing(run.bytes, clean)).to.deep.equal([fault.packetIndex]);
    expect(differingBytes(run.bytes, clean, fault.packetIndex)).to.deep.equal([5 + 15]);
    const bad = readSections(run.bytes, run.packets, 0).filter((s) => !s.crcValid);
    expect(bad.map((s) => s.packetIndex)).to.deep.equal([fault.packetIndex]);
    const pats = readSections(clean, cleanPackets, 0).map((s) => s.packetIndex);
    expect(fault.packetIndex).to.equal(pats.find((i) => i * SECONDS_PER_PACKET >= 1.2));
  });

  it('psi-crc with the PMT PID: breaks one PMT section instead', () => {
    const run = inject({ kind: 'psi-crc', atSeconds: 0.5, pid: 0x1000 });
    const [fault] = run.faults;
    expect(fault.pid).to.equal(0x1000);
    expect(differing(run.bytes, clean)).to.deep.equal([fault.packetIndex]);
    expect(readSections(run.bytes, run.packets, 0x1000).filter((s) => !s.crcValid).map((s) => s.packetIndex)).to.deep.equal([fault.packetIndex]);
  });

  it('pcr-gap: leaves out the PCRs due in 200 ms, keeping every byte of payload where it was', () => {
    const run = inject({ kind: 'pcr-gap', atSeconds: 1.2 });
    const [fault] = run.faults;
    const cleanPcrs = cleanPackets.filter((p) => p.pcr27MHz !== null);
    const removed = cleanPcrs.filter((p) => inWindow(p.index, 1.2, 1.4)).map((p) => p.index);
    expect(removed).to.have.length(5);
    expect(differing(run.bytes, clean)).to.deep.equal(removed);
    for (const i of removed) {
      const [before, after] = [cleanPackets[i], run.packets[i]];
      expect(after.pcr27MHz).to.equal(null);
      // A PCR in a PES packet becomes stuffing of the same size; a PCR-only packet becomes a null packet.
      if (before.afc === 3) expect([after.afLength, after.payloadStart]).to.deep.equal([before.afLength, before.payloadStart]);
      else expect(after.pid).to.equal(0x1fff);
    }
    const after = cleanPcrs.find((p) => !inWindow(p.index, 0, 1.4)) as ReadPacket;
    expect(fault).to.deep.include({ pid: 0x100, packetIndex: after.index, expect: { observation: 'pcr', interval: 'gap' } });
    const previous = run.packets.filter((p) => p.pcr27MHz !== null && p.index < after.index).pop() as ReadPacket;
    expect(((after.pcr27MHz as number) - (previous.pcr27MHz as number)) / 27e6).to.be.within(0.2, 0.24);
    expectPcrsExact(run.packets);
  });

  it('pcr-jump-backward: moves every PCR from the time on back by 1 s, touching only the PCR bytes', () => {
    const run = inject({ kind: 'pcr-jump-backward', atSeconds: 1.2 });
    const [fault] = run.faults;
    const shifted = cleanPackets.filter((p) => p.pcr27MHz !== null && p.index * SECONDS_PER_PACKET >= 1.2).map((p) => p.index);
    expect(fault).to.deep.include({ pid: 0x100, packetIndex: shifted[0], expect: { observation: 'pcr', interval: 'jump-backward' } });
    expect(differing(run.bytes, clean)).to.deep.equal(shifted);
    for (const i of shifted) expect(differingBytes(run.bytes, clean, i).every((b) => b >= 6 && b < 12)).to.be.true;
    expectPcrsExact(run.packets, shifted[0], -27_000_000);
    expect(run.packets.every((p) => !p.discontinuity)).to.be.true;
  });

  it('pcr-jump-forward: moves every PCR from the time on forward by amountMs', () => {
    const run = inject({ kind: 'pcr-jump-forward', atSeconds: 2, amountMs: 500 });
    const [fault] = run.faults;
    const shifted = cleanPackets.filter((p) => p.pcr27MHz !== null && p.index * SECONDS_PER_PACKET >= 2).map((p) => p.index);
    expect(fault).to.deep.include({ packetIndex: shifted[0], expect: { observation: 'pcr', interval: 'jump-forward' }, details: { shift27MHz: 13_500_000 } });
    expect(differing(run.bytes, clean)).to.deep.equal(shifted);
    expectPcrsExact(run.packets, shifted[0], 13_500_000);
  });

  for (const [kind, pid] of [['pat-gap', 0], ['pmt-gap', 0x1000]] as const) {
    it(`${kind}: replaces the tables due in 1 s by null packets, counters kept continuous`, () => {
      const run = inject({ kind, atSeconds: 1.2 });
      const [fault] = run.faults;
      const tables = readSections(clean, cleanPackets, pid).map((s) => s.packetIndex);
      const removed = tables.filter((i) => inWindow(i, 1.2, 2.2));
      const next = tables.find((i) => i * SECONDS_PER_PACKET >= 2.2) as number;
      expect(removed).to.have.length(10);
      expect(fault).to.deep.include({ pid, packetIndex: next, expect: { observation: 'psi-section' } });
      expect(run.packets.filter((p) => removed.includes(p.index)).every((p) => p.pid === 0x1fff)).to.be.true;
      // Later tables differ from the clean run in their continuity counter only.
      const later = tables.filter((i) => i >= next);
      expect(differing(run.bytes, clean)).to.deep.equal([...removed, ...later]);
      for (const i of later) expect(differingBytes(run.bytes, clean, i)).to.deep.equal([3]);
      expect(continuityAnomalies(run.packets)).to.deep.equal([]);
      const sent = readSections(run.bytes, run.packets, pid).map((s) => s.packetIndex);
      expect((next - (sent[sent.indexOf(next) - 1])) * SECONDS_PER_PACKET).to.be.above(1);
    });
  }

  it('pts-gap: sends the video PES started in 1 s without PTS or DTS, their headers stuffed to the same size', () => {
    const run = inject({ kind: 'pts-gap', atSeconds: 1.2 });
    const [fault] = run.faults;
    const cleanPes = readPes(clean, cleanPackets, 0x100);
    const emptied = cleanPes.filter((p) => inWindow(p.packetIndex, 1.2, 2.2)).map((p) => p.packetIndex);
    expect(emptied).to.have.length(30);
    expect(differing(run.bytes, clean)).to.deep.equal(emptied);
    const faultyPes = readPes(run.bytes, run.packets, 0x100);
    for (const p of faultyPes.filter((x) => emptied.includes(x.packetIndex))) {
      const before = cleanPes.find((x) => x.packetIndex === p.packetIndex) as (typeof cleanPes)[0];
      expect([p.ptsDtsFlags, p.headerDataLength, p.payloadBytes]).to.deep.equal([0, before.headerDataLength, before.payloadBytes]);
    }
    const next = cleanPes.find((p) => p.packetIndex > emptied[emptied.length - 1]) as (typeof cleanPes)[0];
    expect(fault).to.deep.include({ pid: 0x100, packetIndex: next.packetIndex, expect: { observation: 'pes' } });
  });

  it('returns ground truth for several faults in spec order, at sync-byte offsets of 192-byte packets', () => {
    const specs: FaultSpec[] = [
      { kind: 'tei', atSeconds: 2.5 },
      { kind: 'drop-packet', atSeconds: 0.5 },
      { kind: 'pcr-gap', atSeconds: 1, durationMs: 100 },
      { kind: 'pat-gap', atSeconds: 1.5, durationMs: 500 },
    ];
    const run = generateTransportStream({ ...BASE, packetSize: 192, faults: specs });
    const packets = readPackets(run.bytes, 192);
    expect(run.faults.map((f) => f.kind)).to.deep.equal(['tei', 'drop-packet', 'pcr-gap', 'pat-gap']);
    for (const f of run.faults) expect(f.offset).to.equal(f.packetIndex * 192 + 4);
    const [tei, drop, gap, pat] = run.faults.map((f) => packets[f.packetIndex]);
    expect([tei.tei, drop.pid, gap.pcr27MHz !== null, pat.pid, pat.pusi]).to.deep.equal([true, 0x100, true, 0, true]);
    expect(continuityAnomalies(packets)).to.deep.equal([[run.faults[1].packetIndex, 0x100, 'skip']]);
  });

  it('rejects a fault outside the stream, on a wrong PID, or a gap shorter than the repetition it removes', () => {
    const error = (faults: FaultSpec[]): string => {
      try {
        createGenerator({ ...BASE, faults });
      } catch (e) {
        if (e instanceof GeneratorError && e.code === 'ERR_FAULT_SPEC') return e.message;
        throw e;
      }
      return 'accepted';
    };
    expect(error([{ kind: 'tei', atSeconds: 3 }])).to.equal('fault tei@3: time 3 s is outside the stream (0 to 3 s)');
    expect(error([{ kind: 'tei', atSeconds: 1, pid: 0x1000 }])).to.equal('fault tei@1: PID 0x1000 is not an elementary stream PID (choose one of 0x100, 0x101)');
    expect(error([{ kind: 'pcr-gap', atSeconds: 1, durationMs: 30 }])).to.equal('fault pcr-gap@1: a 30 ms gap is not longer than the PCR interval of 40 ms');
    expect(error([{ kind: 'nonsense', atSeconds: 1 }])).to.match(/^unknown fault kind 'nonsense' \(known: drop-packet, /);
  });

  it('fails at the end of the stream when a fault found no packet to act on', () => {
    // Every audio PES fits two packets: a start and a stuffed end, never a mid-PES packet.
    const stream = createGenerator({ ...BASE, faults: [{ kind: 'drop-packet', atSeconds: 1, pid: 0x101 }] });
    expect(() => [...stream.chunks()]).to.throw(GeneratorError, 'fault drop-packet@1,pid=0x101 could not be placed: no mid-PES packet of PID 0x101 at or after 1 s');
  });

  it('accepts new fault kinds without changes to the generator', () => {
    const scramble: FaultKind = {
      kind: 'scramble',
      summary: 'sets transport_scrambling_control on one video packet',
      create(spec) {
        let truth: InjectedFault | null = null;
        return {
          onPacket(info, bytes, syncPos) {
            if (!truth && info.plainPayload && info.slotSeconds >= spec.atSeconds) {
              bytes[syncPos + 3] |= 0xc0;
              truth = { kind: 'scramble', pid: info.pid, packetIndex: info.outputIndex, offset: info.offset, atSeconds: spec.atSeconds, expect: { observation: 'ts-error', type: 'scrambled-packet' } };
            }
            return 'keep';
          },
          result: () => truth,
          pendingReason: () => 'no packet',
        };
      },
    };
    const run = generateTransportStream({ ...BASE, faultKinds: [scramble], faults: [{ kind: 'scramble', atSeconds: 2 }] });
    const [fault] = run.faults;
    expect(readPackets(run.bytes, 188)[fault.packetIndex].scrambling).to.equal(3);
    expect(differing(run.bytes, clean)).to.deep.equal([fault.packetIndex]);
  });
});
