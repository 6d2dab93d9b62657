import { expect } from 'chai';
import type { KlvErrorObservation, Observation } from '../../src/kernel/observations.js';
import { observeKlvPacket } from '../../src/klv/klv-packet-observer.js';
import { universalKey, type UniversalKeyName } from '../../src/klv/universal-key.js';

/** A short-form triplet under `key`. */
function triplet(key: UniversalKeyName | Uint8Array, value: readonly number[]): Uint8Array {
  const keyBytes = key instanceof Uint8Array ? key : universalKey(key).bytes;
  return Uint8Array.from([...keyBytes, value.length, ...value]);
}

function keyProblems(bytes: Uint8Array): Array<[string, string, string | undefined]> {
  const out: Observation[] = [];
  observeKlvPacket(bytes, 0, bytes.length, { pid: 0x102, klvIndex: 0, carriage: 'async', origin: { offset: 0, packetIndex: 0, pts90kHz: null } }, (o) => out.push(o));
  // The packet's key problem carries the key in its details; an empty EG 0104 set also misses its time stamp, which is not this test's.
  return out.filter((o): o is KlvErrorObservation => o.kind === 'klv-error' && o.details?.keyHex !== undefined).map((e) => [e.type, e.severity, e.details?.keyName as string | undefined]);
}

describe('the KLV packet observer names each universal key for what it is', () => {
  it('reports a legacy EG 0104 set as klv-legacy-set, a warning, not as an unknown key', () => {
    expect(keyProblems(triplet('eg0104-predator-uav-basic-us', []))).to.deep.equal([['klv-legacy-set', 'warning', 'eg0104-predator-uav-basic-us']]);
  });

  it('reports another registered MISB set it does not decode as klv-undecoded-set, informational', () => {
    expect(keyProblems(triplet('st0102-security-ls', [22, 1, 17]))).to.deep.equal([['klv-undecoded-set', 'info', 'st0102-security-ls']]);
  });

  it('keeps klv-unknown-key, an error, for a key no registry names', () => {
    const unregistered = Uint8Array.from([0x06, 0x0e, 0x2b, 0x34, 0x02, 0x0b, 0x01, 0x01, 0x0e, 0x01, 0x03, 0x01, 0x7f, 0x00, 0x00, 0x00]);
    expect(keyProblems(triplet(unregistered, [1]))).to.deep.equal([['klv-unknown-key', 'error', undefined]]);
  });
});
