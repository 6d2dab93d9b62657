import { expect } from 'chai';
import { generateTransportStream } from '../../src/gen/generator.js';
import type { AccessUnit, ElementaryStreamSource, SourceContext } from '../../src/gen/elementary-stream-source.js';
import type { FaultSpec } from '../../src/gen/fault-spec.js';
import { descriptorLoop, metadataDescriptor, metadataPointerDescriptor, metadataStdDescriptor, registrationDescriptor } from '../../src/gen/descriptor-writer.js';
import { DEFAULT_INITIAL_PCR_27MHZ } from '../../src/gen/generator-options.js';
import { readPackets, readPes, readSections } from './ts-reader.js';

/** A stand-in for the KLV source of the next issue: a 40-byte unit every video frame (or every `periodSeconds`). */
class FakeMetadataSource implements ElementaryStreamSource {
  readonly nominalBitrate = 40 * 8 * 30;
  private next = 0;
  private delay90kHz = 0;
  private faultAt: number | null = null;
  readonly units: AccessUnit[] = [];

  constructor(
    readonly pid: number,
    readonly streamType: number,
    readonly streamId: number,
    readonly descriptors: Uint8Array,
    private readonly synchronous: boolean,
    readonly programDescriptors?: Uint8Array,
  ) {}

  start(context: SourceContext): void {
    this.next = 0;
    this.delay90kHz = context.decoderDelay90kHz;
    this.units.length = 0;
  }

  nextAccessUnits(upToSeconds: number): AccessUnit[] {
    const out: AccessUnit[] = [];
    while (this.next / 30 <= upToSeconds) {
      const k = this.next++;
      const payload = Uint8Array.from({ length: 40 }, (_, i) => (k + i) & 0xff);
      const unit: AccessUnit = { readySeconds: k / 30, pts90kHz: this.synchronous ? k * 3000 + this.delay90kHz : null, payload };
      if (this.faultAt !== null && k / 30 >= this.faultAt) {
        payload[39] ^= 0xff;
        unit.fault = { kind: 'fake-checksum', atSeconds: this.faultAt, expect: { observation: 'klv-packet' }, details: { unit: k } };
        this.faultAt = null;
      }
      this.units.push(unit);
      out.push(unit);
    }
    return out;
  }

  acceptFault(spec: FaultSpec): boolean {
    if (spec.kind !== 'fake-checksum') return false;
    this.faultAt = spec.atSeconds;
    return true;
  }
}

const synchronousKlv = (): FakeMetadataSource =>
  new FakeMetadataSource(
    0x102,
    0x15,
    0xfc,
    descriptorLoop(metadataDescriptor(), metadataStdDescriptor({ inputLeakRate: 0x3fffff, bufferSize: 1, outputLeakRate: 0x3fffff })),
    true,
    metadataPointerDescriptor({ programNumber: 1 }),
  );
const asynchronousKlv = (): FakeMetadataSource => new FakeMetadataSource(0x103, 0x06, 0xbd, registrationDescriptor('KLVA'), false);

describe('extra elementary streams', () => {
  const sync = synchronousKlv();
  const async = asynchronousKlv();
  const { bytes } = generateTransportStream({ durationSeconds: 2, bitrate: 2_000_000, extraStreams: [sync, async] });
  const packets = readPackets(bytes, 188);

  it('lists them in the PMT with their descriptors, and their program descriptors in program_info', () => {
    const pmt = readSections(bytes, packets, 0x1000)[0].section;
    const hex = Buffer.from(pmt.subarray(0, pmt.length - 4)).toString('hex');
    expect(hex).to.equal(
      '02b0' + '45' + '0001c10000' + 'e100' + 'f00d' + '250b0100ff4b4c5641001f0001' +
        '1be100f000' +
        '15e102f016' + '26090100ff4b4c5641000f' + '2709ffffffc00001ffffff' +
        '06e103f006' + '05044b4c5641',
    );
  });

  it('sends every unit as one PES, synchronous ones with their PTS, asynchronous ones without', () => {
    const stc0 = DEFAULT_INITIAL_PCR_27MHZ / 300;
    const syncPes = readPes(bytes, packets, 0x102);
    expect(syncPes.length).to.be.within(58, 61);
    syncPes.forEach((p, k) => {
      expect([p.streamId, p.ptsDtsFlags, p.pts, p.pesPacketLength]).to.deep.equal([0xfc, 2, stc0 + 36_000 + k * 3000, 3 + 5 + 40]);
    });
    const asyncPes = readPes(bytes, packets, 0x103);
    expect(asyncPes.every((p) => p.streamId === 0xbd && p.ptsDtsFlags === 0 && p.pesPacketLength === 3 + 40)).to.be.true;
  });

  it('carries the payload bytes unchanged', () => {
    const first = packets.find((p) => p.pid === 0x103 && p.pusi) as (typeof packets)[0];
    const payload = bytes.subarray(first.payloadStart + 9, first.payloadStart + 9 + 40);
    expect(Array.from(payload)).to.deep.equal(Array.from(async.units[0].payload));
  });

  it('lets a source inject its own fault kind and reports it at the packet that starts the unit', () => {
    const source = asynchronousKlv();
    const run = generateTransportStream({ durationSeconds: 2, bitrate: 2_000_000, extraStreams: [source], faults: [{ kind: 'fake-checksum', atSeconds: 1 }] });
    const read = readPackets(run.bytes, 188);
    const [fault] = run.faults;
    expect(fault).to.deep.include({ kind: 'fake-checksum', pid: 0x103, atSeconds: 1, expect: { observation: 'klv-packet' }, details: { unit: 30 } });
    const start = read[fault.packetIndex];
    expect([start.pid, start.pusi, start.offset]).to.deep.equal([0x103, true, fault.offset]);
    expect(run.bytes[start.payloadStart + 9 + 39]).to.equal((30 + 39) ^ 0xff);
  });
});
