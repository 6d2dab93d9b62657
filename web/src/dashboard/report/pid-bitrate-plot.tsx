/**
 * The report's bit rate over time, stacked by PID (GET
 * /analysis/bitrate-over-time): each PID's band sits on the ones below it,
 * so the top edge is the multiplex's rate. uPlot draws series in order, so
 * the cumulative sums are drawn from the top down, each filled to zero over
 * the one drawn before.
 */
import uPlot from 'uplot';
import { fitPlotToContainer } from '../../shared/plot-fits-container.js';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { formatBitrate } from '../../shared/bitrate-format.js';
import { pidLabel } from './pid-label.js';
import type { BitrateOverTime } from './bitrate-over-time-api.js';

const HEIGHT_PX = 220;
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

/** [x, cumulative sums bottom PID first]: column i + 1 is PIDs 0..i stacked, one value per bucket. */
export function stackedColumns(series: BitrateOverTime): number[][] {
  const x = Array.from({ length: series.bucketCount }, (_, i) => i * series.bucketSeconds);
  const sums: number[][] = [];
  let below = new Array<number>(series.bucketCount).fill(0);
  for (const pid of series.pids) {
    below = below.map((value, i) => value + pid.bitsPerSecond[i]);
    sums.push(below);
  }
  return [x, ...sums];
}

/** The columns as steps: each bucket's value held from its start to the next, the last one to its end. */
function stepColumns(columns: number[][], series: BitrateOverTime): number[][] {
  const end = (series.bucketCount - 1) * series.bucketSeconds + series.lastBucketSeconds;
  return [[...columns[0], end], ...columns.slice(1).map((column) => [...column, column[column.length - 1]])];
}

export function PidBitratePlot({ series }: { series: BitrateOverTime }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const columns = useMemo(() => stackedColumns(series), [series]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    // Top of the stack first, so each lower band paints over the fill of the one above it.
    const order = series.pids.map((_, i) => i).reverse();
    const plot = new uPlot(
      {
        width: Math.max(container.clientWidth, 300),
        height: HEIGHT_PX,
        scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] } },
        series: [
          { label: 'stream time (s)' },
          ...order.map((i) => ({
            label: pidLabel(series.pids[i].pid),
            stroke: COLOURS[i % COLOURS.length],
            fill: `${COLOURS[i % COLOURS.length]}cc`,
            width: 1,
            paths: uPlot.paths.stepped?.({ align: 1 }),
            value: (_u: uPlot, _v: number | null, _s: number, row: number | null) =>
              row === null ? '—' : formatBitrate(series.pids[i].bitsPerSecond[Math.min(row, series.bucketCount - 1)]),
          })),
        ],
        axes: [{ label: 'stream time (s)' }, { label: 'bit rate', size: 80, values: (_u, splits) => splits.map((bps) => formatBitrate(bps)) }],
      },
      stepColumns([columns[0], ...order.map((i) => columns[i + 1])], series) as uPlot.AlignedData,
      container,
    );
    return fitPlotToContainer(plot, container, HEIGHT_PX);
  }, [series, columns]);

  const top = columns.length > 1 ? columns[columns.length - 1] : [];
  return (
    <figure
      class="report-plot pid-bitrate-plot"
      data-buckets={series.bucketCount}
      data-pids={series.pids.map((pid) => pid.pid).join(',')}
      data-stack-top={JSON.stringify(top)}
    >
      <figcaption>
        Bit rate by PID, stacked ({series.bucketSeconds} s buckets of stream time; the top edge is the multiplex)
      </figcaption>
      <div ref={containerRef} />
    </figure>
  );
}
