import { expect } from 'chai';
import { writePacketHeader, AFC_ADAPTATION_AND_PAYLOAD, AFC_PAYLOAD_ONLY } from '../../src/gen/packet-header-writer.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('TS packet header writer', () => {
  it('writes sync byte, PUSI, PID, AFC and CC in the ISO 13818-1 bit positions', () => {
    const buf = new Uint8Array(4);
    writePacketHeader(buf, 0, 0x1abc, true, AFC_ADAPTATION_AND_PAYLOAD, 0x0d);
    expect(hex(buf)).to.equal('475abc3d');
  });

  it('sets transport_error_indicator, transport_priority and scrambling control on request', () => {
    const buf = new Uint8Array(4);
    writePacketHeader(buf, 0, 0x0100, false, AFC_PAYLOAD_ONLY, 0x0f, { transportError: true, transportPriority: true, scrambling: 2 });
    expect(hex(buf)).to.equal('47a1009f');
  });
});
