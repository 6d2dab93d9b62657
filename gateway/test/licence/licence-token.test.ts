import { expect } from 'chai';
import { generateKeyPairSync, sign } from 'node:crypto';
import { seededRandom } from '../../../test-support/random.js';
import {
  LicenceError,
  generateVendorKeyPair,
  issueLicence,
  verifyLicence,
  type LicencePayload,
  type LicenceVerdict,
} from '../../src/licence/index.js';

const vendor = generateVendorKeyPair();
const otherVendor = generateVendorKeyPair();
const NODE = 'node-0123456789abcdef0123456789abcdef';
const OTHER_NODE = 'node-ffffffffffffffffffffffffffffffff';
const ISSUED = '2026-01-01T00:00:00.000Z';
const EXPIRES = '2027-12-31T23:59:59.999Z';
const DURING = new Date('2026-06-01T00:00:00Z');

function payload(overrides: Partial<LicencePayload> = {}): LicencePayload {
  return { v: 1, nodeId: NODE, licensee: 'ACME Surveillance Ltd', features: ['live', 'export.ndjson'], issuedAt: ISSUED, expiresAt: EXPIRES, ...overrides };
}

function verify(token: unknown, now = DURING, publicKey = vendor.publicKeyPem): LicenceVerdict {
  return verifyLicence(token, publicKey, { nodeId: NODE, now });
}

/** A token signed over any payload text, bypassing issueLicence's checks: what a careless or future issuer could produce. */
function signRaw(payloadText: string, privateKeyPem = vendor.privateKeyPem): string {
  const signed = `klv1.${Buffer.from(payloadText, 'utf8').toString('base64url')}`;
  return `${signed}.${sign(null, Buffer.from(signed, 'ascii'), privateKeyPem).toString('base64url')}`;
}

