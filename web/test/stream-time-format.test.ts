import { expect } from 'chai';
import { formatStreamSeconds } from '../src/shared/stream-time-format.js';

describe('stream times in a column', () => {
  it('writes every time in seconds to three decimals, so that a column of them lines up', () => {
    expect([1.2, 1.234, 0.333333, 0, 12, 3_600.0005, -0.0001].map(formatStreamSeconds)).to.deep.equal([
      '1.200',
      '1.234',
      '0.333',
      '0.000',
      '12.000',
      '3,600.001',
      '0.000',
    ]);
  });
});
