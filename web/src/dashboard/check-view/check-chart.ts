/**
 * The check's time series drawn by uPlot (columns straight from
 * check-columns.ts): one line per series against stream time, the rule's
 * limits as dashed horizontal lines, each violation as a red ring (on its
 * value, or on the bottom edge when it has none), the selected one filled,
 * and the shared time cursor as a vertical line over the plot. Drag to zoom
 * (uPlot's own selection); panBy/zoomOut/reset for the buttons. A click on
 * a ring selects that violation.
 *
 * The y axis is scaled to the data (plot-y-range.ts): a limit far from the
 * data is written at the edge it lies beyond instead of squashing the data
 * flat, a wobble of a microsecond on 33 ms is drawn flat, and the tick
 * labels carry as many decimals as the tick step needs.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CheckColumns } from './check-columns.js';
import type { LimitLine } from './check-limits.js';
import { axisTickLabels, plotYRange, type PlotYRange } from './plot-y-range.js';

export interface CheckChartOptions {
  width: number;
  height: number;
  unit: string | null;
  limits: LimitLine[];
  /** A click on a violation's ring: its row. */
  onSelectViolation: (row: number) => void;
  /** Once, when uPlot has drawn the plot for the first time. */
  onFirstDraw?: () => void;
  /** Each time the y axis is scaled and labelled: the range, the limits off it, the tick labels. */
  onYAxis?: (axis: { range: PlotYRange; tickLabels: string[] }) => void;
}

export interface CheckChart {
  readonly plot: uPlot;
  /** Moves the time cursor (stream time, seconds; null hides it). */
  setCursorTime(timeS: number | null): void;
  /** Fills the ring of this row's violation (null: none). */
  setSelectedRow(row: number | null): void;
  /** Moves the x range by a fraction of its width (negative: back in time). */
  panBy(fraction: number): void;
  zoomOut(): void;
  /** The whole stream time again. */
  reset(): void;
  /** Brings `timeS` into view, keeping the zoom when possible. */
  reveal(timeS: number): void;
  resize(width: number): void;
  destroy(): void;
}

const SERIES_COLOURS = ['#1f5f99', '#2d7a3e', '#8e44ad', '#a66a00', '#16a085', '#7f8c8d', '#c0392b'];
const VIOLATION_COLOUR = '#d62c1a';
const LIMIT_COLOUR = '#b03a2e';
/** How near (CSS px) a click must be to a ring to select it. */
const CLICK_RADIUS_PX = 8;

