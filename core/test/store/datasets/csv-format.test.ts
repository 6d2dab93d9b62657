import { expect } from 'chai';
import { csvField, csvLine } from '../../../src/store/datasets/csv-format.js';

describe('CSV fields (RFC 4180)', () => {
  it('leaves plain text, numbers and booleans as they are', () => {
    expect([csvField('PAT'), csvField(4096), csvField(-0.5), csvField(true), csvField(false)]).to.deep.equal(['PAT', '4096', '-0.5', 'true', 'false']);
  });

  it('quotes a field holding a comma, a quote, CR or LF, doubling its quotes', () => {
    expect(csvField('a,b')).to.equal('"a,b"');
    expect(csvField('say "hi"')).to.equal('"say ""hi"""');
    expect(csvField('one\ntwo')).to.equal('"one\ntwo"');
    expect(csvField('one\rtwo')).to.equal('"one\rtwo"');
  });

  it('writes null as an empty field and the empty string as a quoted empty field', () => {
    expect([csvField(null), csvField(undefined), csvField('')]).to.deep.equal(['', '', '""']);
  });

  it('writes nested values as their JSON text, quoted', () => {
    expect(csvField({ present: true, stored: 1 })).to.equal('"{""present"":true,""stored"":1}"');
    expect(csvField([1])).to.equal('[1]');
  });

  it('ends a record with CRLF', () => {
    expect(csvLine(['a', 1, null, 'x,y'])).to.equal('a,1,,"x,y"\r\n');
  });
});
