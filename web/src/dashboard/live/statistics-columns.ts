/**
 * The live statistics as chart columns (uPlot wants arrays, not objects per
 * point): bit rate per PID and of the whole multiplex, TS and KLV packets per
 * second, and the losses since the start.
 */
import type { LiveStatistics } from './live-records.js';
import { OTHER_PIDS, pidLabel } from './pid-label.js';
import type { ChartSeries } from './chart-series.js';

/** PIDs the bit-rate chart draws one by one, the busiest over the readings; the rest are one line, 'others' (noise reaches every PID). */
export const MAX_CHART_PIDS = 12;

const PALETTE = ['#1f5f99', '#c0392b', '#2d7a3e', '#a66a00', '#7d3c98', '#117a8b', '#884ea0', '#5d6d7e'];

/** The PIDs drawn one by one (by PID), the busiest over the readings, then OTHER_PIDS when any is left out. */
function chartedPids(readings: readonly LiveStatistics[]): number[] {
  const totals = new Map<number, number>();
  for (const reading of readings) for (const one of reading.pids) totals.set(one.pid, (totals.get(one.pid) ?? 0) + one.bitsPerSecond);
  const all = [...totals.keys()].filter((pid) => pid !== OTHER_PIDS);
  const drawn = all.length <= MAX_CHART_PIDS ? all : all.sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || a - b).slice(0, MAX_CHART_PIDS);
  drawn.sort((a, b) => a - b);
  return drawn.length < all.length || totals.has(OTHER_PIDS) ? [...drawn, OTHER_PIDS] : drawn;
}

interface Chart {
  series: ChartSeries[];
  columns: number[][];
}

/** Columns of numbers per chart, straight from the readings (uPlot wants arrays, not objects per point). */
export function chartColumns(readings: readonly LiveStatistics[]): { bitrate: Chart; packets: Chart; losses: Chart } {
  const x = readings.map((reading) => reading.at / 1000);
  const pids = chartedPids(readings);
  const bitrate: Chart = {
    series: [{ label: 'all', colour: '#1d232a' }, ...pids.map((pid, index) => ({ label: pidLabel(pid), colour: PALETTE[index % PALETTE.length] }))],
    columns: [
      x,
      readings.map((reading) => reading.bitsPerSecond / 1e6),
      // A PID absent from a reading carried nothing that second; 'others' is every PID not drawn on its own.
      ...pids.map((pid) =>
        readings.map((reading) => {
          if (pid !== OTHER_PIDS) return (reading.pids.find((one) => one.pid === pid)?.bitsPerSecond ?? 0) / 1e6;
          return reading.pids.reduce((sum, one) => (pids.includes(one.pid) && one.pid !== OTHER_PIDS ? sum : sum + one.bitsPerSecond), 0) / 1e6;
        }),
      ),
    ],
  };
  const packets: Chart = {
    series: [
      { label: 'TS packets', colour: PALETTE[0] },
      { label: 'KLV packets', colour: PALETTE[1] },
    ],
    columns: [x, readings.map((reading) => reading.packetsPerSecond), readings.map((reading) => reading.klvPacketsPerSecond)],
  };
  const losses: Chart = {
    series: [
      { label: 'continuity errors', colour: PALETTE[1] },
      { label: 'dropped in klvscope', colour: PALETTE[3] },
      { label: 'RTP missing', colour: PALETTE[4] },
      { label: 'socket drops', colour: PALETTE[5] },
    ],
    columns: [
      x,
      readings.map((reading) => reading.continuityErrors),
      readings.map((reading) => reading.losses.application),
      readings.map((reading) => reading.losses.rtpPackets),
      readings.map((reading) => reading.losses.socket),
    ],
  };
  return { bitrate, packets, losses };
}