describe('licence tokens', () => {
  describe('issuing and verifying', () => {
    it('verifies a token it issued as valid, with the payload exactly as issued', () => {
      const token = issueLicence(payload(), vendor.privateKeyPem);
      expect(token).to.match(/^klv1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
      const verdict = verify(token);
      expect(verdict.status).to.equal('valid');
      expect(verdict.payload).to.deep.equal(payload());
      expect(verdict.reason).to.equal('licensed to ACME Surveillance Ltd, valid until 2027-12-31T23:59:59.999Z');
    });

    it('keeps the payload as base64url JSON of the known fields in a fixed order', () => {
      const token = issueLicence({ features: [], expiresAt: null, issuedAt: ISSUED, licensee: 'L', nodeId: NODE, v: 1 }, vendor.privateKeyPem);
      const json = Buffer.from(token.split('.')[1], 'base64url').toString('utf8');
      expect(json).to.equal(`{"v":1,"nodeId":"${NODE}","licensee":"L","features":[],"issuedAt":"${ISSUED}","expiresAt":null}`);
    });

    it('treats a null expiry as perpetual, still valid centuries later', () => {
      const token = issueLicence(payload({ expiresAt: null }), vendor.privateKeyPem);
      const verdict = verify(token, new Date('2400-01-01T00:00:00Z'));
      expect(verdict.status).to.equal('valid');
      expect(verdict.reason).to.equal('licensed to ACME Surveillance Ltd, perpetual');
    });

    it('accepts a token with surrounding white space, as pasted from a file', () => {
      const token = issueLicence(payload(), vendor.privateKeyPem);
      expect(verify(`  ${token}\r\n`).status).to.equal('valid');
    });

    it('accepts the public key as a KeyObject too', () => {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const token = issueLicence(payload(), privateKey);
      expect(verifyLicence(token, publicKey, { nodeId: NODE, now: DURING }).status).to.equal('valid');
    });
  });

  describe('signatures', () => {
    const token = issueLicence(payload(), vendor.privateKeyPem);
    const [prefix, payloadPart, signaturePart] = token.split('.');

    it('reports a changed payload as bad-signature', () => {
      const forged = Buffer.from(JSON.stringify(payload({ licensee: 'Mallory' })), 'utf8').toString('base64url');
      const verdict = verify(`${prefix}.${forged}.${signaturePart}`);
      expect(verdict).to.deep.equal({ status: 'bad-signature', reason: 'the signature does not match the payload under the vendor public key (tampered, or signed with another key)' });
    });

    it('reports a later expiry spliced into the payload as bad-signature', () => {
      const forged = Buffer.from(JSON.stringify(payload({ expiresAt: null })), 'utf8').toString('base64url');
      expect(verify(`${prefix}.${forged}.${signaturePart}`).status).to.equal('bad-signature');
    });

    it('reports every single-byte change of the signature as bad-signature', () => {
      const signature = Buffer.from(signaturePart, 'base64url');
      for (let i = 0; i < signature.length; i += 1) {
        const changed = Buffer.from(signature);
        changed[i] ^= 0x01;
        expect(verify(`${prefix}.${payloadPart}.${changed.toString('base64url')}`).status, `byte ${i}`).to.equal('bad-signature');
      }
    });

    it('reports a token signed with another vendor key as bad-signature', () => {
      const foreign = issueLicence(payload(), otherVendor.privateKeyPem);
      expect(verify(foreign).status).to.equal('bad-signature');
      expect(verify(foreign, DURING, otherVendor.publicKeyPem).status).to.equal('valid');
    });

    it('signs the prefix too: the same payload and signature under another prefix is not accepted', () => {
      expect(verify(`klv2.${payloadPart}.${signaturePart}`).status).to.equal('malformed');
    });
  });

  describe('node and expiry', () => {
    it('reports a token for another node as wrong-node, with the payload', () => {
      const token = issueLicence(payload({ nodeId: OTHER_NODE }), vendor.privateKeyPem);
      const verdict = verify(token);
      expect(verdict.status).to.equal('wrong-node');
      expect(verdict.payload?.nodeId).to.equal(OTHER_NODE);
      expect(verdict.reason).to.equal(`issued for node ${OTHER_NODE}, this is node ${NODE}`);
    });

    it('reports wrong-node before expired when both apply', () => {
      const token = issueLicence(payload({ nodeId: OTHER_NODE }), vendor.privateKeyPem);
      expect(verify(token, new Date('2030-01-01T00:00:00Z')).status).to.equal('wrong-node');
    });

    it('is valid at its expiry instant and expired one millisecond later', () => {
      const token = issueLicence(payload(), vendor.privateKeyPem);
      expect(verify(token, new Date(EXPIRES)).status).to.equal('valid');
      const verdict = verify(token, new Date(Date.parse(EXPIRES) + 1));
      expect(verdict.status).to.equal('expired');
      expect(verdict.reason).to.equal(`expired at ${EXPIRES}`);
      expect(verdict.payload?.licensee).to.equal('ACME Surveillance Ltd');
    });
  });

  describe('malformed input', () => {
    const token = issueLicence(payload(), vendor.privateKeyPem);
    const [, payloadPart, signaturePart] = token.split('.');

    const cases: Array<[string, unknown]> = [
      ['undefined', undefined],
      ['null', null],
      ['a number', 42],
      ['an object', { token }],
      ['an empty string', ''],
      ['white space', ' \n\t '],
      ['one part', 'klv1'],
      ['two parts', `klv1.${payloadPart}`],
      ['four parts', `${token}.x`],
      ['empty parts', '..'],
      ['an unknown prefix', `jwt.${payloadPart}.${signaturePart}`],
      ['an upper-case prefix', `KLV1.${payloadPart}.${signaturePart}`],
      ['an empty payload', `klv1..${signaturePart}`],
      ['an empty signature', `klv1.${payloadPart}.`],
      ['standard base64 characters', `klv1.${payloadPart}+/.${signaturePart}`],
      ['base64 padding', `klv1.${payloadPart}==.${signaturePart}`],
      ['an impossible base64 length', `klv1.AAAAA.${signaturePart}`],
      ['a short signature', `klv1.${payloadPart}.${signaturePart.slice(0, 40)}`],
      ['a long signature', `klv1.${payloadPart}.${signaturePart}AAAA`],
      ['a non-canonical signature spelling', `klv1.${payloadPart}.${signaturePart.slice(0, -1)}${nonCanonicalLast(signaturePart)}`],
      ['spaces inside', `klv1.${payloadPart} .${signaturePart}`],
      ['non-ASCII text', 'klv1.ünïcødé.😀'],
      ['a NUL byte', `klv1.${payloadPart}\u0000.${signaturePart}`],
      ['a huge string', `klv1.${'A'.repeat(1_000_000)}.${signaturePart}`],
      ['many dots', '.'.repeat(10_000)],
    ];
    for (const [what, input] of cases) {
      it(`returns malformed for ${what}, without throwing`, () => {
        const verdict = verify(input);
        expect(verdict.status).to.equal('malformed');
        expect(verdict.payload).to.be.undefined;
        expect(verdict.reason).to.be.a('string').and.not.equal('');
      });
    }

    it('returns malformed for a correctly signed payload that is not JSON, not an object, or breaks the format', () => {
      const signedButWrong = [
        'not json',
        '\uFFFD\uFFFD',
        'null',
        '[]',
        '"klv"',
        JSON.stringify({ ...payload(), v: 2 }),
        JSON.stringify({ ...payload(), extra: true }),
        JSON.stringify({ ...payload(), nodeId: 'NODE-1' }),
        JSON.stringify({ ...payload(), licensee: '' }),
        JSON.stringify({ ...payload(), licensee: ' padded ' }),
        JSON.stringify({ ...payload(), licensee: 'line\nbreak' }),
        JSON.stringify({ ...payload(), features: ['Live'] }),
        JSON.stringify({ ...payload(), features: ['live', 'live'] }),
        JSON.stringify({ ...payload(), features: 'live' }),
        JSON.stringify({ ...payload(), issuedAt: '2026-01-01' }),
        JSON.stringify({ ...payload(), expiresAt: '2027-12-31T23:59:59+01:00' }),
        JSON.stringify({ ...payload(), expiresAt: '2025-01-01T00:00:00Z' }),
        JSON.stringify({ v: 1 }),
      ];
      for (const text of signedButWrong) {
        const verdict = verify(signRaw(text));
        expect(verdict.status, text).to.equal('malformed');
        expect(verdict.reason, text).to.match(/^the signed payload is not/);
      }
    });

    it('names the offending field of a signed payload', () => {
      expect(verify(signRaw(JSON.stringify({ ...payload(), v: 2 }))).reason).to.match(/v: /);
      expect(verify(signRaw(JSON.stringify({ ...payload(), features: ['a', 'a'] }))).reason).to.match(/features: must not repeat a feature/);
    });

    it('never throws for thousands of random mutations of a valid token', () => {
      const random = seededRandom(0x11ce);
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+/= \n\u0000é';
      const counts: Record<string, number> = {};
      for (let i = 0; i < 3000; i += 1) {
        const chars = [...token];
        const edits = 1 + Math.floor(random() * 4);
        for (let e = 0; e < edits; e += 1) {
          const at = Math.floor(random() * chars.length);
          const c = alphabet[Math.floor(random() * alphabet.length)];
          const op = random();
          if (op < 0.4) chars[at] = c;
          else if (op < 0.7) chars.splice(at, 1);
          else chars.splice(at, 0, c);
        }
        const mutated = chars.join('');
        const status = verify(mutated).status;
        counts[status] = (counts[status] ?? 0) + 1;
        // A mutation that leaves the token as issued (e.g. an added trailing space) may stay valid; nothing else may.
        if (status === 'valid') expect(mutated.trim()).to.equal(token);
      }
      expect(counts['malformed']).to.be.greaterThan(0);
      expect(counts['bad-signature']).to.be.greaterThan(0);
    });
  });

  describe('keys and payloads refused with typed errors', () => {
    it('refuses to issue a payload that breaks the format, naming the field', () => {
      const bad = [payload({ nodeId: 'host-1' }), payload({ features: ['UPPER'] }), payload({ expiresAt: ISSUED }), { ...payload(), extra: 1 } as LicencePayload];
      for (const p of bad) {
        expect(() => issueLicence(p, vendor.privateKeyPem)).to.throw(LicenceError).with.property('code', 'ERR_LICENCE_PAYLOAD_INVALID');
      }
      expect(() => issueLicence(payload({ licensee: '' }), vendor.privateKeyPem)).to.throw(/licensee: /);
    });

    it('refuses a public key where the private key belongs, and garbage, as ERR_LICENCE_KEY_INVALID', () => {
      expect(() => issueLicence(payload(), vendor.publicKeyPem)).to.throw(LicenceError).with.property('code', 'ERR_LICENCE_KEY_INVALID');
      expect(() => issueLicence(payload(), 'not a key')).to.throw(LicenceError).with.property('code', 'ERR_LICENCE_KEY_INVALID');
    });

    it('throws ERR_LICENCE_KEY_INVALID for a bad public key, whatever the token', () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 1024, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
      for (const key of ['', 'garbage', vendor.privateKeyPem, rsa.publicKey]) {
        expect(() => verify('klv1.a.b', DURING, key)).to.throw(LicenceError).with.property('code', 'ERR_LICENCE_KEY_INVALID');
      }
      expect(() => issueLicence(payload(), rsa.privateKey)).to.throw(/expected an Ed25519 private key, got a rsa private key/);
    });
  });
});

/** The last character with an unused low bit flipped: another spelling of the same 64 bytes. */
function nonCanonicalLast(encoded: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  // 64 bytes = 86 characters, the last carrying 2 data bits and 4 unused ones.
  return alphabet[alphabet.indexOf(encoded[encoded.length - 1]) ^ 1];
}
