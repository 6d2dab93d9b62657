/**
 * The check's plot as a panel: the uPlot chart (check-chart.ts) sized to its
 * panel, with the zoom and pan buttons. The page owns the time cursor and the
 * selected violation; the chart is made once per set of columns.
 */
import { useEffect, useRef } from 'preact/hooks';
import { createCheckChart, type CheckChart } from './check-chart.js';
import type { CheckColumns } from './check-columns.js';
import type { LimitLine } from './check-limits.js';
import type { PlotYRange } from './plot-y-range.js';

export interface CheckPlotProps {
  columns: CheckColumns;
  limits: LimitLine[];
  unit: string | null;
  cursorTimeS: number | null;
  selectedRow: number | null;
  onSelectViolation: (row: number) => void;
  /** Once drawn: milliseconds from having the columns to the first draw. */
  onDrawn: (elapsedMs: number) => void;
  /** The y axis as drawn: its range, the limits off it, its tick labels. */
  onYAxis?: (axis: { range: PlotYRange; tickLabels: string[] }) => void;
}

const PLOT_HEIGHT_PX = 300;

export function CheckPlot(props: CheckPlotProps) {
  // No point has a stream time: an empty frame of −0.5…0.5 s would say nothing; a sentence does.
  if (props.columns.times.length === 0) {
    return (
      <section class="panel check-plot">
        <p class="plot-empty">Nothing to plot: the check gave no point with a stream time{props.columns.unplaced > 0 ? ` (${props.columns.unplaced} before the first PCR, listed below)` : ''}.</p>
      </section>
    );
  }
  return <DrawnPlot {...props} />;
}

function DrawnPlot({ columns, limits, unit, cursorTimeS, selectedRow, onSelectViolation, onDrawn, onYAxis }: CheckPlotProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<CheckChart | null>(null);
  const latest = useRef({ onSelectViolation, onDrawn, onYAxis });
  latest.current = { onSelectViolation, onDrawn, onYAxis };

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const started = performance.now();
    const chart = createCheckChart(container, columns, {
      width: Math.max(320, container.clientWidth),
      height: PLOT_HEIGHT_PX,
      unit,
      limits,
      onSelectViolation: (row) => latest.current.onSelectViolation(row),
      onFirstDraw: () => latest.current.onDrawn(performance.now() - started),
      onYAxis: (axis) => latest.current.onYAxis?.(axis),
    });
    chartRef.current = chart;
    const resize = new ResizeObserver(() => chart.resize(Math.max(320, container.clientWidth)));
    resize.observe(container);
    return () => {
      resize.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
  }, [columns, limits, unit]);

  useEffect(() => chartRef.current?.setCursorTime(cursorTimeS), [cursorTimeS, columns]);
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setSelectedRow(selectedRow);
    if (selectedRow !== null) chart.reveal(columns.times[selectedRow]);
  }, [selectedRow, columns]);

  return (
    <section class="panel check-plot">
      <div class="plot-tools" role="toolbar" aria-label="Plot zoom and pan">
        <span class="hint">Drag across the plot to zoom; click a red ring to select its violation.</span>
        <button type="button" data-action="pan-back" onClick={() => chartRef.current?.panBy(-0.5)}>
          ◀ Earlier
        </button>
        <button type="button" data-action="pan-forward" onClick={() => chartRef.current?.panBy(0.5)}>
          Later ▶
        </button>
        <button type="button" data-action="zoom-out" onClick={() => chartRef.current?.zoomOut()}>
          Zoom out
        </button>
        <button type="button" data-action="reset" onClick={() => chartRef.current?.reset()}>
          Reset
        </button>
      </div>
      <div ref={containerRef} class="plot" />
    </section>
  );
}
