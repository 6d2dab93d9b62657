/** A probe session's recent bit rates (a reading a second, oldest first) as a small line, scaled to their highest. */

const WIDTH = 120;
const HEIGHT = 28;

export function SessionSparkline({ bitsPerSecond }: { bitsPerSecond: readonly number[] }) {
  const highest = Math.max(0, ...bitsPerSecond);
  // One reading draws no line: it goes across the tile at its height.
  const values = bitsPerSecond.length === 1 ? [bitsPerSecond[0], bitsPerSecond[0]] : bitsPerSecond;
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  const points = values.map((value, i) => `${(i * step).toFixed(1)},${(HEIGHT - 1 - (highest > 0 ? value / highest : 0) * (HEIGHT - 2)).toFixed(1)}`).join(' ');
  return (
    <svg class="sparkline" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label="bit rate, the last readings" data-readings={bitsPerSecond.length}>
      {values.length > 0 && <polyline points={points} fill="none" vector-effect="non-scaling-stroke" />}
    </svg>
  );
}
