/**
 * What one console connection is sent (GET /api/events): first everything
 * (platforms with their channels, every channel's bitrates with their
 * history, detections, the server's state), then once a second only what
 * changed since the last message: the channels whose view changed, the
 * readings taken since, new detections, a new server status. A channel that
 * is not relaying costs nothing; 64 channels of which 8 relay cost a few
 * kilobytes a second instead of the whole picture polled every second.
 */
import { RELAY_SERVER_STATUS, listRelayPlatforms, listRelayRecords, type RelayServerStatusRow } from '@klvscope/core/store';
import { channelBitrates, type StreamBitrates } from './channel-bitrates.js';
import type { ChannelView, RelayService } from './relay-service.js';
import type { StreamDetection, StreamDetector } from './stream-detector.js';

/** The largest page GET /api/platforms gives: the console shows every platform. */
const ALL_PLATFORMS = 1000;

export interface ConsolePlatform {
  id: string;
  createdAt: string;
  name: string;
  description: string;
  channels: ChannelView[];
}

export interface ConsoleUpdate {
  /** The relay's clock when the message was made (ISO 8601). */
  time: string;
  /** Every platform with its channels: in the first message, and whenever a platform or the list of its channels changed. */
  platforms?: ConsolePlatform[];
  /** Channels whose view (definition, state, outputs, error) changed, when `platforms` is not sent. */
  channels?: ChannelView[];
  /**
   * Per channel with a reading since the last message: the entry of GET /api/bitrates without
   * `limits` (the channel's `alarms` field says them). In the first message, all of its history;
   * later, `history` holds only the readings since the last message other than the latest (which
   * the entry itself is: usually none), and `outputs` omit their `url` (the channel's `outputs`,
   * in the same order, say them).
   */
  bitrates?: FeedBitrates[];
  detections?: StreamDetection[];
  serverStatus?: RelayServerStatusRow | null;
}

export type FeedBitrates = Omit<StreamBitrates, 'limits' | 'outputs'> & { outputs: Array<{ url?: string; bitrate: number; sent: number; refused: number }> };

export class ConsoleFeed {
  private platformsShape = '';
  private readonly channelViews = new Map<string, string>();
  private readonly readingTimes = new Map<string, string | null>();
  private readonly detectionTimes = new Map<string, string>();
  private serverStatus: string | null = null;

  constructor(
    private readonly service: RelayService,
    private readonly detector: StreamDetector,
  ) {}

  /** The next message: everything the first time, then what changed. */
  next(): ConsoleUpdate {
    const update: ConsoleUpdate = { time: new Date().toISOString() };
    const platforms = listRelayPlatforms(this.service.db, { filters: [], sort: [], limit: ALL_PLATFORMS, page: 1 }).rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt,
      name: row.name,
      description: row.description,
      channels: row.channels.map((channel) => this.service.view(channel)),
    }));
    const shape = JSON.stringify(platforms.map((p) => [p.id, p.createdAt, p.name, p.description, p.channels.map((c) => c.channelId)]));
    const changed: ChannelView[] = [];
    const seen = new Set<string>();
    for (const channel of platforms.flatMap((p) => p.channels)) {
      seen.add(channel.channelId);
      const text = JSON.stringify(channel);
      if (this.channelViews.get(channel.channelId) !== text) changed.push(channel);
      this.channelViews.set(channel.channelId, text);
    }
    for (const id of [...this.channelViews.keys()]) if (!seen.has(id)) this.forget(id);
    if (shape !== this.platformsShape) update.platforms = platforms;
    else if (changed.length > 0) update.channels = changed;
    this.platformsShape = shape;

    const bitrates = channelBitrates(this.service).flatMap((entry): FeedBitrates[] => {
      const last = this.readingTimes.get(entry.channelId);
      if (last !== undefined && entry.time === last) return [];
      this.readingTimes.set(entry.channelId, entry.time);
      // A first message gives the whole history; later ones the readings since the last one sent (ISO times compare as text).
      const { limits: _limits, ...reading } = entry;
      if (last === undefined) return [reading];
      return [{ ...reading, outputs: entry.outputs.map(({ url: _url, ...sends }) => sends), history: entry.history.filter((r) => (last === null || r.time > last) && r.time !== entry.time) }];
    });
    if (bitrates.length > 0) update.bitrates = bitrates;

    const detections = this.detector.results().filter((d) => this.detectionTimes.get(d.channelId) !== d.time);
    for (const d of detections) this.detectionTimes.set(d.channelId, d.time);
    if (detections.length > 0) update.detections = detections;

    const [status] = listRelayRecords(this.service.db, RELAY_SERVER_STATUS, { filters: [], sort: [{ field: 'id', descending: true }], limit: 1, page: 1 }).rows;
    const statusText = JSON.stringify(status ?? null);
    if (statusText !== this.serverStatus) update.serverStatus = status ?? null;
    this.serverStatus = statusText;
    return update;
  }

  private forget(channelId: string): void {
    this.channelViews.delete(channelId);
    this.readingTimes.delete(channelId);
    this.detectionTimes.delete(channelId);
  }
}
