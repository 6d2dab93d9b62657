// The page of `npm run bench:dashboard` (bundled by dashboard-plot.mjs with esbuild): the check
// view's own plotting modules, fed POINTS points shaped as the REST detail endpoint returns them
// (one PCR PID, 40 ms intervals with jitter, a violation every 50,000 points). It measures, in the
// page, the columns built from the points and uPlot's creation to its first draw; one run per load.
import { createCheckChart } from '../web/src/dashboard/check-view/check-chart.ts';
import { buildCheckColumns } from '../web/src/dashboard/check-view/check-columns.ts';
import { limitLines } from '../web/src/dashboard/check-view/check-limits.ts';

const POINTS = Number(new URLSearchParams(window.location.search).get('points') ?? 500_000);

function detailPoints(count) {
  const points = [];
  let t = 0;
  for (let i = 0; i < count; i++) {
    const violation = i % 50_000 === 25_000;
    const value = violation ? 180 + (i % 7) : 40 + Math.sin(i / 300) * 2 + ((i * 7919) % 13) / 10;
    t += value / 1000;
    points.push({ t, offset: i * 188 * 20, packetIndex: i * 20, pid: 256, value, unit: 'ms', violation, severity: violation ? 'error' : 'info', message: 'PCR interval', citation: null, type: 'pcr-interval' });
  }
  return points;
}

const container = document.getElementById('plot');
const points = detailPoints(POINTS);
// A moment after making the points, so the collection of the garbage their making left is not in the timing.
setTimeout(measure, 300);

function measure() {
  const started = performance.now();
  const columns = buildCheckColumns(points);
  const columnsMs = performance.now() - started;
  createCheckChart(container, columns, {
    width: 1200,
    height: 300,
    unit: 'ms',
    limits: limitLines('mpegts-pcr-intervals', { maxIntervalMs: 100 }),
    onSelectViolation: () => undefined,
    onFirstDraw: () => {
      window.plotBench = { points: columns.times.length, violations: columns.violationRows.length, columnsMs, drawnMs: performance.now() - started };
    },
  });
}