export function createCheckChart(container: HTMLElement, columns: CheckColumns, options: CheckChartOptions): CheckChart {
  const { times, violationRows, rowValues } = columns;
  let selectedRow: number | null = null;
  const fullRange = (): { min: number; max: number } => {
    const min = times.length > 0 ? times[0] : 0;
    const max = times.length > 0 ? times[times.length - 1] : 1;
    return max > min ? { min, max } : { min: min - 0.5, max: max + 0.5 };
  };

  const drawMarks = (u: uPlot) => {
    const { ctx, bbox } = u;
    const ratio = window.devicePixelRatio || 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
    ctx.clip();
    ctx.setLineDash([6 * ratio, 4 * ratio]);
    ctx.strokeStyle = LIMIT_COLOUR;
    ctx.lineWidth = 1.5 * ratio;
    ctx.fillStyle = LIMIT_COLOUR;
    ctx.font = `${11 * ratio}px sans-serif`;
    // uPlot leaves its axis labels' alignment on the context.
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    const { min: yMin, max: yMax } = u.scales.y as { min: number; max: number };
    for (const limit of options.limits) {
      if (limit.value > yMax || limit.value < yMin) {
        // Off the scale: said at the edge it lies beyond, not drawn by squashing the data.
        const above = limit.value > yMax;
        ctx.textBaseline = above ? 'top' : 'bottom';
        ctx.fillText(`${above ? '↑' : '↓'} ${limit.label}, off the scale`, bbox.left + 4 * ratio, above ? bbox.top + 2 * ratio : bbox.top + bbox.height - 2 * ratio);
        ctx.textBaseline = 'bottom';
        continue;
      }
      const y = Math.round(u.valToPos(limit.value, 'y', true));
      ctx.beginPath();
      ctx.moveTo(bbox.left, y);
      ctx.lineTo(bbox.left + bbox.width, y);
      ctx.stroke();
      ctx.fillText(limit.label, bbox.left + 4 * ratio, y - 3 * ratio);
    }
    ctx.setLineDash([]);
    // The rings are not clipped: one at an edge of the plot is drawn whole, over the axis gutter.
    ctx.restore();
    ctx.save();
    const radius = 5 * ratio;
    const { min, max } = u.scales.x as { min: number; max: number };
    for (const row of violationRows) {
      const t = times[row];
      if (t < min || t > max) continue;
      const x = u.valToPos(t, 'x', true);
      const value = rowValues[row];
      const y = Number.isNaN(value) ? bbox.top + bbox.height - radius - ratio : u.valToPos(value, 'y', true);
      ctx.beginPath();
      ctx.arc(x, y, row === selectedRow ? radius * 1.4 : radius, 0, 2 * Math.PI);
      ctx.strokeStyle = VIOLATION_COLOUR;
      ctx.lineWidth = 2 * ratio;
      ctx.stroke();
      if (row === selectedRow) {
        ctx.fillStyle = VIOLATION_COLOUR;
        ctx.fill();
      }
    }
    ctx.restore();
  };

  const cursorLine = document.createElement('div');
  cursorLine.className = 'time-cursor';
  cursorLine.hidden = true;
  let cursorTime: number | null = null;
  const placeCursor = (u: uPlot) => {
    const { min, max } = u.scales.x as { min: number; max: number };
    if (cursorTime === null || cursorTime < min || cursorTime > max) {
      cursorLine.hidden = true;
      return;
    }
    cursorLine.hidden = false;
    cursorLine.style.left = `${u.valToPos(cursorTime, 'x')}px`;
  };

  const limitValues = options.limits.map((limit) => limit.value);
  let yRange: PlotYRange | null = null;
  let drawn = false;
  const plot = new uPlot(
    {
      width: options.width,
      height: options.height,
      scales: {
        x: { time: false, range: (_u, min, max) => (min === max ? [min - 0.5, max + 0.5] : [min, max]) },
        y: {
          range: (_u, min, max) => {
            const range = plotYRange(min, max, limitValues);
            yRange = range;
            return [range.min, range.max];
          },
        },
      },
      axes: [
        { label: 'stream time (s)', values: (_u, ticks) => axisTickLabels(ticks) },
        {
          label: options.unit ?? '',
          values: (_u, ticks) => {
            const labels = axisTickLabels(ticks);
            if (yRange !== null) options.onYAxis?.({ range: yRange, tickLabels: labels });
            return labels;
          },
        },
      ],
      series: [
        { label: 'stream time (s)' },
        ...columns.series.map((series, index) => ({
          label: series.label,
          stroke: SERIES_COLOURS[index % SERIES_COLOURS.length],
          width: 1,
          spanGaps: true,
        })),
      ],
      cursor: { drag: { x: true, y: false, setScale: true } },
      legend: { show: true },
      hooks: {
        draw: [
          drawMarks,
          () => {
            if (drawn) return;
            drawn = true;
            options.onFirstDraw?.();
          },
        ],
        setScale: [(u, key) => key === 'x' && placeCursor(u)],
        setSize: [placeCursor],
      },
    },
    [columns.times, ...columns.series.map((series) => series.values)] as uPlot.AlignedData,
    container,
  );
  plot.over.appendChild(cursorLine);

  // A click (not the end of a drag) near a ring selects its violation.
  let downAt: { x: number; y: number } | null = null;
  plot.over.addEventListener('mousedown', (event) => {
    downAt = { x: event.clientX, y: event.clientY };
  });
  plot.over.addEventListener('click', (event) => {
    if (downAt !== null && Math.hypot(event.clientX - downAt.x, event.clientY - downAt.y) > 3) return;
    const rect = plot.over.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    let best: { row: number; distance: number } | null = null;
    for (const row of violationRows) {
      const value = rowValues[row];
      const rowY = Number.isNaN(value) ? rect.height - 6 : plot.valToPos(value, 'y');
      const distance = Math.hypot(plot.valToPos(times[row], 'x') - x, rowY - y);
      if (distance <= CLICK_RADIUS_PX && (best === null || distance < best.distance)) best = { row, distance };
    }
    if (best !== null) options.onSelectViolation(best.row);
  });

  const setX = (min: number, max: number) => plot.setScale('x', { min, max });
  const currentX = () => plot.scales.x as { min: number; max: number };
  return {
    plot,
    setCursorTime(timeS) {
      cursorTime = timeS;
      placeCursor(plot);
    },
    setSelectedRow(row) {
      selectedRow = row;
      plot.redraw(false, false);
    },
    panBy(fraction) {
      const { min, max } = currentX();
      const step = (max - min) * fraction;
      setX(min + step, max + step);
    },
    zoomOut() {
      const { min, max } = currentX();
      const full = fullRange();
      const half = max - min;
      setX(Math.max(full.min, min - half / 2), Math.min(full.max, max + half / 2));
    },
    reset() {
      const { min, max } = fullRange();
      setX(min, max);
    },
    reveal(timeS) {
      const { min, max } = currentX();
      if (timeS >= min && timeS <= max) return;
      const half = (max - min) / 2;
      setX(timeS - half, timeS + half);
    },
    resize(width) {
      plot.setSize({ width, height: options.height });
    },
    destroy() {
      plot.destroy();
    },
  };
}
