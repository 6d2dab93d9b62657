/**
 * A channel's input bitrate over the last minute as a small inline SVG
 * line: time across (the minute ending at the relay's newest reading, so a
 * young channel's line starts at the right), bits per second up from zero
 * to a little above the minute's highest reading.
 */
import { formatBitrate } from '../shared/bitrate-format.js';
import { SPARKLINE_WINDOW_MS, type BitratePoint } from './bitrate-history.js';

const WIDTH = 180;
const HEIGHT = 34;
/** Keeps the line's stroke inside the box at the top and bottom. */
const PAD = 2;
/** A steady stream draws below the top edge, where it reads as a level rather than a ceiling. */
const HEADROOM = 1.25;

export interface BitrateSparklineProps {
  points: readonly BitratePoint[];
  windowEndMs: number;
}

export function BitrateSparkline({ points, windowEndMs }: BitrateSparklineProps) {
  const peak = Math.max(1, ...points.map((p) => p.bitsPerSecond));
  const start = windowEndMs - SPARKLINE_WINDOW_MS;
  const xy = points.map((p) => `${(((p.timeMs - start) / SPARKLINE_WINDOW_MS) * WIDTH).toFixed(1)},${(HEIGHT - PAD - (p.bitsPerSecond / (peak * HEADROOM)) * (HEIGHT - 2 * PAD)).toFixed(1)}`);
  const summary = points.length === 0 ? 'no reading in the last minute' : `last minute: ${points.length} readings, peak ${formatBitrate(peak)}`;
  return (
    <svg class="sparkline" width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} data-points={points.length} data-peak-bps={points.length === 0 ? 0 : peak}>
      <title>{summary}</title>
      <line class="sparkline-axis" x1="0" y1={HEIGHT - PAD} x2={WIDTH} y2={HEIGHT - PAD} />
      {points.length > 0 && <polyline class="sparkline-line" points={xy.join(' ')} />}
    </svg>
  );
}
