import { expect } from 'chai';
import { seededRandom as random } from '../../../test-support/random.js';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { KlvProblem } from '../../src/klv/decoded-item.js';
import { decodeEg0104Packet } from '../../src/klv/eg0104-packet.js';
import { scanKlvStream } from '../../src/klv/klv-triplet.js';
import { parseLocalSet } from '../../src/klv/local-set.js';
import { decodeSt0102LocalSet, decodeSt0102Packet } from '../../src/klv/st0102-security-set.js';
import { decodeSt0903Packet } from '../../src/klv/st0903-vmti-packet.js';
import { decodeSt0903LocalSet } from '../../src/klv/st0903-vmti-set.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';

interface Decoded {
  readonly items: unknown[];
  readonly problems: KlvProblem[];
}

type Decoder = (bytes: Uint8Array, start: number, end: number) => Decoded;

/**
 * Decodes `bytes[start, end)` and checks what every decoder promises: it
 * returns, every problem points inside the decoded range, and the result
 * survives JSON unchanged (no bigint, no NaN, no undefined values).
 */
function decodeChecked(decode: Decoder, bytes: Uint8Array, start: number, end: number, label: string): Decoded {
  let result: Decoded;
  try {
    result = decode(bytes, start, end);
  } catch (error) {
    throw new Error(`${label}: threw ${String(error)}`, { cause: error });
  }
  for (const problem of result.problems) {
    if (problem.byteOffset < start || problem.byteOffset > end) {
      throw new Error(`${label}: problem at ${problem.byteOffset} outside [${start}, ${end}]: ${problem.message}`);
    }
  }
  const json = JSON.stringify(result);
  expect(JSON.parse(json), label).to.deep.equal(result);
  return result;
}

/** Every truncation, then `count` copies with 1 to 4 random bytes replaced, then `count` with random bytes inserted or removed. */
function mutateAndDecode(decode: Decoder, source: Uint8Array, count: number, seed: number, label: string): number {
  const next = random(seed);
  let cases = 0;
  for (let cut = 0; cut <= source.length; cut++, cases++) decodeChecked(decode, source.subarray(0, cut), 0, cut, `${label} cut at ${cut}`);
  for (let n = 0; n < count; n++, cases++) {
    const copy = source.slice();
    const changes = 1 + Math.floor(next() * 4);
    for (let c = 0; c < changes; c++) copy[Math.floor(next() * copy.length)] = Math.floor(next() * 256);
    decodeChecked(decode, copy, 0, copy.length, `${label} mutation ${n}`);
  }
  for (let n = 0; n < count; n++, cases++) {
    const at = Math.floor(next() * source.length);
    const copy =
      next() < 0.5
        ? Uint8Array.from([...source.subarray(0, at), Math.floor(next() * 256), ...source.subarray(at)])
        : Uint8Array.from([...source.subarray(0, at), ...source.subarray(at + 1)]);
    decodeChecked(decode, copy, 0, copy.length, `${label} splice ${n}`);
  }
  return cases;
}

const vmtiPacket: Decoder = (b, s, e) => decodeSt0903Packet(b, s, e);
const vmtiSet: Decoder = (b, s, e) => decodeSt0903LocalSet(b, s, e);
const legacyVmtiSet: Decoder = (b, s, e) => decodeSt0903LocalSet(b, s, e, { versionHint: 3 });
const securitySet: Decoder = (b, s, e) => decodeSt0102LocalSet(b, s, e);
const securityPacket: Decoder = (b, s, e) => decodeSt0102Packet(b, s, e);
const eg0104: Decoder = (b, s, e) => decodeEg0104Packet(b, s, e);

function klvPayloads(path: string): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  const demuxer = new TsDemuxer(() => undefined, {
    payloadConsumer: { wants: (stream) => stream.pid === 0x101, payload: (_pes, _stream, payload) => payloads.push(payload) },
  });
  demuxer.push(new Uint8Array(readFileSync(path)));
  demuxer.end();
  return payloads;
}

/** The tag `tag` values of the ST 0601 packet filling `payload`. */
function nestedValues(payload: Uint8Array, tag: number): Uint8Array[] {
  const valueStart = payload[16] < 0x80 ? 17 : 17 + (payload[16] & 0x7f);
  return parseLocalSet(payload, valueStart, payload.length)
    .items.filter((i) => i.tag === tag)
    .map((i) => payload.slice(i.valueOffset, i.valueOffset + i.length));
}

