import { expect } from 'chai';
import { packetizeSection } from '../../src/gen/psi-packetizer.js';
import { readPackets, readSections } from './ts-reader.js';

describe('PSI packetizer', () => {
  it('puts a pointer_field of 0 before a short section and fills the packet with 0xFF', () => {
    const section = Uint8Array.of(0x00, 0xb0, 0x01, 0x42);
    const packets = packetizeSection(0, section);
    expect(packets.length).to.equal(188);
    expect(Array.from(packets.subarray(0, 9))).to.deep.equal([0x47, 0x40, 0x00, 0x10, 0x00, 0x00, 0xb0, 0x01, 0x42]);
    expect(packets.subarray(9).every((b) => b === 0xff)).to.be.true;
  });

  it('spreads a long section over packets, PUSI only in the first', () => {
    const section = new Uint8Array(400);
    section[0] = 0x02;
    section[1] = 0xb0 | (397 >> 8);
    section[2] = 397 & 0xff;
    for (let i = 3; i < 400; i++) section[i] = i & 0xff;
    const packets = packetizeSection(0x1000, section);
    expect(packets.length).to.equal(3 * 188);
    const read = readPackets(packets, 188);
    expect(read.map((p) => [p.pid, p.pusi])).to.deep.equal([[0x1000, true], [0x1000, false], [0x1000, false]]);
    const sections = readSections(packets, read, 0x1000);
    expect(sections).to.have.length(1);
    expect(Array.from(sections[0].section)).to.deep.equal(Array.from(section));
  });
});
