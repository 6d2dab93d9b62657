import { expect } from 'chai';
import { credentialsMatch, credentialsOfHeader } from '../../src/http/basic-credentials.js';

describe('Basic credentials of POST /command', () => {
  it("reads RFC 7617's form: Basic base64(user:password), the password may hold colons", () => {
    const header = `Basic ${Buffer.from('operator:pa:ss').toString('base64')}`;
    expect(credentialsOfHeader(header)).to.deep.equal({ user: 'operator', password: 'pa:ss' });
  });

  it("reads the spec's literal form: Basic USER PASSWORD, the scheme in any case", () => {
    expect(credentialsOfHeader('Basic operator s3cret')).to.deep.equal({ user: 'operator', password: 's3cret' });
    expect(credentialsOfHeader('basic  operator   s3cret ')).to.deep.equal({ user: 'operator', password: 's3cret' });
  });

  it('refuses other schemes, a token without a colon, three words and no header', () => {
    expect(credentialsOfHeader(undefined)).to.equal(null);
    expect(credentialsOfHeader('Bearer abc')).to.equal(null);
    expect(credentialsOfHeader(`Basic ${Buffer.from('nocolon').toString('base64')}`)).to.equal(null);
    expect(credentialsOfHeader('Basic a b c')).to.equal(null);
    expect(credentialsOfHeader('Basic')).to.equal(null);
  });

  it('matches only when both the user and the password are equal, whatever their lengths', () => {
    const expected = { user: 'operator', password: 's3cret' };
    expect(credentialsMatch({ user: 'operator', password: 's3cret' }, expected)).to.equal(true);
    expect(credentialsMatch({ user: 'operator', password: 's3cre' }, expected)).to.equal(false);
    expect(credentialsMatch({ user: 'operato', password: 's3cret' }, expected)).to.equal(false);
    expect(credentialsMatch({ user: 'operator', password: 's3cret-and-more' }, expected)).to.equal(false);
  });
});
