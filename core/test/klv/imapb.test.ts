import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import {
  createImapbMapping,
  imapbForward,
  imapbReverse,
  imapbSpecialBytes,
  type ImapbValue,
} from '../../src/klv/imapb.js';
import { bytesToHex, hexToBytes } from '../../src/klv/hex.js';

interface St1201Vector {
  a: number;
  b: number;
  L: number;
  x: number | string;
  forwardResultHex: string;
  reverseResult: number | string;
  sF: number;
  sR: number;
  Zoffset: number;
  delta: number;
}

/** The vector's input value in our terms: numbers stay numbers, named specials become special values. */
function inputOf(v: St1201Vector): ImapbValue {
  switch (v.x) {
    case 'Infinity':
      return Infinity;
    case '-Infinity':
      return -Infinity;
    case '+QNaN':
      return { special: 'positive-quiet-nan', identifier: 0 };
    case '-QNaN':
      return { special: 'negative-quiet-nan', identifier: 0 };
    default:
      return v.x as number;
  }
}

function expectedReverse(v: St1201Vector): ImapbValue {
  switch (v.reverseResult) {
    case 'Infinity':
      return { special: 'positive-infinity', identifier: 0 };
    case '-Infinity':
      return { special: 'negative-infinity', identifier: 0 };
    case '+QNaN':
      return { special: 'positive-quiet-nan', identifier: 0 };
    case '-QNaN':
      return { special: 'negative-quiet-nan', identifier: 0 };
    default:
      return v.reverseResult as number;
  }
}

describe('IMAPB (MISB ST 1201)', () => {
  it('computes the constants of ST 1201 6.1 for a=-10000, b=-100, L=1', () => {
    expect(createImapbMapping(-10000, -100, 1)).to.deep.equal({ a: -10000, b: -100, length: 1, sF: 0.0078125, sR: 128, zOffset: 0 });
  });

  it('maps 0 exactly when the range straddles zero, through zOffset', () => {
    const m = createImapbMapping(-900, 40000, 3);
    expect(imapbReverse(m, imapbForward(m, 0), 0)).to.equal(0);
  });

  it('encodes NaN as a positive quiet NaN and the infinities as their special values', () => {
    const m = createImapbMapping(0, 100, 2);
    expect(bytesToHex(imapbForward(m, NaN))).to.equal('d000');
    expect(bytesToHex(imapbForward(m, Infinity))).to.equal('c800');
    expect(bytesToHex(imapbForward(m, -Infinity))).to.equal('e800');
  });

  it('decodes every special kind with its identifier', () => {
    const m = createImapbMapping(0, 100, 2);
    const decode = (hex: string) => imapbReverse(m, hexToBytes(hex)!, 0);
    expect(decode('c001')).to.deep.equal({ special: 'user-defined', identifier: 1 });
    expect(decode('d805')).to.deep.equal({ special: 'positive-signalling-nan', identifier: 5 });
    expect(decode('f8ff')).to.deep.equal({ special: 'negative-signalling-nan', identifier: 255 });
    expect(decode('e3ff')).to.deep.equal({ special: 'misb-defined', identifier: 0x3ff });
    expect(decode('8101')).to.deep.equal({ special: 'reserved', identifier: 0x101 });
  });

  it('reads 0x80 followed by zeros as the top of a power-of-two range', () => {
    const m = createImapbMapping(-1, 1, 2);
    expect(imapbForward(m, 1)).to.deep.equal(Uint8Array.of(0x80, 0x00));
    expect(imapbReverse(m, Uint8Array.of(0x80, 0x00), 0)).to.equal(1);
  });

  it('writes special values with identifiers that round-trip', () => {
    const m = createImapbMapping(0, 100, 3);
    const bytes = imapbSpecialBytes(3, 'user-defined', 0x1234);
    expect(bytesToHex(bytes)).to.equal('c01234');
    expect(imapbReverse(m, bytes, 0)).to.deep.equal({ special: 'user-defined', identifier: 0x1234 });
  });

  it('refuses to encode a finite value outside [a, b]', () => {
    const m = createImapbMapping(0, 100, 2);
    expect(() => imapbForward(m, 100.5)).to.throw('outside');
  });

  it('passes every forward and reverse vector of jmisb st1201tests.json', function () {
    const path = fixtureOrSkip(this, 'klv', 'jmisb_st1201tests.json');
    const vectors = JSON.parse(readFileSync(path, 'utf8')) as St1201Vector[];
    expect(vectors).to.have.length(2128);
    const failures: string[] = [];
    for (const v of vectors) {
      const m = createImapbMapping(v.a, v.b, v.L);
      const label = `a=${v.a} b=${v.b} L=${v.L} x=${String(v.x)}`;
      if (m.sF !== v.sF || m.sR !== v.sR || m.zOffset !== v.Zoffset) failures.push(`${label}: constants`);
      const forward = '0x' + bytesToHex(imapbForward(m, inputOf(v)));
      if (forward !== v.forwardResultHex) failures.push(`${label}: forward ${forward} != ${v.forwardResultHex}`);
      const reverse = imapbReverse(m, hexToBytes(v.forwardResultHex.slice(2))!, 0);
      const expected = expectedReverse(v);
      if (typeof expected === 'number') {
        // jmisb's own test: the reverse result is within delta of the input...
        if (typeof reverse !== 'number' || Math.abs(reverse - (v.x as number)) > v.delta) failures.push(`${label}: reverse ${JSON.stringify(reverse)}`);
        // ...and equals the reference reverse result to double precision.
        else if (Math.abs(reverse - expected) > Math.abs(expected) * 1e-12 + 1e-12) failures.push(`${label}: reverse ${reverse} != ${expected}`);
      } else if (JSON.stringify(reverse) !== JSON.stringify(expected)) {
        failures.push(`${label}: reverse ${JSON.stringify(reverse)}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });
});
