/** A platform (an aircraft, a sensor): its start and stop, and a row per channel. */
import type { BitrateHistory } from './bitrate-history.js';
import { ChannelRow } from './channel-row.js';
import type { ChannelCommand, PlatformCommand, RelayPlatform, StreamBitrates, StreamDetection } from './relay-api.js';

export interface PlatformPanelProps {
  platform: RelayPlatform;
  bitrates: ReadonlyMap<string, StreamBitrates>;
  history: BitrateHistory;
  windowEndMs: number;
  relayNowMs: number;
  detections: ReadonlyMap<string, StreamDetection>;
  /** Commands in flight, by `platform:ID` and `channel:ID`. */
  pending: ReadonlyMap<string, string>;
  onPlatformCommand: (platformId: string, command: PlatformCommand) => void;
  onChannelCommand: (channelId: string, command: ChannelCommand) => void;
}

export function PlatformPanel({ platform, bitrates, history, windowEndMs, relayNowMs, detections, pending, onPlatformCommand, onChannelCommand }: PlatformPanelProps) {
  const platformPending = pending.get(`platform:${platform.id}`);
  return (
    <section class="platform" data-platform-id={platform.id}>
      <header>
        <h2 data-field="platform-name">{platform.name}</h2>
        <span class="muted">{platform.id}</span>
        {platform.description !== '' && <span>{platform.description}</span>}
        <span class="platform-commands">
          {(['start', 'stop'] as const).map((command) => (
            <button key={command} type="button" data-command={command} disabled={platformPending !== undefined} onClick={() => onPlatformCommand(platform.id, command)}>
              {platformPending === command ? `${command} all…` : `${command} all`}
            </button>
          ))}
        </span>
      </header>
      {platform.channels.length === 0 ? (
        <p class="muted">no channels</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>channel</th>
              <th>input → outputs</th>
              <th>state</th>
              <th>input bitrate, last minute</th>
              <th>PIDs</th>
              <th>latest detection</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {platform.channels.map((channel) => (
              <ChannelRow
                key={channel.channelId}
                channel={channel}
                bitrates={bitrates.get(channel.channelId)}
                points={history.get(channel.channelId) ?? []}
                windowEndMs={windowEndMs}
                relayNowMs={relayNowMs}
                detection={detections.get(channel.channelId)}
                pending={pending.get(`channel:${channel.channelId}`)}
                onCommand={onChannelCommand}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
