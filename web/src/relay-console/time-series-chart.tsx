/**
 * Lines over time in an SVG with labelled axes: time across (the window
 * ending at the relay's newest reading, ticks each minute as clock times),
 * bits per second up from zero with three labelled gridlines. Small and
 * dependency-free: at most 300 points a line.
 */
import { formatBitrate } from '../shared/bitrate-format.js';
import { clockTime } from './detection-summary.js';
import type { BitratePoint } from './bitrate-history.js';

export interface ChartLine {
  label: string;
  points: readonly BitratePoint[];
  /** A CSS class for its stroke (chart-line-0 ... chart-line-7). */
  className: string;
}

export interface TimeSeriesChartProps {
  lines: readonly ChartLine[];
  windowEndMs: number;
  windowMs: number;
  title: string;
  width?: number;
  height?: number;
}

const LEFT = 78;
const BOTTOM = 22;
const TOP = 8;
const RIGHT = 10;

/** A round ceiling for the axis: 1, 2 or 5 times a power of ten. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= value) ?? 10 * power;
}

export function TimeSeriesChart({ lines, windowEndMs, windowMs, title, width = 720, height = 220 }: TimeSeriesChartProps) {
  const peak = Math.max(1, ...lines.flatMap((l) => l.points.map((p) => p.bitsPerSecond)));
  const top = niceCeiling(peak * 1.1);
  const start = windowEndMs - windowMs;
  const x = (timeMs: number): number => LEFT + ((timeMs - start) / windowMs) * (width - LEFT - RIGHT);
  const y = (bps: number): number => height - BOTTOM - (bps / top) * (height - BOTTOM - TOP);
  const minuteTicks: number[] = [];
  for (let t = Math.ceil(start / 60_000) * 60_000; t <= windowEndMs; t += 60_000) minuteTicks.push(t);
  return (
    <svg class="time-chart" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title} data-lines={lines.length} data-top-bps={top}>
      <title>{title}</title>
      {[0, 0.5, 1].map((f) => (
        <g key={f}>
          <line class="chart-grid" x1={LEFT} x2={width - RIGHT} y1={y(top * f)} y2={y(top * f)} />
          <text class="chart-label" x={LEFT - 6} y={y(top * f) + 4} text-anchor="end">
            {formatBitrate(top * f)}
          </text>
        </g>
      ))}
      {minuteTicks.map((t) => (
        <text key={t} class="chart-label" x={x(t)} y={height - 6} text-anchor="middle">
          {clockTime(new Date(t).toISOString()).slice(0, 5)}
        </text>
      ))}
      {lines.map((line) => (
        <polyline key={line.label} class={`chart-line ${line.className}`} points={line.points.filter((p) => p.timeMs >= start).map((p) => `${x(p.timeMs).toFixed(1)},${y(p.bitsPerSecond).toFixed(1)}`).join(' ')}>
          <title>{line.label}</title>
        </polyline>
      ))}
    </svg>
  );
}
