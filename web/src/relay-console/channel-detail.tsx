/**
 * A channel's detail page (`#channel=ID`): its input bitrate over the last
 * five minutes with a choice of averaging window, its PIDs' rates over time
 * (gathered since the page opened: the relay keeps only each PID's last
 * second), its PIDs and outputs in full, its input's figures, its alarms
 * and their limits.
 */
import { useState } from 'preact/hooks';
import { formatBitrate } from '../shared/bitrate-format.js';
import { formatQuantity } from '../shared/quantity-format.js';
import { HISTORY_WINDOW_MS, type BitratePoint } from './bitrate-history.js';
import { InputFiguresLine } from './input-figures.js';
import type { PidReading } from './pid-history.js';
import { PidRates, hexPid } from './pid-rates.js';
import type { AlarmLimits, RelayChannel, StreamBitrates } from './relay-api.js';
import { rollingMean } from './rolling-mean.js';
import { TimeSeriesChart } from './time-series-chart.js';
import { UdpUrlText } from './udp-url-text.js';

const AVERAGING_WINDOWS_S = [1, 5, 15, 60] as const;
const LINE_CLASSES = 8;

export interface ChannelDetailProps {
  channel: RelayChannel;
  bitrates: StreamBitrates | undefined;
  points: readonly BitratePoint[];
  pidReadings: readonly PidReading[];
  relayNowMs: number;
}

export function ChannelDetail({ channel, bitrates, points, pidReadings, relayNowMs }: ChannelDetailProps) {
  const [averagingS, setAveragingS] = useState<number>(1);
  const endMs = points.at(-1)?.timeMs ?? relayNowMs;
  const pids = [...new Set(pidReadings.flatMap((r) => [...r.bitrates.keys()]))].sort((a, b) => a - b);
  const pidLines = pids.map((pid, i) => ({
    label: hexPid(pid),
    className: `chart-line-${i % LINE_CLASSES}`,
    points: rollingMean(
      pidReadings.map((r) => ({ timeMs: r.timeMs, bitsPerSecond: r.bitrates.get(pid) ?? 0 })),
      averagingS * 1000,
    ),
  }));
  return (
    <section class="channel-detail" data-channel-id={channel.channelId}>
      <header>
        <a href="#" data-field="back">
          ← all channels
        </a>
        <h2 data-field="detail-name">{channel.name}</h2>
        <span class="muted">{channel.channelId}</span>
        <span class={`state state-${channel.state}`} data-field="state">
          {channel.state}
        </span>
      </header>
      <div class="detail-routes">
        <UdpUrlText url={channel.input} /> →{' '}
        {channel.outputs.length === 0
          ? 'no output'
          : channel.outputs.map((url, i) => (
              <span key={url}>
                {i > 0 && ', '}
                <UdpUrlText url={url} />
              </span>
            ))}
      </div>
      {(bitrates?.alarms ?? []).map((alarm) => (
        <div key={`${alarm.kind} ${alarm.pid ?? ''}`} class="alarm" data-field="alarm">
          {alarm.message} (since {new Date(alarm.since).toLocaleTimeString('en-GB', { hour12: false })})
        </div>
      ))}
      <p class="muted" data-field="limits">
        {describeLimits(channel.alarms)}
      </p>
      <label class="averaging">
        averaging{' '}
        <select data-field="averaging" value={averagingS} onChange={(event) => setAveragingS(Number((event.target as HTMLSelectElement).value))}>
          {AVERAGING_WINDOWS_S.map((s) => (
            <option key={s} value={s}>
              {s === 1 ? 'none (1 s readings)' : `${s} s`}
            </option>
          ))}
        </select>
      </label>
      <h3>Input bitrate, last 5 minutes</h3>
      <TimeSeriesChart
        title={`input bitrate of ${channel.channelId}, ${averagingS} s average`}
        lines={[{ label: 'input', className: 'chart-line-0', points: rollingMean(points, averagingS * 1000) }]}
        windowEndMs={endMs}
        windowMs={HISTORY_WINDOW_MS}
      />
      <h3>PIDs over time (since this page opened)</h3>
      <TimeSeriesChart title={`bitrate per PID of ${channel.channelId}`} lines={pidLines} windowEndMs={endMs} windowMs={HISTORY_WINDOW_MS} />
      <ul class="chart-legend">
        {pidLines.map((line) => (
          <li key={line.label} class={line.className}>
            {line.label}
          </li>
        ))}
      </ul>
      <div class="detail-columns">
        <div>
          <h3>PIDs, last second</h3>
          {bitrates === undefined ? <span class="muted">no reading</span> : <PidRates pids={bitrates.pids} alarms={bitrates.alarms} full />}
        </div>
        <div>
          <h3>Outputs</h3>
          <table class="outputs-table" data-field="outputs">
            <thead>
              <tr>
                <th>output</th>
                <th>state</th>
                <th>bitrate</th>
                <th>sent</th>
                <th>refused</th>
              </tr>
            </thead>
            <tbody>
              {channel.outputState.map((output, i) => {
                const sends = bitrates?.outputs[i];
                return (
                  <tr key={output.url} class={`output-${output.state}`} title={output.error ?? undefined}>
                    <td>
                      <UdpUrlText url={output.url} />
                    </td>
                    <td>{output.state}</td>
                    <td>{sends === undefined ? '—' : formatBitrate(sends.bitrate)}</td>
                    <td>{sends === undefined ? '—' : formatQuantity(sends.sent)}</td>
                    <td>{sends === undefined ? '—' : formatQuantity(sends.refused)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <h3>Input</h3>
          {bitrates?.input != null ? <InputFiguresLine input={bitrates.input} relayNowMs={relayNowMs} /> : <span class="muted">not running</span>}
        </div>
      </div>
    </section>
  );
}

/** `alarms: input below 1.00 Mb/s, silent over 2 s, PID 0x0100 above 5.00 Mb/s`, or that none is set. */
function describeLimits(limits: AlarmLimits): string {
  const parts: string[] = [];
  const bounds = (subject: string, min: number | null, max: number | null) => {
    if (min !== null) parts.push(`${subject} below ${formatBitrate(min)}`);
    if (max !== null) parts.push(`${subject} above ${formatBitrate(max)}`);
  };
  bounds('input', limits.minBitrate, limits.maxBitrate);
  if (limits.maxSilenceMs !== null) parts.push(`silent over ${formatQuantity(limits.maxSilenceMs / 1000, 's')}`);
  for (const p of limits.pids) bounds(`PID ${hexPid(p.pid)}`, p.minBitrate, p.maxBitrate);
  if (parts.length === 0) return 'no alarm limits set (the channel’s alarms field)';
  return `alarms: ${parts.join(', ')}${limits.windowSeconds > 1 ? ` (bitrates as the mean of ${limits.windowSeconds} s)` : ''}`;
}
