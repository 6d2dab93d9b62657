import { expect } from 'chai';
import { st0601Checksum, verifySt0601Checksum } from '../../src/klv/checksum.js';

describe('ST 0601 checksum (item 1)', () => {
  it('adds bytes at even positions shifted left 8 and odd ones as they are', () => {
    expect(st0601Checksum(Uint8Array.of(0x01, 0x02, 0x03), 0, 3)).to.equal(0x0102 + 0x0300);
  });

  it('counts positions from the start it is given, not from the buffer start', () => {
    expect(st0601Checksum(Uint8Array.of(0xff, 0x01, 0x02), 1, 3)).to.equal(0x0102);
  });

  it('wraps at 16 bits', () => {
    expect(st0601Checksum(Uint8Array.of(0xff, 0xff, 0x00, 0x02), 0, 4)).to.equal(0x0001);
  });

  it('verifies a stored value against the bytes before it', () => {
    const packet = Uint8Array.of(0x10, 0x20, 0x01, 0x02, 0x00, 0x00);
    const sum = st0601Checksum(packet, 0, 4);
    packet[4] = sum >> 8;
    packet[5] = sum & 0xff;
    expect(verifySt0601Checksum(packet, 0, 4)).to.deep.equal({ stored: sum, computed: sum, valid: true });
    packet[5] ^= 1;
    expect(verifySt0601Checksum(packet, 0, 4).valid).to.equal(false);
  });
});
