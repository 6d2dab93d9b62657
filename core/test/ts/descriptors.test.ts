import { expect } from 'chai';
import { parseDescriptors, registrationFormat } from '../../src/ts/descriptors.js';

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/\s/g, ''), 'hex'));

describe('descriptors', () => {
  it('decodes a KLVA registration descriptor', () => {
    const d = parseDescriptors(hex('05 04 4b4c5641'), 0, 6);
    expect(d).to.deep.equal([{ tag: 5, name: 'registration', dataHex: '4b4c5641', fields: { formatIdentifier: 'KLVA' } }]);
    expect(registrationFormat(d ?? [])).to.equal('KLVA');
  });

  it('decodes the metadata descriptor of MISB ST 1402 synchronous carriage', () => {
    const d = parseDescriptors(hex('26 09 0100ff4b4c5641000f'), 0, 11);
    expect(d?.[0].fields).to.deep.equal({
      metadataApplicationFormat: 0x0100,
      metadataFormat: 0xff,
      metadataFormatIdentifier: 'KLVA',
      metadataServiceId: 0,
      decoderConfigFlags: 0,
      dsmccFlag: false,
    });
  });

  it('decodes the metadata_STD descriptor', () => {
    const d = parseDescriptors(hex('27 09 c00001 c00100 c01000'), 0, 11);
    expect(d?.[0].fields).to.deep.equal({ metadataInputLeakRate: 1, metadataBufferSize: 256, metadataOutputLeakRate: 4096 });
  });

  it('decodes ISO 639 languages', () => {
    const d = parseDescriptors(hex('0a 08 656e6700 66726101'), 0, 10);
    expect(d?.[0].fields).to.deep.equal({ language: 'eng,fra', audioType: 0 });
  });

  it('keeps unknown descriptors raw', () => {
    const d = parseDescriptors(hex('c8 03 010203'), 0, 5);
    expect(d).to.deep.equal([{ tag: 0xc8, name: 'user_private_or_dvb', dataHex: '010203' }]);
  });

  it('gives null when a descriptor runs past its loop', () => {
    expect(parseDescriptors(hex('05 04 4b4c56'), 0, 5)).to.equal(null);
  });
});
