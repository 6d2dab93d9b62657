/** One channel: its state and alarms, where it relays from and to (each output's rate), its input bitrate over the last minute with the input's figures, its PIDs, its latest detection, and its commands. */
import { formatBitrate } from '../shared/bitrate-format.js';
import { formatQuantity } from '../shared/quantity-format.js';
import { SPARKLINE_WINDOW_MS, pointsWithin, type BitratePoint } from './bitrate-history.js';
import { BitrateSparkline } from './bitrate-sparkline.js';
import { DetectionSummary, clockTime } from './detection-summary.js';
import { InputFiguresLine } from './input-figures.js';
import { PidRates } from './pid-rates.js';
import type { ChannelCommand, RelayChannel, StreamBitrates, StreamDetection } from './relay-api.js';
import { UdpUrlText } from './udp-url-text.js';

export interface ChannelRowProps {
  channel: RelayChannel;
  bitrates: StreamBitrates | undefined;
  points: readonly BitratePoint[];
  windowEndMs: number;
  relayNowMs: number;
  detection: StreamDetection | undefined;
  /** The command in flight for this channel, if any. */
  pending: string | undefined;
  onCommand: (channelId: string, command: ChannelCommand) => void;
}

const COMMANDS: readonly ChannelCommand[] = ['start', 'stop', 'detect'];
/** States in which the relay takes a reading each second. */
const RELAYING = new Set(['running', 'no-signal']);

export function ChannelRow({ channel, bitrates, points, windowEndMs, relayNowMs, detection, pending, onCommand }: ChannelRowProps) {
  const alarms = bitrates?.alarms ?? [];
  const relaying = RELAYING.has(channel.state);
  return (
    <tr class={`channel${alarms.length > 0 ? ' in-alarm' : ''}`} data-channel-id={channel.channelId} data-alarms={alarms.length}>
      <td class="channel-cell">
        <a class="channel-name" data-field="name" href={`#channel=${encodeURIComponent(channel.channelId)}`} title="the channel's detail page">
          {channel.name}
        </a>
        <div class="muted" data-field="channel-id">
          {channel.channelId}
          {!channel.enabled && ' (disabled)'}
        </div>
      </td>
      <td class="routes">
        <div data-field="input">
          <UdpUrlText url={channel.input} />
        </div>
        {channel.outputState.map((output, i) => {
          const sends = bitrates?.outputs[i];
          return (
            <div key={output.url} class={`output output-${output.state}`} title={output.error ?? undefined} data-field="output">
              → <UdpUrlText url={output.url} /> <span class="muted">{output.state}</span>
              {sends !== undefined && relaying && (
                <span class="output-figures" data-field="output-bitrate" data-bps={sends.bitrate}>
                  {' '}
                  {formatBitrate(sends.bitrate)}, {formatQuantity(sends.sent)} sent{sends.refused > 0 && <span class="finding-error">, {formatQuantity(sends.refused)} refused</span>}
                </span>
              )}
            </div>
          );
        })}
      </td>
      <td>
        <span class={`state state-${channel.state}`} data-field="state">
          {channel.state}
        </span>
        {channel.error !== null && <div class="problem">{channel.error}</div>}
        {alarms.map((alarm) => (
          <div key={`${alarm.kind} ${alarm.pid ?? ''}`} class="alarm" data-field="alarm" data-kind={alarm.kind}>
            {alarm.message}
          </div>
        ))}
      </td>
      <td class="bitrate">
        <span class="bitrate-value" data-field="bitrate" data-time={bitrates?.time ?? ''} data-bps={bitrates?.inputBitrate ?? 0}>
          {bitrates === undefined || bitrates.time === null ? '—' : formatBitrate(bitrates.inputBitrate)}
        </span>
        {/* Readings survive a stop: a channel not relaying shows its last one, and when it was. */}
        {bitrates?.time != null && !relaying && <span class="muted"> at {clockTime(bitrates.time)}</span>}
        <BitrateSparkline points={pointsWithin(points, windowEndMs, SPARKLINE_WINDOW_MS)} windowEndMs={windowEndMs} />
        {bitrates?.input != null && <InputFiguresLine input={bitrates.input} relayNowMs={relayNowMs} />}
      </td>
      <td class="pids">{relaying && bitrates !== undefined ? <PidRates pids={bitrates.pids} alarms={alarms} /> : <span class="muted">—</span>}</td>
      <td class="detection-cell">
        <DetectionSummary detection={detection} />
      </td>
      <td class="commands">
        {COMMANDS.map((command) => (
          <button key={command} type="button" data-command={command} disabled={pending !== undefined} onClick={() => onCommand(channel.channelId, command)}>
            {pending === command ? `${command}…` : command}
          </button>
        ))}
      </td>
    </tr>
  );
}
