import { expect } from 'chai';
import { crc32Mpeg2 } from '../../src/ts/crc32.js';
import { writePatSection } from '../../src/gen/pat-section-writer.js';
import { writePmtSection } from '../../src/gen/pmt-section-writer.js';
import { writeLongSection } from '../../src/gen/psi-section-writer.js';
import { registrationDescriptor } from '../../src/gen/descriptor-writer.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('PSI section writer', () => {
  it('writes the well-known PAT of transport stream 1 with program 1 on PID 0x1000, CRC 0x2AB104B2', () => {
    const pat = writePatSection({ transportStreamId: 1, programs: [{ programNumber: 1, pid: 0x1000 }] });
    expect(hex(pat)).to.equal('00b00d0001c100000001f0002ab104b2');
  });

  it('writes version, current_next_indicator and section numbers into the header', () => {
    const section = writeLongSection({ tableId: 0x42, tableIdExtension: 0xbeef, version: 5, currentNext: false, sectionNumber: 1, lastSectionNumber: 2, body: Uint8Array.of(0xaa) });
    expect(hex(section.subarray(0, 9))).to.equal('42b00abeefca0102aa');
    expect(crc32Mpeg2(section)).to.equal(0);
  });

  it('writes a PMT with PCR_PID, program_info and one ES_info loop per stream', () => {
    const klva = registrationDescriptor('KLVA');
    const pmt = writePmtSection({
      programNumber: 1,
      pcrPid: 0x100,
      programDescriptors: Uint8Array.of(0x0e, 0x00),
      streams: [
        { streamType: 0x1b, elementaryPid: 0x100 },
        { streamType: 0x06, elementaryPid: 0x102, descriptors: klva },
      ],
    });
    expect(hex(pmt.subarray(0, pmt.length - 4))).to.equal(
      '02b0' + '1f' + '0001c10000' + 'e100' + 'f002' + '0e00' + '1be100f000' + '06e102f006' + '05044b4c5641',
    );
    expect(crc32Mpeg2(pmt)).to.equal(0);
  });

  it('refuses a section longer than 1021 bytes after section_length', () => {
    expect(() => writeLongSection({ tableId: 2, tableIdExtension: 1, body: new Uint8Array(1013) })).to.throw(RangeError, 'section_length 1022');
  });
});
