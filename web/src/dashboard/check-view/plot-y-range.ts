/**
 * The y range of a check's plot and the labels of its ticks. The range is
 * the data's, padded: a limit is taken in only when it lies near the data
 * (within the data's own span of it), so a PCR-to-PTS delay of −20…0 ms is
 * not drawn flat under a 1,000 ms limit; the limits left out are listed, for
 * the plot to write at its edge. A span under 1 % of the values' size is
 * widened to that, so a 1 µs wobble on a 33.333 ms interval is a flat line
 * and not a sawtooth across the plot.
 */

export interface PlotYRange {
  min: number;
  max: number;
  /** Limits outside [min, max]: not drawn as lines, written at the edge. */
  offScale: number[];
}

/** Smallest span, as a fraction of the largest magnitude in view. */
const MIN_RELATIVE_SPAN = 0.01;
/** Padding above and below the data, as a fraction of the span: room for a violation's ring. */
const PAD = 0.1;

export function plotYRange(dataMin: number | null, dataMax: number | null, limits: readonly number[]): PlotYRange {
  const hasData = dataMin !== null && dataMax !== null && Number.isFinite(dataMin) && Number.isFinite(dataMax);
  let low = hasData ? dataMin : Math.min(0, ...limits);
  let high = hasData ? dataMax : Math.max(1, ...limits);
  const dataSpan = Math.max(high - low, Math.max(Math.abs(low), Math.abs(high)) * MIN_RELATIVE_SPAN);
  const taken = hasData ? limits.filter((limit) => limit >= low - dataSpan && limit <= high + dataSpan) : [...limits];
  low = Math.min(low, ...taken);
  high = Math.max(high, ...taken);
  let span = high - low;
  const smallest = Math.max(Math.abs(low), Math.abs(high)) * MIN_RELATIVE_SPAN || 1;
  if (span < smallest) {
    const middle = (low + high) / 2;
    low = middle - smallest / 2;
    high = middle + smallest / 2;
    span = smallest;
  }
  const min = low - span * PAD;
  const max = high + span * PAD;
  return { min, max, offScale: limits.filter((limit) => limit < min || limit > max) };
}

/** Tick labels with the decimals the step between ticks needs, and no more (0.05 steps: 2 decimals). */
export function axisTickLabels(ticks: readonly number[]): string[] {
  if (ticks.length === 0) return [];
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : Math.abs(ticks[0]) || 1;
  let decimals = 0;
  while (decimals < 9 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6 * 10 ** decimals * step) decimals++;
  // -0.000 reads as 0.000.
  return ticks.map((tick) => (Math.abs(tick) < step / 2 ? 0 : tick).toFixed(decimals));
}
