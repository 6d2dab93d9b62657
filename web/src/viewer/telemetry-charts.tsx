/**
 * Telemetry under the video: platform altitude, heading, slant range and
 * the sensor's azimuth and elevation against the viewer's time line (the
 * frame clock's seconds), one small uPlot each, with a vertical cursor at
 * the frame on screen (paused or stepped, it stays there while the charts
 * fill on to the right). The data goes in at most every REDRAW_MS: packets
 * come 30 a second.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import { fitPlotToContainer } from '../shared/plot-fits-container.js';
import type { TelemetryField, TelemetryLog } from './telemetry-log.js';

const HEIGHT_PX = 96;
const REDRAW_MS = 250;
const CURSOR_COLOUR = '#d62c1a';

interface ChartSpec {
  name: string;
  title: string;
  unit: string;
  series: Array<{ field: TelemetryField; label: string; colour: string }>;
}

const CHARTS: ChartSpec[] = [
  { name: 'altitude', title: 'Platform altitude', unit: 'm', series: [{ field: 'sensorAltitudeM', label: 'altitude', colour: '#1f5f99' }] },
  { name: 'heading', title: 'Platform heading', unit: '°', series: [{ field: 'platformHeadingDeg', label: 'heading', colour: '#2d7a3e' }] },
  { name: 'slant-range', title: 'Slant range', unit: 'm', series: [{ field: 'slantRangeM', label: 'slant range', colour: '#8e44ad' }] },
  {
    name: 'sensor-angles',
    title: 'Sensor azimuth and elevation',
    unit: '°',
    series: [
      { field: 'sensorAzimuthDeg', label: 'azimuth', colour: '#a66a00' },
      { field: 'sensorElevationDeg', label: 'elevation', colour: '#16a085' },
    ],
  },
];

export interface TelemetryChartsProps {
  log: TelemetryLog;
  /** Changes whenever the log grew. */
  logVersion: number;
  /** The frame on screen on the log's time line, seconds; null before one. */
  cursorS: number | null;
  /** After each redraw: rows drawn and where the cursor is (for the tests). */
  onDrawn: (rows: number, cursorS: number | null) => void;
}

export function TelemetryCharts({ log, logVersion, cursorS, onDrawn }: TelemetryChartsProps) {
  const containerRefs = useRef<Array<HTMLDivElement | null>>([]);
  const plots = useRef<uPlot[]>([]);
  const cursor = useRef<number | null>(cursorS);
  const lastDataMs = useRef(0);
  const pendingData = useRef<number | null>(null);
  const latestOnDrawn = useRef(onDrawn);
  latestOnDrawn.current = onDrawn;

  useEffect(() => {
    const drawCursor = (u: uPlot) => {
      const at = cursor.current;
      if (at === null) return;
      const { min, max } = u.scales.x as { min?: number; max?: number };
      if (min === undefined || max === undefined || at < min || at > max) return;
      const { ctx, bbox } = u;
      const x = Math.round(u.valToPos(at, 'x', true));
      ctx.save();
      ctx.strokeStyle = CURSOR_COLOUR;
      ctx.lineWidth = 2 * (window.devicePixelRatio || 1);
      ctx.beginPath();
      ctx.moveTo(x, bbox.top);
      ctx.lineTo(x, bbox.top + bbox.height);
      ctx.stroke();
      ctx.restore();
    };
    const stops: Array<() => void> = [];
    CHARTS.forEach((spec, i) => {
      const container = containerRefs.current[i];
      if (!container) return;
      const plot = new uPlot(
        {
          width: Math.max(container.clientWidth, 300),
          height: HEIGHT_PX,
          series: [{ label: 's' }, ...spec.series.map((one) => ({ label: one.label, stroke: one.colour, width: 1.5 }))],
          // Before the first packet the columns are empty: uPlot needs a range all the same.
          scales: { x: { time: false, range: rangeOrUnit }, y: { range: (_u, min, max) => paddedRange(min, max) } },
          // The unit is in the caption: a rotated one-letter axis label reads as a glyph.
          axes: [{ size: 24, space: 60 }, { size: 52 }],
          legend: { show: spec.series.length > 1, live: false },
          cursor: { show: false },
          hooks: { draw: [drawCursor] },
        },
        columnsOf(log, spec),
        container,
      );
      plots.current.push(plot);
      stops.push(fitPlotToContainer(plot, container, HEIGHT_PX));
    });
    return () => {
      for (const stop of stops) stop();
      plots.current = [];
    };
  }, [log]);

  useEffect(() => {
    const putData = () => {
      pendingData.current = null;
      lastDataMs.current = performance.now();
      CHARTS.forEach((spec, i) => plots.current[i]?.setData(columnsOf(log, spec)));
      latestOnDrawn.current(log.timesS.length, cursor.current);
    };
    const waitMs = REDRAW_MS - (performance.now() - lastDataMs.current);
    if (waitMs <= 0) putData();
    else pendingData.current ??= window.setTimeout(putData, waitMs);
  }, [log, logVersion]);

  useEffect(() => {
    cursor.current = cursorS;
    for (const plot of plots.current) plot.redraw(false, false);
    latestOnDrawn.current(log.timesS.length, cursorS);
  }, [cursorS]);

  useEffect(() => () => {
    if (pendingData.current !== null) window.clearTimeout(pendingData.current);
  }, []);

  return (
    <section class="telemetry-charts">
      {CHARTS.map((spec, i) => (
        <figure class="telemetry-chart" data-chart={spec.name}>
          <figcaption>
            {spec.title} ({spec.unit})
          </figcaption>
          <div
            ref={(element) => {
              containerRefs.current[i] = element;
            }}
          />
        </figure>
      ))}
    </section>
  );
}

function rangeOrUnit(_u: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  return min === max ? [min - 0.5, max + 0.5] : [min, max];
}

/** The data's range with a tenth of it (at least 1 unit) around, so that a level line is not on an edge. */
function paddedRange(min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  const pad = Math.max((max - min) * 0.1, 1);
  return [min - pad, max + pad];
}

function columnsOf(log: TelemetryLog, spec: ChartSpec): uPlot.AlignedData {
  return [log.timesS.slice(), ...spec.series.map((one) => log.values[one.field].slice())] as uPlot.AlignedData;
}
