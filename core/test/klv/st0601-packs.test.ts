import { expect } from 'chai';
import { bytesToHex, hexToBytes } from '../../src/klv/hex.js';
import { decodeSt0601Item, encodeSt0601Item } from '../../src/klv/st0601-item.js';

/** Decodes item `tag` from hex written with spaces for readability. */
function decode(tag: number, hex: string) {
  const bytes = hexToBytes(hex)!;
  return decodeSt0601Item(tag, bytes, 0, bytes.length);
}

describe('ST 0601 packs, lists and series', () => {
  it('reads a control command with and without its time stamp (item 115)', () => {
    expect(decode(115, '8201 03 525442').value).to.deep.equal({ id: 257, command: 'RTB' });
    expect(decode(115, '05 02 4f4b 0005 92 5b a6 c2 fe 3f').value).to.deep.equal({ id: 5, command: 'OK', timestamp: 0x0005925ba6c2fe3f });
  });

  it('reports a control command whose string runs past the item, at its length byte', () => {
    expect(decode(115, '05 09 4f4b')).to.deep.include({ value: null, error: 'command string length: length 9 runs past the end of the pack (2 left)' });
  });

  it('reads verification and wavelength lists of BER-OID values (items 116 and 121)', () => {
    expect(decode(116, '01 8178 7f').value).to.deep.equal([1, 248, 127]);
    expect(decode(121, '').value).to.deep.equal([]);
    expect(decode(121, '01 81')).to.deep.include({ value: null });
  });

  it('reads country codes, with the trailing countries left out (item 122)', () => {
    expect(decode(122, '01 01 02 5553').value).to.deep.equal({ codingMethod: 1, overflightCountry: 'US', operatorCountry: null, countryOfManufacture: null });
    expect(decode(122, '01 0e 00 03 434146 02 4341').value).to.deep.equal({ codingMethod: 14, overflightCountry: null, operatorCountry: 'CAF', countryOfManufacture: 'CA' });
  });

  it('reads a frame rate pack, the denominator defaulting to 1 (item 127)', () => {
    expect(decode(127, '1e').value).to.deep.equal({ numerator: 30, denominator: 1 });
    expect(decode(127, '83d460 8769').value).to.deep.equal({ numerator: 60000, denominator: 1001 });
    expect(bytesToHex(encodeSt0601Item(127, { numerator: 60000, denominator: 1001 }))).to.equal('83d4608769');
  });

  it('reads airbase locations, a truncated recovery meaning the take-off site (item 130)', () => {
    const takeOff = bytesToHex(encodeSt0601Item(130, { takeOff: { latitude: 45, longitude: -90 }, recoverySameAsTakeOff: true }));
    // IMAPB(-90, 90, 4): (45 + 90) * 2^23; IMAPB(-180, 180, 4): (-90 + 180) * 2^22.
    expect(takeOff).to.equal('08' + '43800000' + '16800000');
    expect(decode(130, takeOff).value).to.deep.equal({ takeOff: { latitude: 45, longitude: -90 }, recovery: { latitude: 45, longitude: -90 }, recoverySameAsTakeOff: true });
    expect(decode(130, '00 00').value).to.deep.equal({ takeOff: null, recovery: null, recoverySameAsTakeOff: false });
    expect(decode(130, '05 0102030405')).to.deep.include({ value: null, error: 'take-off location: a location is 8 or 11 bytes, got 5' });
  });

  it('reads active payloads as the IDs of the set bits, least significant first (item 139)', () => {
    expect(decode(139, '02 09').value).to.deep.equal({ activeIds: [0, 3, 9] });
    expect(bytesToHex(encodeSt0601Item(139, { activeIds: [9, 0, 3] }))).to.equal('0209');
  });

  it('reads a payload list: count, then ID, type and name records (item 138)', () => {
    expect(decode(138, '02 05 00 00 02 454f 06 01 02 03 534152').value).to.deep.equal({
      count: 2,
      payloads: [
        { id: 0, type: { code: 0, name: 'Electro Optical MI Sensor' }, name: 'EO' },
        { id: 1, type: { code: 2, name: 'RADAR' }, name: 'SAR' },
      ],
    });
  });

  it('reports a series record that claims more bytes than the item has', () => {
    expect(decode(140, '09 01020304')).to.deep.include({ value: null, error: 'weapon store record 1 length: length 9 runs past the end of the pack (4 left)' });
  });

  it('reads the ST 0601 weapons stores example: status words of engagement bits over general status (item 140)', () => {
    // The ST 0601.17 item 140 example, as jmisb's WeaponsStoresTest pins it.
    const example =
      '0e 01 02 03 01 8203 07 48617270 6f6f6e' + '0d 00 00 00 01 8203 06 4742552d3135' + '0f 00 00 00 02 8804 08 48656c6c66697265';
    const value = decode(140, example).value as { storeId: number; generalStatus: unknown; engagementStatus: Record<string, unknown>; weaponType: string }[];
    expect(value.map((w) => [w.storeId, w.weaponType])).to.deep.equal([
      [1, 'Harpoon'],
      [1, 'GBU-15'],
      [2, 'Hellfire'],
    ]);
    expect(value[0].generalStatus).to.deep.equal({ code: 3, name: 'Ready/All Up Round' });
    expect(value[0].engagementStatus).to.deep.include({ bits: 1, fuzeEnabled: true, laserEnabled: false, targetEnabled: false, weaponArmed: false });
    expect(value[2].generalStatus).to.deep.equal({ code: 4, name: 'Launch' });
    expect(value[2].engagementStatus).to.deep.include({ targetEnabled: true });
    expect(bytesToHex(encodeSt0601Item(140, value))).to.equal(example.replace(/ /g, ''));
    const twoFlags = decode(140, '0e 01 02 03 04 9403 07 48617270 6f6f6e').value as { engagementStatus: Record<string, unknown> }[];
    expect(twoFlags[0].engagementStatus).to.deep.include({ laserEnabled: true, weaponArmed: true, fuzeEnabled: false });
  });

  it('reads waypoints with and without their optional info and location (item 141)', () => {
    const hex = bytesToHex(
      encodeSt0601Item(141, [
        { id: 1, order: 2 },
        { id: 2, order: -1, info: { manual: true, adHoc: false } },
      ]),
    );
    expect(hex).to.equal('03 01 0002 04 02 ffff 01'.replace(/ /g, ''));
    expect(decode(141, hex).value).to.deep.equal([
      { id: 1, order: 2 },
      { id: 2, order: -1, info: { bits: 1, manual: true, adHoc: false } },
    ]);
  });

  it('reads a view domain whose elevation interval is left empty (item 142)', () => {
    const hex = bytesToHex(encodeSt0601Item(142, { azimuth: { start: 0, range: 180 }, elevation: null, roll: { start: 90, range: 90 } }));
    expect(hex.slice(0, 2)).to.equal('08');
    expect(hex.slice(18, 20)).to.equal('00');
    expect(decode(142, hex).value).to.deep.equal({ azimuth: { start: 0, range: 180 }, elevation: null, roll: { start: 90, range: 90 } });
    expect(decode(142, '03 000000')).to.deep.include({ value: null });
  });

  it('reads the image horizon pack with and without geographic points, refusing other lengths (item 81)', () => {
    expect(decode(81, '0a 14 5a 1e').value).to.deep.equal({ startX: 10, startY: 20, endX: 90, endY: 30 });
    expect(decode(81, '0a 14 5a 1e 00000000 00000000 80000000 7fffffff').value).to.deep.equal({
      startX: 10,
      startY: 20,
      endX: 90,
      endY: 30,
      startLatitude: 0,
      startLongitude: 0,
      endLatitude: { special: 'out-of-range' },
      endLongitude: 180,
    });
    expect(decode(81, '0a 14 5a 1e 00')).to.deep.include({ value: null, error: 'length 5 is not allowed: Image Horizon Pixel Pack is 4 or 20 bytes' });
  });

  it('reads the weapon load and weapon fired nibbles (items 60 and 61)', () => {
    expect(decode(60, 'afd8').value).to.deep.equal({ station: 10, substation: 15, weaponType: 13, variant: 8 });
    expect(decode(61, 'ba').value).to.deep.equal({ station: 11, substation: 10 });
  });

  it('reads a metadata substream ID pack (item 143)', () => {
    expect(decode(143, '05 f592f02373364af8aa9162c00f2eb2da').value).to.deep.equal({ localId: 5, universalId: 'F592-F023-7336-4AF8-AA91-62C0-0F2E-B2DA' });
  });

  it('frames nested sets it has no decoder for into tagged raw items (items 73, 95, 97-101)', () => {
    expect(decode(98, '01 01 05 02 02 4142').value).to.deep.equal({
      standard: 'MISB ST 1601',
      decoded: false,
      items: [
        { tag: 1, rawHex: '05' },
        { tag: 2, rawHex: '4142' },
      ],
      errors: [],
    });
    expect((decode(73, '01 05 00').value as { errors: unknown[] }).errors).to.deep.equal([{ message: 'tag 1: value of 5 bytes runs past the end of the set (1 left)', byteOffset: 1 }]);
  });

  it('reads variable-length integers of any allowed length (items 110, 136, 137)', () => {
    expect(decode(110, '0e10').value).to.equal(3600);
    expect(decode(136, 'ff').value).to.equal(-1);
    expect(decode(137, 'ff fe 00 00 00 00 00').value).to.equal(-0x20000000000);
    expect(bytesToHex(encodeSt0601Item(136, 18))).to.equal('12');
    expect(bytesToHex(encodeSt0601Item(137, -129))).to.equal('ff7f');
  });
});
