import { expect } from 'chai';
import { detectPacketLayout } from '../../src/ts/packet-layout.js';

function stream(size: number, count: number, lead = 0, syncAt = 0): Uint8Array {
  const bytes = new Uint8Array(lead + size * count);
  for (let i = 0; i < count; i++) bytes[lead + i * size + syncAt] = 0x47;
  return bytes;
}

describe('packet size detection', () => {
  it('finds 188-byte packets', () => {
    expect(detectPacketLayout(stream(188, 6), 0, 188 * 6, false)).to.deep.equal({ size: 188, firstSync: 0 });
  });

  it('finds 192-byte packets with their sync byte after a 4-byte timestamp', () => {
    expect(detectPacketLayout(stream(192, 6, 0, 4), 0, 192 * 6, false)).to.deep.equal({ size: 192, firstSync: 4 });
  });

  it('finds 204-byte packets', () => {
    expect(detectPacketLayout(stream(204, 6), 0, 204 * 6, false)).to.deep.equal({ size: 204, firstSync: 0 });
  });

  it('skips garbage before the first run of packets', () => {
    const bytes = stream(188, 6, 100);
    bytes[10] = 0x47;
    expect(detectPacketLayout(bytes, 0, bytes.length, false)).to.deep.equal({ size: 188, firstSync: 100 });
  });

  it('waits for more data while fewer than five packets are in', () => {
    expect(detectPacketLayout(stream(188, 3), 0, 188 * 3, false)).to.equal(null);
  });

  it('accepts a short stream at its end', () => {
    expect(detectPacketLayout(stream(188, 2), 0, 188 * 2, true)).to.deep.equal({ size: 188, firstSync: 0 });
  });

  it('finds nothing in data without sync bytes', () => {
    expect(detectPacketLayout(new Uint8Array(5000), 0, 5000, true)).to.equal(null);
  });
});
