/** The check plot's y scale and tick labels, apart from the browser. */
import { expect } from 'chai';
import { axisTickLabels, plotYRange } from '../src/dashboard/check-view/plot-y-range.js';

describe('the check plot y axis', () => {
  it('scales a PCR-to-PTS delay of −20…0 ms to the data and leaves the 1,000 ms limit off the scale', () => {
    const range = plotYRange(-20, 0, [0, 1000]);
    expect(range).to.deep.equal({ min: -22, max: 2, offScale: [1000] });
  });

  it('takes in a limit near the data, so a violation shows beside its line', () => {
    const range = plotYRange(33.3, 534, [100]);
    expect(range.offScale).to.deep.equal([]);
    expect(range.min).to.be.below(33.3);
    expect(range.max).to.be.above(534);
  });

  it('draws a 1 µs wobble on a 33.333 ms interval flat: the span is at least 1 % of the values', () => {
    const range = plotYRange(33.333, 33.334, []);
    expect(range.max - range.min).to.be.closeTo(0.333_34 * 1.2, 1e-9);
  });

  it('labels ticks with the decimals their step needs', () => {
    expect(axisTickLabels([33.2, 33.25, 33.3, 33.35])).to.deep.equal(['33.20', '33.25', '33.30', '33.35']);
    expect(axisTickLabels([-0.5, -0.25, 0, 0.25])).to.deep.equal(['-0.50', '-0.25', '0.00', '0.25']);
    expect(axisTickLabels([0, 200, 400])).to.deep.equal(['0', '200', '400']);
  });
});
