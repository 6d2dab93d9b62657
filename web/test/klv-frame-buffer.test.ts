/**
 * The viewer's pick of the metadata packet for the frame on screen
 * (web/src/viewer/klv-frame-buffer.ts) while the video is paused: the
 * stream is live, so packets go on arriving behind a paused frame, and the
 * frame must keep showing the packet it showed.
 */
import { expect } from 'chai';
import type { StreamKlvMessage } from '@klvscope/core/browser';
import { KlvFrameBuffer } from '../src/viewer/klv-frame-buffer.js';

const FRAME_90KHZ = 3_000;
const START_PTS = 195_030;

function packet(pts90kHz: number | null, latitude: number): StreamKlvMessage {
  return {
    type: 'klv',
    pid: 0x101,
    carriage: 'async',
    pts90kHz,
    streamTime: null,
    standard: 'MISB ST 0601',
    checksumValid: true,
    values: { sensorLatitudeDeg: latitude } as StreamKlvMessage['values'],
  };
}

/** One packet a frame, from the `first`-th frame on, arriving in real time from `arrivedMs` on (33 ms a frame). */
function addFrames(buffer: KlvFrameBuffer, first: number, count: number, timed: boolean): void {
  for (let n = first; n < first + count; n++) buffer.add(packet(timed ? START_PTS + n * FRAME_90KHZ : null, n), n * (1000 / 30));
}

describe('the viewer KLV pick of a paused frame', () => {
  it('keeps the packet of a paused frame while more than 10 s of later packets arrive (asynchronous with PTS)', () => {
    const buffer = new KlvFrameBuffer(START_PTS);
    addFrames(buffer, 0, 300, true);
    const frame = START_PTS + 150 * FRAME_90KHZ + 45;
    const before = buffer.forFrame(frame, 150 * (1000 / 30));
    expect(before?.entry.message.values.sensorLatitudeDeg).to.equal(150);
    // Paused: 20 s of the live stream come in behind it; each packet makes the page look the frame up again.
    for (let n = 300; n < 900; n++) {
      addFrames(buffer, n, 1, true);
      expect(buffer.forFrame(frame, 150 * (1000 / 30))?.entry.message.values.sensorLatitudeDeg, `after packet ${n}`).to.equal(150);
    }
  });

  it('keeps the packet of a paused frame for packets without PTS (picked by arrival)', () => {
    const buffer = new KlvFrameBuffer(START_PTS);
    addFrames(buffer, 0, 300, false);
    const frameArrivedMs = 150 * (1000 / 30) + 1;
    expect(buffer.forFrame(START_PTS + 150 * FRAME_90KHZ, frameArrivedMs)?.entry.message.values.sensorLatitudeDeg).to.equal(150);
    addFrames(buffer, 300, 600, false);
    expect(buffer.forFrame(START_PTS + 150 * FRAME_90KHZ, frameArrivedMs)?.entry.message.values.sensorLatitudeDeg).to.equal(150);
  });

  it('still drops old packets while playing (the frame on screen follows the newest)', () => {
    const buffer = new KlvFrameBuffer(START_PTS);
    for (let n = 0; n < 900; n++) {
      addFrames(buffer, n, 1, true);
      buffer.forFrame(START_PTS + n * FRAME_90KHZ + 45, n * (1000 / 30));
    }
    // 10 s behind the frame last shown: gone.
    expect(buffer.forFrame(START_PTS + 100 * FRAME_90KHZ + 45, 100 * (1000 / 30))).to.equal(null);
  });
});
