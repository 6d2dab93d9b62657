/**
 * PCR accuracy against TR 101 290 2.4's ±500 ns (pcr-accuracy-series.ts), one
 * point per PCR, a colour per PCR PID. The y axis is scaled to the data
 * (plot-y-range.ts) and takes the ±500 ns band in while the data lies within
 * ten times it; values further off (microseconds, on a variable-bitrate
 * stream) are scaled to, with the band said at the edge. The band is shaded.
 */
import uPlot from 'uplot';
import { fitPlotToContainer } from '../../shared/plot-fits-container.js';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { axisTickLabels, plotYRange } from '../check-view/plot-y-range.js';
import { pidLabel } from './pid-label.js';
import type { PcrAccuracySeries } from './pcr-accuracy-series.js';

const HEIGHT_PX = 220;
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];
const BAND_COLOUR = 'rgba(46, 134, 72, 0.12)';
const LIMIT_COLOUR = '#c0392b';

export interface PcrAccuracyPlotProps {
  series: PcrAccuracySeries[];
  limitNs: number;
}

/** The axis's unit: ns while the values are near the band, µs or ms when a variable-bitrate stream puts them far off. */
function unitFor(range: { min: number; max: number }): { name: string; ns: number } {
  const largest = Math.max(Math.abs(range.min), Math.abs(range.max));
  if (largest >= 1e6) return { name: 'ms', ns: 1e6 };
  if (largest >= 1e4) return { name: 'µs', ns: 1e3 };
  return { name: 'ns', ns: 1 };
}

/** The union of the PIDs' times, each PID's values (in `unitNs`) at its own times (null elsewhere): uPlot's aligned columns. */
function alignedColumns(series: PcrAccuracySeries[], unitNs: number): Array<Array<number | null>> {
  const times = [...new Set(series.flatMap((one) => one.t))].sort((a, b) => a - b);
  const index = new Map(times.map((time, i) => [time, i]));
  const columns: Array<Array<number | null>> = [times];
  for (const one of series) {
    const column = new Array<number | null>(times.length).fill(null);
    one.t.forEach((time, i) => (column[index.get(time) as number] = one.accuracyNs[i] / unitNs));
    columns.push(column);
  }
  return columns;
}

export function PcrAccuracyPlot({ series, limitNs }: PcrAccuracyPlotProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const values = useMemo(() => series.flatMap((one) => one.accuracyNs), [series]);
  const outside = values.filter((ns) => Math.abs(ns) > limitNs).length;
  const range = useMemo(() => {
    let min = Infinity;
    let max = -Infinity;
    for (const ns of values) {
      if (ns < min) min = ns;
      if (ns > max) max = ns;
    }
    if (values.length === 0) return plotYRange(null, null, [-limitNs, limitNs]);
    // Values within ten times the band are read against it: the band in view (a line of ±40 ns is a good stream, not noise blown up).
    const nearBand = Math.max(Math.abs(min), Math.abs(max)) <= 10 * limitNs;
    return plotYRange(nearBand ? Math.min(min, -limitNs) : min, nearBand ? Math.max(max, limitNs) : max, [-limitNs, limitNs]);
  }, [values, limitNs]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container || values.length === 0) return;
    const unit = unitFor(range);
    const inUnit = (ns: number) => ns / unit.ns;
    const drawBand = (u: uPlot) => {
      const { ctx, bbox } = u;
      const ratio = window.devicePixelRatio || 1;
      const top = Math.max(u.valToPos(inUnit(Math.min(limitNs, range.max)), 'y', true), bbox.top);
      const bottom = Math.min(u.valToPos(inUnit(Math.max(-limitNs, range.min)), 'y', true), bbox.top + bbox.height);
      ctx.save();
      if (bottom > top) {
        ctx.fillStyle = BAND_COLOUR;
        ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
      }
      ctx.strokeStyle = LIMIT_COLOUR;
      ctx.fillStyle = LIMIT_COLOUR;
      ctx.setLineDash([6 * ratio, 4 * ratio]);
      ctx.font = `${11 * ratio}px sans-serif`;
      for (const limit of [limitNs, -limitNs]) {
        if (range.offScale.includes(limit)) continue;
        const y = u.valToPos(inUnit(limit), 'y', true);
        ctx.beginPath();
        ctx.moveTo(bbox.left, y);
        ctx.lineTo(bbox.left + bbox.width, y);
        ctx.stroke();
        ctx.fillText(`${limit > 0 ? '+' : '−'}${limitNs} ns`, bbox.left + 4 * ratio, y - 3 * ratio);
      }
      ctx.restore();
    };
    const plot = new uPlot(
      {
        width: Math.max(container.clientWidth, 300),
        height: HEIGHT_PX,
        scales: { x: { time: false }, y: { range: () => [inUnit(range.min), inUnit(range.max)] } },
        series: [
          { label: 'stream time (s)' },
          ...series.map((one, i) => ({
            label: `PCR ${pidLabel(one.pid)}`,
            stroke: COLOURS[i % COLOURS.length],
            width: 0,
            points: { show: true, size: 4, fill: COLOURS[i % COLOURS.length] },
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : `${(v * unit.ns).toFixed(1)} ns`),
          })),
        ],
        axes: [{ label: 'stream time (s)' }, { label: `PCR accuracy (${unit.name})`, size: 70, values: (_u, splits) => axisTickLabels(splits) }],
        hooks: { drawAxes: [drawBand] },
      },
      alignedColumns(series, unit.ns) as uPlot.AlignedData,
      container,
    );
    return fitPlotToContainer(plot, container, HEIGHT_PX);
  }, [series, values, range, limitNs]);

  return (
    <figure class="report-plot pcr-accuracy-plot" data-unit={unitFor(range).name} data-points={values.length} data-outside={outside} data-off-scale={range.offScale.join(',')}>
      <figcaption>
        PCR accuracy against ±{limitNs} ns (TR 101 290 2.4), from the byte positions: {values.length.toLocaleString('en-US')} PCRs,{' '}
        <span class="pcr-outside">{outside.toLocaleString('en-US')} outside the band</span>
        {outside > 0 && ' (far outside on a variable-bitrate stream, which the check does not judge: its PCRs follow the encoder, not the byte count)'}
      </figcaption>
      {values.length === 0 ? <p class="plot-empty">No PCR with a value: fewer than three PCRs in a stretch.</p> : <div ref={containerRef} />}
    </figure>
  );
}
