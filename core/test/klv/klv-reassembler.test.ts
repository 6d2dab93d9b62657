import { expect } from 'chai';
import { KlvReassembler, type KlvOrigin } from '../../src/klv/klv-reassembler.js';
import { encodeSt0601 } from '../../src/klv/st0601-packet.js';

interface Seen {
  triplets: Array<{ hex: string; origin: KlvOrigin; intoPiece: number }>;
  garbage: Array<{ count: number; message: string; origin: KlvOrigin; intoPiece: number }>;
}

function reassembler(): { r: KlvReassembler; seen: Seen } {
  const seen: Seen = { triplets: [], garbage: [] };
  const r = new KlvReassembler({
    triplet: (bytes, start, end, origin, intoPiece) => seen.triplets.push({ hex: Buffer.from(bytes.subarray(start, end)).toString('hex'), origin, intoPiece }),
    garbage: (origin, count, message, intoPiece) => seen.garbage.push({ count, message, origin, intoPiece }),
  });
  return { r, seen };
}

const origin = (offset: number): KlvOrigin => ({ offset, packetIndex: offset / 188, pts90kHz: null });
const packet = (mission: string): Uint8Array => encodeSt0601([{ tag: 2, value: 1_600_000_000_000_000 }, { tag: 3, value: mission }, { tag: 65, value: 17 }]);
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('KLV reassembly from pieces', () => {
  it('frames a packet split at every possible point, at the origin of its first byte', () => {
    const p = packet('SPLIT');
    for (let split = 1; split < p.length; split++) {
      const { r, seen } = reassembler();
      r.push(p.subarray(0, split), origin(0));
      r.push(p.subarray(split), origin(188));
      expect(seen.triplets.map((t) => [t.hex, t.origin.offset]), `split ${split}`).to.deep.equal([[hex(p), 0]]);
      expect(seen.garbage).to.deep.equal([]);
    }
  });

  it('frames several packets in one piece, each with how far into the piece it starts', () => {
    const a = packet('A');
    const b = packet('BB');
    const { r, seen } = reassembler();
    r.push(Uint8Array.from([...a, ...b]), origin(376));
    expect(seen.triplets.map((t) => [t.hex, t.intoPiece])).to.deep.equal([[hex(a), 0], [hex(b), a.length]]);
  });

  it('reports a run of garbage once, even across pieces, then goes on', () => {
    const p = packet('AFTER');
    const { r, seen } = reassembler();
    r.push(new Uint8Array(10).fill(0x55), origin(0));
    r.push(Uint8Array.from([...new Uint8Array(7).fill(0x66), ...p]), origin(188));
    expect(seen.garbage.map((g) => [g.count, g.origin.offset, g.intoPiece])).to.deep.equal([[17, 0, 0]]);
    expect(seen.triplets.map((t) => [t.hex, t.intoPiece])).to.deep.equal([[hex(p), 7]]);
  });

  it('reports a packet cut short when the data ends', () => {
    const p = packet('CUT');
    const { r, seen } = reassembler();
    r.push(p.subarray(0, 30), origin(0));
    r.flush();
    expect(seen.garbage.map((g) => [g.count, g.message])).to.deep.equal([[30, 'KLV packet cut short at the end of the data']]);
    expect(r.pending).to.equal(0);
  });

  it('skips a key whose BER length is indefinite (0x80)', () => {
    const p = packet('OK');
    const bad = Uint8Array.from([...p.subarray(0, 16), 0x80, 1, 2, 3]);
    const { r, seen } = reassembler();
    r.push(Uint8Array.from([...bad, ...p]), origin(0));
    expect(seen.triplets.map((t) => t.hex)).to.deep.equal([hex(p)]);
    expect(seen.garbage.map((g) => g.count)).to.deep.equal([bad.length]);
  });
});