describe('ST 0903, ST 0102 and EG 0104 decoders on damaged real packets', () => {
  it('never throw on 10,000+ truncated and mutated jmisb VMTI packets', function () {
    const file = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'jmisb_0903.bin')));
    let cases = 0;
    for (let start = 0, n = 0; start < file.length; n++) {
      const end = decodeSt0903Packet(file, start, file.length).packetEnd;
      const source = file.slice(start, end);
      cases += mutateAndDecode(vmtiPacket, source, 1000, 0x0903 + n, `jmisb packet ${n}`);
      cases += mutateAndDecode(vmtiSet, source.subarray(17), 200, 0x1903 + n, `jmisb set ${n}`);
      start = end;
    }
    // The whole file at once, and garbage around a packet.
    decodeChecked(vmtiPacket, file, 0, file.length, 'whole file');
    decodeChecked(vmtiPacket, file, 3, file.length, 'misaligned');
    expect(cases).to.be.at.least(10000);
  });

  it('never throw on mutated VTarget-carrying VMTI sets of the osh-addons stream, read as version 3 and as current', function () {
    const payloads = klvPayloads(fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts'));
    const sets = payloads.flatMap((p) => nestedValues(p, 74)).filter((set) => set.length > 100);
    expect(sets.length).to.be.at.least(15);
    let cases = 0;
    for (const [n, set] of sets.slice(0, 8).entries()) {
      cases += mutateAndDecode(legacyVmtiSet, set, 300, 0x0903aa + n, `osh set ${n} (v3)`);
      cases += mutateAndDecode(vmtiSet, set, 150, 0x0903bb + n, `osh set ${n}`);
    }
    expect(cases).to.be.at.least(5000);
  });

  it('never throw on mutated ST 0102 sets and packets', function () {
    const example = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_DynamicConstantMISMMSPacketData.bin')));
    const flight = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin')));
    const flightSets = scanKlvStream(flight).triplets.flatMap((t) => nestedValues(flight.subarray(t.keyOffset, t.end), 48));
    const sets = [nestedValues(example, 48)[0], flightSets[0]];
    expect(sets.map((set) => set.length)).to.deep.equal([28, 36]);
    let cases = 0;
    for (const [n, set] of sets.entries()) {
      cases += mutateAndDecode(securitySet, set, 1500, 0x0102 + n, `security set ${n}`);
      const packet = Uint8Array.from([0x06, 0x0e, 0x2b, 0x34, 0x02, 0x03, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x03, 0x02, 0x00, 0x00, 0x00, set.length, ...set]);
      cases += mutateAndDecode(securityPacket, packet, 500, 0x1102 + n, `security packet ${n}`);
    }
    expect(cases).to.be.at.least(4000);
  });

  it('never throw on truncated and mutated EG 0104 packets of the aphill stream', function () {
    const payloads = klvPayloads(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
    let cases = 0;
    for (const n of [0, 150, 299]) cases += mutateAndDecode(eg0104, payloads[n], 1000, 0x0104 + n, `EG 0104 packet ${n}`);
    expect(cases).to.be.at.least(6000);
  });

  it('never throw on random bytes, with or without a real key in front', () => {
    const next = random(0xbadc0de);
    const keys = [
      [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x0b, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x03, 0x06, 0x00, 0x00, 0x00],
      [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x03, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x03, 0x02, 0x00, 0x00, 0x00],
      [0x06, 0x0e, 0x2b, 0x34, 0x02, 0x01, 0x01, 0x01, 0x0e, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00, 0x00],
    ];
    for (let n = 0; n < 3000; n++) {
      const length = Math.floor(next() * 200);
      const body = Array.from({ length }, () => Math.floor(next() * 256));
      const withKey = Uint8Array.from([...keys[n % 3], Math.min(length, 127), ...body]);
      const raw = Uint8Array.from(body);
      for (const [name, decode] of [['vmti packet', vmtiPacket], ['vmti set', vmtiSet], ['legacy vmti set', legacyVmtiSet], ['security set', securitySet], ['security packet', securityPacket], ['eg0104', eg0104]] as const) {
        decodeChecked(decode, withKey, 0, withKey.length, `${name} keyed random ${n}`);
        decodeChecked(decode, raw, 0, raw.length, `${name} random ${n}`);
      }
    }
  });
});
