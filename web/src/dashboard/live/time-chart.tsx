/**
 * One uPlot chart of values against wall-clock time: the x column in
 * seconds since the epoch (uPlot's time axis), one y column per series. The
 * plot is made again only when the series change (a new PID); new readings
 * go in with setData, which keeps the zoom the user chose.
 */
import uPlot from 'uplot';
import { fitPlotToContainer } from '../../shared/plot-fits-container.js';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import type { ChartSeries } from './chart-series.js';
import { formatClockTime } from './clock-time.js';

export interface TimeChartProps {
  title: string;
  /** Under the y axis. */
  unit: string;
  series: ChartSeries[];
  /** [x (s since the epoch), ...one column per series]. */
  columns: number[][];
  /** A stable name for tests (`data-chart`). */
  name: string;
}

const HEIGHT_PX = 170;

/** The time axis in the page's one clock format (uPlot's own writes `2:03:07pm`), ticks on whole seconds far enough apart for the labels. */
const CLOCK_AXIS: uPlot.Axis = {
  values: (_plot, splits) => splits.map((seconds) => formatClockTime(seconds * 1000)),
  incrs: [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600],
  space: 80,
};

export function TimeChart({ title, unit, series, columns, name }: TimeChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const seriesKey = series.map((one) => one.label).join('|');

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const plot = new uPlot(
      {
        width: Math.max(container.clientWidth, 300),
        height: HEIGHT_PX,
        series: [{}, ...series.map((one) => ({ label: one.label, stroke: one.colour, width: 1.5 }))],
        axes: [CLOCK_AXIS, { label: unit, size: 60 }],
        legend: { live: false },
      },
      columns as uPlot.AlignedData,
      container,
    );
    plotRef.current = plot;
    const stopFitting = fitPlotToContainer(plot, container, HEIGHT_PX);
    return () => {
      stopFitting();
      plotRef.current = null;
    };
    // Only a change of series makes a new plot; the data goes in below.
  }, [seriesKey, unit]);

  useEffect(() => {
    plotRef.current?.setData(columns as uPlot.AlignedData);
  }, [columns]);

  return (
    // data-axis-sample: the first time as the axis writes it, for tests (the axis itself is drawn on a canvas).
    <figure class="time-chart" data-chart={name} data-points={columns[0]?.length ?? 0} data-axis-sample={columns[0]?.length ? formatClockTime(columns[0][0] * 1000) : undefined}>
      <figcaption>{title}</figcaption>
      <div ref={containerRef} />
    </figure>
  );
}
