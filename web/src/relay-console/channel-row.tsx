/** One channel: its state, where it relays from and to, its bitrate over the last minute, its latest detection, and its commands. */
import { formatBitrate } from '../shared/bitrate-format.js';
import type { BitratePoint } from './bitrate-history.js';
import { BitrateSparkline } from './bitrate-sparkline.js';
import { DetectionSummary, clockTime } from './detection-summary.js';
import type { ChannelCommand, RelayChannel, StreamBitrates, StreamDetection } from './relay-api.js';

export interface ChannelRowProps {
  channel: RelayChannel;
  bitrates: StreamBitrates | undefined;
  points: readonly BitratePoint[];
  windowEndMs: number;
  detection: StreamDetection | undefined;
  /** The command in flight for this channel, if any. */
  pending: string | undefined;
  onCommand: (channelId: string, command: ChannelCommand) => void;
}

const COMMANDS: readonly ChannelCommand[] = ['start', 'stop', 'detect'];
/** States in which the relay takes a reading each second. */
const RELAYING = new Set(['running', 'no-signal']);

export function ChannelRow({ channel, bitrates, points, windowEndMs, detection, pending, onCommand }: ChannelRowProps) {
  return (
    <tr class="channel" data-channel-id={channel.channelId}>
      <td>
        <div class="channel-name" data-field="name">
          {channel.name}
        </div>
        <div class="muted" data-field="channel-id">
          {channel.channelId}
          {!channel.enabled && ' (disabled)'}
        </div>
      </td>
      <td class="routes">
        <div data-field="input">{channel.input}</div>
        {channel.outputState.map((output) => (
          <div key={output.url} class={`output output-${output.state}`} title={output.error ?? undefined}>
            → {output.url} <span class="muted">{output.state}</span>
          </div>
        ))}
      </td>
      <td>
        <span class={`state state-${channel.state}`} data-field="state">
          {channel.state}
        </span>
        {channel.error !== null && <div class="problem">{channel.error}</div>}
      </td>
      <td class="bitrate">
        <span data-field="bitrate" data-time={bitrates?.time ?? ''} data-bps={bitrates?.inputBitrate ?? 0}>
          {bitrates === undefined || bitrates.time === null ? '—' : formatBitrate(bitrates.inputBitrate)}
        </span>
        {/* Readings survive a stop: a channel not relaying shows its last one, and when it was. */}
        {bitrates?.time != null && !RELAYING.has(channel.state) && <span class="muted"> at {clockTime(bitrates.time)}</span>}
        <BitrateSparkline points={points} windowEndMs={windowEndMs} />
      </td>
      <td>
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
