import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { LocalSetItem } from '../../src/klv/local-set.js';
import { scanKlvStream } from '../../src/klv/klv-triplet.js';
import { St0601ItemFrames } from '../../src/klv/st0601-item-frames.js';
import { frameSt0601Items } from '../../src/klv/st0601-packet.js';
import { malformedSt0601Packets, packetFromItems, TIME_AND_VERSION } from './st0601-hand-made-packets.js';

/** Every item the cursor frames in `bytes[start, end)`, copied out of it. */
function framedByCursor(frames: St0601ItemFrames, bytes: Uint8Array, start: number, end: number): LocalSetItem[] {
  const items: LocalSetItem[] = [];
  for (frames.reset(bytes, start, end); frames.next(); ) items.push({ tag: frames.tag, tagOffset: frames.tagOffset, valueOffset: frames.valueOffset, length: frames.length });
  return items;
}

describe('St0601ItemFrames (ST 0601 items framed into one reused cursor)', () => {
  it('frames the items frameSt0601Items frames, in its order, for well formed and malformed packets', function () {
    const realflight = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin')));
    const packets = [
      ...scanKlvStream(realflight).triplets.map((t) => realflight.subarray(t.keyOffset, t.end)),
      ...malformedSt0601Packets(),
      // A two-byte tag (128) and a long-form length between one-byte tags: the rest framed by parseLocalSet.
      packetFromItems(`${TIME_AND_VERSION}8100020102058100`),
      packetFromItems(`${TIME_AND_VERSION}0a8103414243`),
    ];
    expect(packets.length).to.be.greaterThan(10);
    const frames = new St0601ItemFrames();
    let items = 0;
    for (const bytes of packets) {
      const expected = frameSt0601Items(bytes, 0, bytes.length);
      expect(framedByCursor(frames, bytes, 0, bytes.length)).to.deep.equal(expected);
      items += expected.length;
    }
    expect(items).to.be.greaterThan(100);
  });

  it('frames a packet inside a larger buffer with absolute offsets, and nothing past its end', () => {
    const packet = packetFromItems(`${TIME_AND_VERSION}0a03414243`);
    const buffer = new Uint8Array(packet.length + 10).fill(0x05);
    buffer.set(packet, 4);
    const frames = new St0601ItemFrames();
    const framed = framedByCursor(frames, buffer, 4, 4 + packet.length);
    expect(framed).to.deep.equal(frameSt0601Items(buffer, 4, 4 + packet.length));
    expect(framed.map((item) => item.tag)).to.deep.equal([2, 65, 10, 1]);
    expect(framed[0].tagOffset).to.equal(4 + 17);
  });
});
