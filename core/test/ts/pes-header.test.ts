import { expect } from 'chai';
import { parsePesHeader, pesHeaderBytesNeeded } from '../../src/ts/pes-header.js';
import { pes } from './packet-builder.js';

describe('PES header', () => {
  it('reads stream_id, length and PTS', () => {
    const bytes = Uint8Array.from(pes(0xfc, [1, 2, 3], { pts: 900000 }));
    expect(parsePesHeader(bytes, 0)).to.deep.equal({ streamId: 0xfc, pesPacketLength: 11, pts90kHz: 900000, dts90kHz: null, headerLength: 14 });
  });

  it('reads PTS and DTS', () => {
    const bytes = Uint8Array.from(pes(0xe0, [], { pts: 3003, dts: 0, length: 0 }));
    const header = parsePesHeader(bytes, 0);
    expect(header).to.include({ pts90kHz: 3003, dts90kHz: 0, pesPacketLength: 0, headerLength: 19 });
  });

  it('has no optional header for private_stream_2 and padding', () => {
    const bytes = Uint8Array.from([0, 0, 1, 0xbf, 0, 2, 0xaa, 0xbb]);
    expect(pesHeaderBytesNeeded(bytes, 0, bytes.length)).to.equal(6);
    expect(parsePesHeader(bytes, 0)).to.deep.equal({ streamId: 0xbf, pesPacketLength: 2, pts90kHz: null, dts90kHz: null, headerLength: 6 });
  });

  it('needs 9 bytes plus PES_header_data_length before parsing', () => {
    const bytes = Uint8Array.from(pes(0xe0, [], { pts: 1 }));
    expect(pesHeaderBytesNeeded(bytes, 0, 4)).to.equal(9);
    expect(pesHeaderBytesNeeded(bytes, 0, bytes.length)).to.equal(14);
  });

  it('rejects a missing start code prefix', () => {
    expect(parsePesHeader(Uint8Array.from([0, 1, 1, 0xe0, 0, 0, 0x80, 0, 0]), 0)).to.equal('no packet_start_code_prefix 0x000001');
  });

  it("rejects PTS_DTS_flags '01'", () => {
    const bytes = Uint8Array.from(pes(0xe0, [], { pts: 1 }));
    bytes[7] = 0x40;
    expect(parsePesHeader(bytes, 0)).to.equal("PTS_DTS_flags '01' is forbidden");
  });

  it('rejects a PTS whose marker bits are cleared', () => {
    const bytes = Uint8Array.from(pes(0xe0, [], { pts: 1 }));
    bytes[9] &= 0xfe;
    expect(parsePesHeader(bytes, 0)).to.equal('PTS marker bits not set');
  });

  it("rejects an optional header that does not begin with '10'", () => {
    const bytes = Uint8Array.from(pes(0xe0, [], { pts: 1 }));
    bytes[6] = 0x40;
    expect(parsePesHeader(bytes, 0)).to.equal("optional PES header does not begin with '10'");
  });

  it('rejects a header longer than the PES packet', () => {
    const bytes = Uint8Array.from(pes(0xe0, [], { pts: 1, length: 4 }));
    expect(parsePesHeader(bytes, 0)).to.match(/exceeds PES_packet_length/);
  });
});
