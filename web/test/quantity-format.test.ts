import { expect } from 'chai';
import { formatQuantity } from '../src/shared/quantity-format.js';

describe('quantities as the pages write them', () => {
  it('writes times to the microsecond as the checks\' messages do, and a time under a millisecond in µs or ns', () => {
    expect([13.0138, -7.93651, 547.456, 40, 0.000333333, 0.5, 0].map((ms) => formatQuantity(ms, 'ms'))).to.deep.equal([
      '13.014 ms',
      '-7.937 ms',
      '547.456 ms',
      '40 ms',
      '333.333 ns',
      '500 µs',
      '0 ms',
    ]);
  });

  it('separates thousands and writes no unit for a plain number, a dash for none', () => {
    expect([formatQuantity(4885), formatQuantity(1234.5678, 'kbit/s'), formatQuantity(null, 'ms'), formatQuantity(-0.0001)]).to.deep.equal(['4,885', '1,234.568 kbit/s', '—', '0']);
  });
});

describe('file sizes as the pages write them', () => {
  it('uses the decimal units the CLI prints (MB), three significant digits', async () => {
    const { formatByteSize } = await import('../src/dashboard/files/byte-size.js');
    expect([512, 2_245_284, 1_125_180, 409_088, null].map(formatByteSize)).to.deep.equal(['512 bytes', '2.25 MB', '1.13 MB', '409 kB', '—']);
  });
});
