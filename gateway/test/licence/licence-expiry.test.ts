import { expect } from 'chai';
import { LicenceError, expiryAfterDays, expiryFromText } from '../../src/licence/index.js';

const ISSUED = new Date('2026-03-10T08:30:00.000Z');

function refusal(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return null;
}

describe('licence expiry options', () => {
  it('reads a calendar date as valid through the end of that day in UTC', () => {
    expect(expiryFromText('2027-12-31', ISSUED)).to.equal('2027-12-31T23:59:59.999Z');
    expect(expiryFromText('2028-02-29', ISSUED)).to.equal('2028-02-29T23:59:59.999Z');
  });

  it('takes an ISO 8601 date-time with a zone as the instant it names, in UTC', () => {
    expect(expiryFromText('2027-06-30T12:00:00+02:00', ISSUED)).to.equal('2027-06-30T10:00:00.000Z');
    expect(expiryFromText('2027-06-30T12:00:00.5Z', ISSUED)).to.equal('2027-06-30T12:00:00.500Z');
  });

  it('counts days from the issue instant', () => {
    expect(expiryAfterDays(30, ISSUED)).to.equal('2026-04-09T08:30:00.000Z');
    expect(expiryAfterDays(1, ISSUED)).to.equal('2026-03-11T08:30:00.000Z');
  });

  it('refuses dates that do not exist, zone-less date-times and other spellings', () => {
    for (const text of ['2027-02-29', '2027-13-01', '2027-12-31T12:00:00', '2027-12-31T12:00Z', '31/12/2027', 'tomorrow', '', '2027-12-31 ']) {
      const error = refusal(() => expiryFromText(text, ISSUED));
      expect(error, text).to.be.instanceOf(LicenceError).with.property('code', 'ERR_LICENCE_PAYLOAD_INVALID');
    }
  });

  it('refuses an expiry that is not after the issue time', () => {
    expect(refusal(() => expiryFromText('2026-03-09', ISSUED))).to.have.property('message').that.matches(/is not after the issue time/);
    expect(refusal(() => expiryFromText('2026-03-10T08:30:00Z', ISSUED))).to.be.instanceOf(LicenceError);
    // The issue day itself is fine: valid through its end.
    expect(expiryFromText('2026-03-10', ISSUED)).to.equal('2026-03-10T23:59:59.999Z');
  });

  it('refuses a day count that is not a positive whole number', () => {
    for (const days of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(refusal(() => expiryAfterDays(days, ISSUED)), String(days)).to.be.instanceOf(LicenceError);
    }
    expect(refusal(() => expiryAfterDays(1e12, ISSUED))).to.have.property('message', 'the expiry is out of range');
  });
});
