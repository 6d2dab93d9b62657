import { expect } from 'chai';
import { isVideoStreamType, streamTypeName } from '../../src/ts/stream-types.js';

describe('stream types', () => {
  it('names a stream_type, and an unknown one by its number', () => {
    expect(streamTypeName(0x1b)).to.equal('H.264/AVC video');
    expect(streamTypeName(0x99)).to.equal('unknown (0x99)');
  });

  it('tells the video stream types (ISO 13818-1 Table 2-34 and registered private ones) from audio, metadata and the rest', () => {
    const video = Array.from({ length: 256 }, (_, type) => type).filter(isVideoStreamType);
    expect(video).to.deep.equal([0x01, 0x02, 0x10, 0x1b, 0x1f, 0x20, 0x21, 0x24, 0x33, 0x42, 0xd1, 0xea]);
    for (const type of [0x03, 0x06, 0x0f, 0x15, 0x81, 0x86, 0x99]) expect(isVideoStreamType(type), streamTypeName(type)).to.equal(false);
  });
});
