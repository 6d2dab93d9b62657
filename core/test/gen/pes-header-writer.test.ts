import { expect } from 'chai';
import { writePesHeader, writeTimestamp } from '../../src/gen/pes-header-writer.js';
import { readTimestamp } from './ts-reader.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('PES header writer', () => {
  it('encodes a PTS with prefix 0010 and its three marker bits', () => {
    const buf = new Uint8Array(5);
    writeTimestamp(buf, 0, 0b0010, 0x123456789);
    expect(hex(buf)).to.equal('298d15cf13');
    expect(readTimestamp(buf, 0)).to.deep.equal({ value: 0x123456789, prefix: 2, markers: true });
  });

  it('writes a video header with PTS and DTS and PES_packet_length 0', () => {
    const buf = new Uint8Array(19);
    const length = writePesHeader(buf, 0, { streamId: 0xe0, payloadLength: 100_000, unbounded: true, pts90kHz: 3000, dts90kHz: 0, dataAlignment: true });
    expect(length).to.equal(19);
    expect(hex(buf)).to.equal('000001e00000' + '84c00a' + '3100011771' + '1100010001');
  });

  it('writes PTS only, with PES_packet_length counting header and payload', () => {
    const buf = new Uint8Array(14);
    expect(writePesHeader(buf, 0, { streamId: 0xc0, payloadLength: 341, pts90kHz: 0, dataAlignment: true })).to.equal(14);
    // 3 + 5 + 341 = 349 = 0x015d
    expect(hex(buf)).to.equal('000001c0015d' + '848005' + '2100010001');
  });

  it('writes no timestamps, and stuffing in their place when asked', () => {
    const buf = new Uint8Array(14);
    expect(writePesHeader(buf, 0, { streamId: 0xfc, payloadLength: 10, pts90kHz: null, stuffingBytes: 5 })).to.equal(14);
    expect(hex(buf)).to.equal('000001fc0012' + '800005' + 'ffffffffff');
  });

  it('refuses a bounded PES longer than 65535 bytes', () => {
    expect(() => writePesHeader(new Uint8Array(19), 0, { streamId: 0xc0, payloadLength: 70_000, pts90kHz: 0 })).to.throw(RangeError, 'exceeds 65535');
  });
});
