import { expect } from 'chai';
import { count } from '../../src/cli/inventory-text.js';

describe('inventory text', () => {
  it('groups thousands with commas as en-US does, for integers, negatives and fractions', () => {
    for (const n of [0, 7, 999, 1000, 12_345, 1_234_567, 10_000_000_000, -4321, 1234.5]) {
      expect(count(n), String(n)).to.equal(n.toLocaleString('en-US', { maximumFractionDigits: 20 }));
    }
  });
});
