import { expect } from 'chai';
import { hexToBytes } from '../../src/klv/hex.js';
import { isSt0601Key, keyToHex, lookupUniversalKey, UNIVERSAL_KEYS } from '../../src/klv/universal-key.js';

const key = (hex: string) => hexToBytes(hex)!;

describe('universal key registry (SMPTE 336 / ST 298)', () => {
  it('finds the ST 0601 UAS Datalink LS key', () => {
    const match = lookupUniversalKey(key('060e2b34020b01010e01030101000000'), 0);
    expect(match?.entry.name).to.equal('st0601-uas-datalink-ls');
    expect(match?.entry.standard).to.equal('MISB ST 0601');
    expect(match?.versionByte).to.equal(0x01);
  });

  it('finds the ST 0903 VMTI key and the legacy EG 0104 key', () => {
    expect(lookupUniversalKey(key('060e2b34020b01010e01030306000000'), 0)?.entry.name).to.equal('st0903-vmti-ls');
    const eg0104 = lookupUniversalKey(key('060e2b34020101010e01010201010000'), 0);
    expect(eg0104?.entry.name).to.equal('eg0104-predator-uav-basic-us');
    expect(eg0104?.entry.legacy).to.equal(true);
    expect(eg0104?.entry.setKind).to.equal('universal-set');
  });

  it('ignores the version byte (index 7) and reports the one received', () => {
    const match = lookupUniversalKey(key('060e2b34020b010e0e01030101000000'), 0);
    expect(match?.entry.name).to.equal('st0601-uas-datalink-ls');
    expect(match?.versionByte).to.equal(0x0e);
  });

  it('matches at an offset inside a larger buffer', () => {
    const buf = key('ffff060e2b34020301010e01030302000000');
    expect(lookupUniversalKey(buf, 2)?.entry.name).to.equal('st0102-security-ls');
    expect(isSt0601Key(buf, 2)).to.equal(false);
  });

  it('returns null for an unknown key, a wrong prefix and too few bytes', () => {
    expect(lookupUniversalKey(key('060e2b34020b01010e010301ff000000'), 0)).to.equal(null);
    expect(lookupUniversalKey(key('070e2b34020b01010e01030101000000'), 0)).to.equal(null);
    expect(lookupUniversalKey(key('060e2b34020b01010e010301010000'), 0)).to.equal(null);
  });

  it('has no two entries that differ only in the version byte', () => {
    const seen = new Set(UNIVERSAL_KEYS.map((k) => k.keyHex.slice(0, 14) + k.keyHex.slice(16)));
    expect(seen.size).to.equal(UNIVERSAL_KEYS.length);
  });

  it('renders a key as lower-case hex', () => {
    expect(keyToHex(key('00060e2b34020b01010e01030101000000'), 1)).to.equal('060e2b34020b01010e01030101000000');
  });
});
