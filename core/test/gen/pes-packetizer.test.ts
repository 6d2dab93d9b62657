import { expect } from 'chai';
import { PesPacketizer } from '../../src/gen/pes-packetizer.js';
import type { PesHeaderFields } from '../../src/gen/pes-header-writer.js';
import { readPackets, readPes } from './ts-reader.js';

const AUDIO: PesHeaderFields = { streamId: 0xc0, payloadLength: 0, pts90kHz: 1234, dataAlignment: true };

/** Sends one PES and returns its packets; `pcrAt` lists packet numbers that carry a PCR. */
function send(payloadLength: number, randomAccess = false, pcrAt: number[] = []): { bytes: Uint8Array; payload: Uint8Array } {
  const payload = Uint8Array.from({ length: payloadLength }, (_, i) => (i * 7) & 0xff);
  const packetizer = new PesPacketizer(0x101);
  packetizer.start(AUDIO, payload, randomAccess);
  const out: number[] = [];
  const buf = new Uint8Array(188);
  for (let n = 0; packetizer.active; n++) {
    packetizer.writePacket(buf, 0, pcrAt.includes(n), pcrAt.includes(n) ? 27_000_000 * n : -1);
    out.push(...buf);
  }
  return { bytes: Uint8Array.from(out), payload };
}

/** The PES payload bytes after the header, gathered from the packets. */
function reassemble(bytes: Uint8Array): Uint8Array {
  const packets = readPackets(bytes, 188);
  const data: number[] = [];
  for (const p of packets) data.push(...bytes.subarray(p.payloadStart, p.payloadEnd));
  return Uint8Array.from(data.slice(14));
}

describe('PES packetizer', () => {
  it('sends a PES over packets with PUSI first, continuity counters from 0, the payload intact', () => {
    const { bytes, payload } = send(1000);
    const packets = readPackets(bytes, 188);
    expect(packets.map((p) => p.cc)).to.deep.equal([0, 1, 2, 3, 4, 5]);
    expect(packets.map((p) => p.pusi)).to.deep.equal([true, false, false, false, false, false]);
    expect(Array.from(reassemble(bytes))).to.deep.equal(Array.from(payload));
    const [pes] = readPes(bytes, packets, 0x101);
    expect(pes.pesPacketLength).to.equal(3 + 5 + 1000);
    expect(pes.pts).to.equal(1234);
  });

  it('fills the last packet with adaptation field stuffing, never payload stuffing', () => {
    // 14 + 200 bytes: 184 in the first packet, 30 in the second.
    const { bytes } = send(200);
    const last = readPackets(bytes, 188)[1];
    expect(last.afc).to.equal(3);
    expect(last.afLength).to.equal(183 - 30);
    expect(bytes.subarray(188 + 6, 188 + 5 + last.afLength).every((b) => b === 0xff)).to.be.true;
  });

  it('uses a one-byte adaptation field when 183 bytes remain', () => {
    const { bytes } = send(184 + 183 - 14);
    const last = readPackets(bytes, 188)[1];
    expect([last.afc, last.afLength, last.payloadEnd - last.payloadStart]).to.deep.equal([3, 0, 183]);
  });

  it('sets random_access_indicator in the first packet only', () => {
    const { bytes } = send(600, true);
    expect(readPackets(bytes, 188).map((p) => p.randomAccess)).to.deep.equal([true, false, false, false]);
  });

  it('writes a PCR where asked, and leaves the same room as stuffing for a PCR left out', () => {
    const payload = new Uint8Array(500);
    const packetizer = new PesPacketizer(0x100);
    packetizer.start(AUDIO, payload, false);
    const a = new Uint8Array(188);
    packetizer.writePacket(a, 0, true, 27_000_000);
    const b = new Uint8Array(188);
    packetizer.writePacket(b, 0, true, -1);
    const [pa, pb] = [readPackets(a, 188)[0], readPackets(b, 188)[0]];
    expect([pa.afLength, pa.pcr27MHz]).to.deep.equal([7, 27_000_000]);
    expect([pb.afLength, pb.pcr27MHz, b[5]]).to.deep.equal([7, null, 0x00]);
    expect(Array.from(b.subarray(6, 12))).to.deep.equal([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  });

  it('writes a PCR-only packet that keeps the continuity counter (no payload)', () => {
    const packetizer = new PesPacketizer(0x100);
    packetizer.start(AUDIO, new Uint8Array(10), false);
    const buf = new Uint8Array(188);
    packetizer.writePacket(buf, 0, false, -1);
    packetizer.writePcrOnlyPacket(buf, 0, 300);
    const [p] = readPackets(buf, 188);
    expect([p.afc, p.cc, p.afLength, p.pcr27MHz, p.pusi]).to.deep.equal([2, 0, 183, 300, false]);
  });
});
