/**
 * The viewer's frame timing, apart from the browser: media time to PTS, the
 * packet picked for a frame, the 33-bit wrap, and the clock jumps that make
 * the page start a new player.
 */
import { expect } from 'chai';
import type { FrameKlvValues, StreamKlvMessage } from '@klvscope/core';
import { ClockJumpWatch } from '../src/viewer/clock-jump-watch.js';
import { KlvFrameBuffer } from '../src/viewer/klv-frame-buffer.js';
import { MediaTimeMapping, unwrapPts, wrapPts } from '../src/viewer/pts-clock.js';

const WRAP = 2 ** 33;
const FRAME = 3000;

function klv(pts90kHz: number | null, carriage: 'sync' | 'async', latitude: number): StreamKlvMessage {
  const values = { sensorLatitudeDeg: latitude } as FrameKlvValues;
  return { type: 'klv', pid: 0x101, carriage, pts90kHz, streamTime: null, standard: 'MISB ST 0601', checksumValid: true, values };
}

/** A PES-starting TS packet of `pid` whose PES header carries `pts` (ISO 13818-1 2.4.3.7). */
function videoPesPacket(pid: number, pts: number): Uint8Array {
  const packet = new Uint8Array(188).fill(0xff);
  packet.set([0x47, 0x40 | (pid >> 8), pid & 0xff, 0x10, 0x00, 0x00, 0x01, 0xe0, 0x00, 0x00, 0x80, 0x80, 0x05]);
  const high = Math.floor(pts / 2 ** 30);
  const low = pts % 2 ** 30;
  packet.set([0x21 | (high << 1), (low >>> 22) & 0xff, (((low >>> 15) & 0x7f) << 1) | 1, (low >>> 7) & 0xff, ((low & 0x7f) << 1) | 1], 13);
  return packet;
}

describe('the viewer frame timing', () => {
  it('maps media time to the PTS of the frame within half a millisecond, the way mpegts.js rounds it', () => {
    const start = 195_030;
    const mapping = new MediaTimeMapping(start, 0);
    // mpegts.js: media time = floor(PTS / 90) - floor(first DTS / 90), in ms.
    for (let frame = 0; frame < 300; frame++) {
      const pts = start + frame * FRAME + (frame % 7);
      const mediaTime = (Math.floor(pts / 90) - Math.floor(start / 90)) / 1000;
      expect(Math.abs(mapping.ptsAt(mediaTime) - pts)).to.be.at.most(45);
    }
  });

  it('counts media time from the first frame when the buffer does not start at 0 (B-frames)', () => {
    const mapping = new MediaTimeMapping(900_000, 0.066);
    expect(mapping.ptsAt(0.066 + 1)).to.equal(900_000 + 90_000 + 45);
  });

  it('unwraps PTS across the 33-bit wrap and wraps them back', () => {
    expect(unwrapPts(1000, WRAP - 2000)).to.equal(WRAP + 1000);
    expect(unwrapPts(WRAP - 2000, 1000)).to.equal(-2000);
    expect(wrapPts(WRAP + 1000)).to.equal(1000);
    expect(wrapPts(-2000)).to.equal(WRAP - 2000);
  });

  it('gives a synchronous packet to the frame with its PTS, and says when a frame has none', () => {
    const buffer = new KlvFrameBuffer(90_000);
    for (let i = 0; i < 5; i++) if (i !== 3) buffer.add(klv(90_000 + i * FRAME, 'sync', i), 0);
    expect(buffer.forFrame(90_000 + 2 * FRAME + 45, 0)).to.deep.include({ exact: true });
    expect(buffer.forFrame(90_000 + 2 * FRAME + 45, 0)?.entry.message.values.sensorLatitudeDeg).to.equal(2);
    const missing = buffer.forFrame(90_000 + 3 * FRAME + 45, 0);
    expect(missing?.exact).to.be.false;
    expect(missing?.entry.message.values.sensorLatitudeDeg).to.equal(2);
  });

  it('gives an asynchronous packet to the frames from its PTS on, across the wrap', () => {
    const buffer = new KlvFrameBuffer(WRAP - 10 * FRAME);
    buffer.add(klv(WRAP - FRAME, 'async', 1), 0);
    buffer.add(klv(4 * FRAME, 'async', 2), 0);
    expect(buffer.forFrame(WRAP + 45, 0)?.entry.message.values.sensorLatitudeDeg).to.equal(1);
    expect(buffer.forFrame(WRAP + 5 * FRAME + 45, 0)?.entry.message.values.sensorLatitudeDeg).to.equal(2);
    expect(buffer.forFrame(WRAP - 2 * FRAME, 0)).to.equal(null);
  });

  it('gives a packet without PTS to the frames whose bytes came after it', () => {
    const buffer = new KlvFrameBuffer(0);
    buffer.add(klv(null, 'async', 1), 1000);
    buffer.add(klv(null, 'async', 2), 1100);
    expect(buffer.forFrame(50_000, 1050)?.entry.message.values.sensorLatitudeDeg).to.equal(1);
    expect(buffer.forFrame(50_000, 1200)?.entry.message.values.sensorLatitudeDeg).to.equal(2);
    expect(buffer.forFrame(50_000, 900)).to.equal(null);
  });

  it('sees the video clock jump back (a looped file), but not the 33-bit wrap', () => {
    const watch = new ClockJumpWatch(0x100, WRAP - 2 * FRAME);
    expect(watch.push(videoPesPacket(0x100, WRAP - FRAME))).to.be.false;
    expect(watch.push(videoPesPacket(0x100, 0))).to.be.false;
    expect(watch.push(videoPesPacket(0x101, 5_000_000))).to.be.false;
    expect(watch.push(videoPesPacket(0x100, FRAME))).to.be.false;
    expect(watch.push(videoPesPacket(0x100, 195_030))).to.be.false;
    expect(watch.push(videoPesPacket(0x100, 1000))).to.be.true;
  });
});
