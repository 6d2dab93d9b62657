import { expect } from 'chai';
import { isAudioStreamType, isVideoStreamType, streamTypeName } from '../../src/ts/stream-types.js';

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

  it('tells the audio stream types (MPEG audio, AAC in ADTS and LATM, MPEG-4, AC-3, E-AC-3, DTS, TrueHD) from video, metadata and the rest', () => {
    const audio = Array.from({ length: 256 }, (_, type) => type).filter(isAudioStreamType);
    expect(audio).to.deep.equal([0x03, 0x04, 0x0f, 0x11, 0x1c, 0x81, 0x82, 0x83, 0x84, 0x87]);
  });
});
