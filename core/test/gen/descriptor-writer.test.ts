import { expect } from 'chai';
import {
  descriptorLoop,
  metadataDescriptor,
  metadataPointerDescriptor,
  metadataStdDescriptor,
  registrationDescriptor,
} from '../../src/gen/descriptor-writer.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('descriptor writer', () => {
  it("writes a registration descriptor with format_identifier 'KLVA'", () => {
    expect(hex(registrationDescriptor('KLVA'))).to.equal('05044b4c5641');
  });

  it('writes the metadata descriptor of MISB ST 1402: general format, KLVA, service 0, no decoder config', () => {
    expect(hex(metadataDescriptor())).to.equal('260901' + '00ff4b4c5641000f');
  });

  it('writes a metadata pointer descriptor naming the program', () => {
    expect(hex(metadataPointerDescriptor({ programNumber: 1 }))).to.equal('250b0100ff4b4c5641001f0001');
  });

  it('writes a metadata_STD descriptor as three 22-bit fields after reserved ones', () => {
    expect(hex(metadataStdDescriptor({ inputLeakRate: 0x3fffff, bufferSize: 1, outputLeakRate: 0x123456 }))).to.equal('2709ffffffc00001d23456');
  });

  it('adds the application format identifier when the format is 0xFFFF', () => {
    expect(hex(metadataDescriptor({ applicationFormat: 0xffff, applicationFormatIdentifier: 'ABCD', format: 0x3f, serviceId: 7 }))).to.equal(
      '2609ffff414243443f070f',
    );
  });

  it('concatenates descriptors into a loop', () => {
    expect(hex(descriptorLoop(Uint8Array.of(1, 0), Uint8Array.of(2, 1, 9)))).to.equal('0100020109');
  });

  it('refuses a format identifier that is not four characters', () => {
    expect(() => registrationDescriptor('KLV')).to.throw(RangeError, "format identifier 'KLV' must be 4 characters");
  });
});
