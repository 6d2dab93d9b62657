/** The answer of GET /api/bitrates: each channel's latest second, per output and per input PID, and its history. */
import { listRelayChannels, type RelayChannelAlarms } from '@klvscope/core/store';
import type { BitrateReading, PidBitrate } from './bitrate-meter.js';
import type { ActiveAlarm } from './channel-alarms.js';
import type { ChannelInputStats } from './channel-relay.js';
import type { RelayService } from './relay-service.js';

export interface StreamBitrates {
  channelId: string;
  state: string;
  /** The end of the latest second measured, or null before one. */
  time: string | null;
  inputBitrate: number;
  outputBitrate: number;
  /** Per output: bits per second the system took, and datagrams sent and refused since the channel's readings began. */
  outputs: Array<{ url: string; bitrate: number; sent: number; refused: number }>;
  pids: PidBitrate[];
  /** The input's sender, uptime, silence and losses while the channel runs; null while it is stopped. */
  input: ChannelInputStats | null;
  /** The channel's limits, and the alarms raised now (none while it is stopped). */
  limits: RelayChannelAlarms;
  alarms: ActiveAlarm[];
  history: readonly BitrateReading[];
}

export function channelBitrates(service: RelayService, channelId?: string): StreamBitrates[] {
  const rows = channelId === undefined ? listRelayChannels(service.db) : [service.channelRow(channelId)];
  return rows.map((row) => {
    const meter = service.meterOf(row.channelId);
    const latest = meter?.latest ?? null;
    return {
      channelId: row.channelId,
      state: service.view(row).state,
      time: latest?.reading.time ?? null,
      inputBitrate: latest?.reading.inputBitrate ?? 0,
      outputBitrate: latest?.reading.outputBitrate ?? 0,
      outputs: row.outputs.map((url, i) => ({ url, bitrate: latest?.outputs[i] ?? 0, sent: meter?.outputSends[i]?.sent ?? 0, refused: meter?.outputSends[i]?.refused ?? 0 })),
      pids: latest?.pids ?? [],
      input: service.runtimes.get(row.channelId)?.inputStats() ?? null,
      limits: row.alarms,
      alarms: service.runtimes.get(row.channelId)?.activeAlarms() ?? [],
      history: meter?.readings() ?? [],
    };
  });
}
