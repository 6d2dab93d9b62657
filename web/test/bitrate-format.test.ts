import { expect } from 'chai';
import { formatBitrate } from '../src/shared/bitrate-format.js';

describe('bitrates as the pages show them', () => {
  it('writes megabits with two decimals, kilobits with one, and bits whole', () => {
    expect([4_020_000, 1_000_000, 812_345, 1_000, 999.6, 0].map(formatBitrate)).to.deep.equal(['4.02 Mb/s', '1.00 Mb/s', '812.3 kb/s', '1.0 kb/s', '1000 b/s', '0 b/s']);
  });
});
