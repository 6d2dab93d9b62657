import { expect } from 'chai';
import { epochNow } from '../src/epoch-clock.js';

describe('epochNow', () => {
  it('reads milliseconds since the epoch within a couple of milliseconds of the system clock, and does not step back between re-anchorings (once a second at most)', () => {
    let previous = epochNow();
    for (let i = 0; i < 10_000; i++) {
      const now = epochNow();
      expect(now).to.be.at.least(previous);
      previous = now;
    }
    expect(Math.abs(epochNow() - Date.now())).to.be.below(2);
  });
});
