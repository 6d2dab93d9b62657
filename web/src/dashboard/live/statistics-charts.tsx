/**
 * The live statistics, a reading a second, as three charts: bit rate per PID
 * (and the whole multiplex), TS packets per second, and the losses counted
 * since the session started (continuity errors, datagrams dropped inside
 * klvscope, RTP packets missing, the socket's drops). Under them the latest
 * reading as numbers, with its sequence number, for a reader and for tests.
 */
import { useMemo } from 'preact/hooks';
import { formatBitrate } from '../../shared/bitrate-format.js';
import type { LiveStatistics } from './live-records.js';
import { formatClockTime } from './clock-time.js';
import { pidLabel } from './pid-label.js';
import { chartColumns } from './statistics-columns.js';
import { TimeChart } from './time-chart.js';

export function StatisticsCharts({ readings, version }: { readings: readonly LiveStatistics[]; version: number }) {
  const charts = useMemo(() => chartColumns(readings), [readings, version]);
  const latest = readings.at(-1);
  return (
    <section class="panel live-statistics" aria-label="statistics">
      <h2>Statistics</h2>
      {latest === undefined ? (
        <p class="placeholder">The first reading comes a second after the session starts.</p>
      ) : (
        <>
          <div class="chart-row">
            <TimeChart name="bitrate" title="Bit rate per PID" unit="Mb/s" series={charts.bitrate.series} columns={charts.bitrate.columns} />
            <TimeChart name="packets" title="TS packets per second" unit="packets/s" series={charts.packets.series} columns={charts.packets.columns} />
            <TimeChart name="losses" title="Losses since the start" unit="count" series={charts.losses.series} columns={charts.losses.columns} />
          </div>
          <LatestReading reading={latest} />
        </>
      )}
    </section>
  );
}

function LatestReading({ reading }: { reading: LiveStatistics }) {
  return (
    <table class="data latest-reading" data-seq={reading.seq}>
      <caption>
        Latest second (reading {reading.seq}, <span data-clock>{formatClockTime(reading.at)}</span>)
      </caption>
      <thead>
        <tr>
          <th>bit rate</th>
          <th class="number">packets/s</th>
          <th class="number">KLV packets/s</th>
          <th class="number">continuity errors</th>
          <th class="number">losses (app / RTP / socket)</th>
          <th class="number">findings</th>
          <th>per PID</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td data-field="bitsPerSecond" data-value={reading.bitsPerSecond}>
            {formatBitrate(reading.bitsPerSecond)}
          </td>
          <td class="number" data-field="packetsPerSecond" data-value={reading.packetsPerSecond}>
            {reading.packetsPerSecond.toFixed(1)}
          </td>
          <td class="number" data-field="klvPacketsPerSecond" data-value={reading.klvPacketsPerSecond}>
            {reading.klvPacketsPerSecond.toFixed(1)}
          </td>
          <td class="number" data-field="continuityErrors">
            {reading.continuityErrors}
          </td>
          <td class="number" data-field="losses">
            {reading.losses.application} / {reading.losses.rtpPackets} / {reading.losses.socket}
          </td>
          <td class="number" data-field="findings">
            {reading.findings}
          </td>
          <td class="per-pid">
            {reading.pids.map((pid) => (
              <span key={pid.pid} class="pid-rate" data-pid={pid.pid} data-value={pid.bitsPerSecond}>
                {pidLabel(pid.pid)} {formatBitrate(pid.bitsPerSecond)}
              </span>
            ))}
          </td>
        </tr>
      </tbody>
    </table>
  );
}
