import { expect } from 'chai';
import { seededRandom } from '../../test-support/random.js';
import { RollingMedian } from '../src/klv-rolling-median.js';

/** The median of the last `capacity` values, the slow and obvious way. */
function naiveMedian(values: number[], capacity: number): number | null {
  const window = values.slice(-capacity).sort((a, b) => a - b);
  if (window.length === 0) return null;
  const middle = window.length >> 1;
  return window.length % 2 === 1 ? window[middle] : (window[middle - 1] + window[middle]) / 2;
}

describe('RollingMedian', () => {
  it('is null when empty, then the median of what it holds', () => {
    const m = new RollingMedian(4);
    expect(m.median()).to.equal(null);
    m.push(30);
    expect(m.median()).to.equal(30);
    m.push(10);
    expect(m.median()).to.equal(20);
    m.push(20);
    expect([m.size, m.median()]).to.deep.equal([3, 20]);
  });

  it('forgets the oldest value once full, whatever its rank', () => {
    const m = new RollingMedian(3);
    for (const v of [1, 100, 2, 3, 4]) m.push(v);
    // Holds 2, 3, 4: the 100 and the 1 have left.
    expect([m.size, m.median()]).to.deep.equal([3, 3]);
  });

  it('agrees with a sort of the last values over random pushes (repeats and a small window included)', () => {
    for (const capacity of [1, 2, 7, 255]) {
      const random = seededRandom(capacity);
      const m = new RollingMedian(capacity);
      const pushed: number[] = [];
      for (let i = 0; i < 2000; i++) {
        // Few distinct values, so equal values are common: the removal must take one of them, not shift the order.
        const value = Math.floor(random() * 20) / 2;
        m.push(value);
        pushed.push(value);
        expect(m.median(), `capacity ${capacity}, push ${i}`).to.equal(naiveMedian(pushed, capacity));
      }
    }
  });
});
