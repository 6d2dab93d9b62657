import { expect } from 'chai';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { runCli } from './run-cli.js';

interface KlvLine {
  pid: number;
  carriage: string;
  standard: string | null;
  version: number | null;
  timestamp: string | null;
  checksum: { valid: boolean } | null;
  items: Record<string, { tag: number; value: unknown; units?: string; rawHex?: string }>;
  problems: Array<{ type: string }>;
  rawHex?: string;
}

const lines = (stdout: string): KlvLine[] => stdout.trim().split('\n').map((l) => JSON.parse(l) as KlvLine);

describe('klvscope klv', function () {
  this.timeout(30_000);

  it('prints one NDJSON line per KLV packet of a transport stream, items by name with units', function () {
    const file = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const { status, stdout } = runCli(['klv', file]);
    expect(status).to.equal(0);
    const packets = lines(stdout);
    expect(packets).to.have.length(277);
    expect(packets[0]).to.include({ pid: 0x101, carriage: 'async', standard: 'MISB ST 0601', version: 4, timestamp: '2012-06-29T14:32:34.100Z' });
    expect(packets[0].checksum?.valid).to.be.true;
    expect(packets[0].items['Platform Designation'].value).to.equal('VRSG 5.6');
    expect(packets[0].items['Sensor Latitude'].units).to.equal('°');
    expect(packets[0].items['Sensor Latitude'].value).to.be.closeTo(34.72115, 1e-5);
    expect(packets.every((p) => p.problems.length === 0)).to.be.true;
  });

  it('reads a raw KLV byte stream and adds hex with --raw', function () {
    const file = fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin');
    const { status, stdout } = runCli(['klv', '--raw', file]);
    expect(status).to.equal(0);
    const packets = lines(stdout);
    expect(packets).to.have.length(19);
    expect(packets[0]).to.include({ pid: -1, carriage: 'raw', version: 11 });
    expect(packets[0].rawHex?.startsWith('060e2b34020b01010e01030101000000')).to.be.true;
    expect(packets[0].items['Platform Designation']).to.include({ value: 'AR5', rawHex: '415235' });
  });

  it('reports the bad checksum of the ST 0902.5 example on its line', function () {
    const file = fixtureOrSkip(this, 'klv', 'klvdata_DynamicConstantMISMMSPacketData.bin');
    const [packet] = lines(runCli(['klv', file]).stdout);
    expect(packet.checksum).to.deep.include({ valid: false, stored: 0xaa43, computed: 0x3e1e });
    expect(packet.problems.map((p) => p.type)).to.deep.equal(['klv-checksum-error']);
  });
});
