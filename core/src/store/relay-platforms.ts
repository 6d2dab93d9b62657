/**
 * Platforms and their channels in the relay database. A channel belongs to
 * one platform and is defined through its platform's `channels` array; what
 * the relay keeps about it (asked to run, state, output states, error) lives
 * on the same row and survives a change of its definition.
 */
import type { Database } from 'sql.js';
import { selectCollection, type CollectionPage, type CollectionQuery, type CollectionTable } from './relay-collection-query.js';
import { execute, jsonColumn, numberColumn, optionalTextColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

export interface RelayChannelDefinition {
  channelId: string;
  name: string;
  /** A source URL: udp://GROUP:PORT, udp://SOURCE@GROUP:PORT, udp://HOST:PORT. */
  input: string;
  /** Destination URLs: udp://HOST:PORT?ttl=N&interface=ADDR. */
  outputs: string[];
  enabled: boolean;
  /** Re-pack the input into datagrams of 7 TS packets instead of passing them on unchanged. */
  repack: boolean;
  /** The limits that raise an alarm while the channel runs (none by default). */
  alarms: RelayChannelAlarms;
}

/** Bitrate limits in bits per second of the input (TS bytes), silence in milliseconds; null: no limit. */
export interface RelayChannelAlarms {
  minBitrate: number | null;
  maxBitrate: number | null;
  maxSilenceMs: number | null;
  pids: Array<{ pid: number; minBitrate: number | null; maxBitrate: number | null }>;
  /** Bitrates are judged as the mean of this many one-second readings (1: each reading alone). */
  windowSeconds: number;
}

export const NO_RELAY_ALARMS: RelayChannelAlarms = { minBitrate: null, maxBitrate: null, maxSilenceMs: null, pids: [], windowSeconds: 1 };

export interface RelayOutputState {
  url: string;
  state: string;
  error: string | null;
}

export interface RelayChannelRow extends RelayChannelDefinition {
  platformId: string;
  /** Asked to run (started and not stopped since): started again after a restart. */
  running: boolean;
  state: string;
  outputStates: RelayOutputState[];
  error: string | null;
}

export interface RelayPlatformRecord {
  id: string;
  createdAt: string;
  name: string;
  description: string;
}

export interface RelayPlatformRow extends RelayPlatformRecord {
  channels: RelayChannelRow[];
}

export const RELAY_PLATFORMS_TABLE: CollectionTable = {
  table: 'relay_platforms',
  fields: [
    { field: 'id', sql: 't.id', type: 'text' },
    { field: 'createdAt', sql: 't.created_at', type: 'datetime' },
    { field: 'name', sql: 't.name', type: 'text' },
    { field: 'description', sql: 't.description', type: 'text' },
  ],
  // `channels=ID`: the platforms that have a channel of that id.
  relationFilters: { channels: 'EXISTS (SELECT 1 FROM relay_channels c WHERE c.platform_id = t.id AND c.channel_id = ?)' },
  tieBreaker: 't.rowid',
};

export function listRelayPlatforms(db: Database, query: CollectionQuery): { rows: RelayPlatformRow[]; total: number } {
  const page: CollectionPage = selectCollection(db, RELAY_PLATFORMS_TABLE, query);
  return { rows: page.rows.map((row) => withChannels(db, platformOf(row))), total: page.total };
}

export function getRelayPlatform(db: Database, id: string): RelayPlatformRow | null {
  const row = selectOne(db, 'SELECT * FROM relay_platforms WHERE id = ?', [id]);
  return row === undefined ? null : withChannels(db, platformOf(row));
}

/**
 * Writes a platform and makes its channels those given: new ones added,
 * existing ones redefined (keeping what the relay keeps about them), the
 * others removed. Returns the ids of the channels removed.
 */
export function putRelayPlatform(db: Database, platform: RelayPlatformRecord, channels: readonly RelayChannelDefinition[]): string[] {
  execute(db, 'INSERT INTO relay_platforms (id, created_at, name, description) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description', [
    platform.id,
    platform.createdAt,
    platform.name,
    platform.description,
  ]);
  const kept = new Set(channels.map((channel) => channel.channelId));
  const removed = selectAll(db, 'SELECT channel_id FROM relay_channels WHERE platform_id = ?', [platform.id])
    .map((row) => textColumn(row, 'channel_id'))
    .filter((id) => !kept.has(id));
  for (const id of removed) execute(db, 'DELETE FROM relay_channels WHERE channel_id = ?', [id]);
  channels.forEach((channel, position) => {
    execute(
      db,
      `INSERT INTO relay_channels (channel_id, platform_id, position, name, input, outputs, enabled, repack, alarms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET platform_id = excluded.platform_id, position = excluded.position, name = excluded.name, input = excluded.input,
         outputs = excluded.outputs, enabled = excluded.enabled, repack = excluded.repack, alarms = excluded.alarms`,
      [channel.channelId, platform.id, position, channel.name, channel.input, JSON.stringify(channel.outputs), channel.enabled ? 1 : 0, channel.repack ? 1 : 0, JSON.stringify(channel.alarms)],
    );
  });
  return removed;
}

/** Deletes a platform and its channels; false when there was none. */
export function deleteRelayPlatform(db: Database, id: string): boolean {
  execute(db, 'DELETE FROM relay_channels WHERE platform_id = ?', [id]);
  return execute(db, 'DELETE FROM relay_platforms WHERE id = ?', [id]) > 0;
}

export function getRelayChannel(db: Database, channelId: string): RelayChannelRow | null {
  const row = selectOne(db, 'SELECT * FROM relay_channels WHERE channel_id = ?', [channelId]);
  return row === undefined ? null : channelOf(row);
}

export function listRelayChannels(db: Database): RelayChannelRow[] {
  return selectAll(db, 'SELECT * FROM relay_channels ORDER BY platform_id, position').map(channelOf);
}

export function deleteRelayChannel(db: Database, channelId: string): boolean {
  return execute(db, 'DELETE FROM relay_channels WHERE channel_id = ?', [channelId]) > 0;
}

export interface RelayChannelRuntime {
  running?: boolean;
  state?: string;
  outputStates?: RelayOutputState[];
  error?: string | null;
}

/** Changes what the relay keeps about a channel; false when there is no such channel. */
export function setRelayChannelRuntime(db: Database, channelId: string, runtime: RelayChannelRuntime): boolean {
  const row = getRelayChannel(db, channelId);
  if (row === null) return false;
  execute(db, 'UPDATE relay_channels SET running = ?, state = ?, output_states = ?, error = ? WHERE channel_id = ?', [
    (runtime.running ?? row.running) ? 1 : 0,
    runtime.state ?? row.state,
    JSON.stringify(runtime.outputStates ?? row.outputStates),
    runtime.error === undefined ? row.error : runtime.error,
    channelId,
  ]);
  return true;
}

function withChannels(db: Database, platform: RelayPlatformRecord): RelayPlatformRow {
  const channels = selectAll(db, 'SELECT * FROM relay_channels WHERE platform_id = ? ORDER BY position', [platform.id]).map(channelOf);
  return { ...platform, channels };
}

function platformOf(row: SqlRow): RelayPlatformRecord {
  return { id: textColumn(row, 'id'), createdAt: textColumn(row, 'created_at'), name: textColumn(row, 'name'), description: textColumn(row, 'description') };
}

function channelOf(row: SqlRow): RelayChannelRow {
  return {
    channelId: textColumn(row, 'channel_id'),
    platformId: textColumn(row, 'platform_id'),
    name: textColumn(row, 'name'),
    input: textColumn(row, 'input'),
    outputs: jsonColumn<string[]>(row, 'outputs'),
    enabled: numberColumn(row, 'enabled') !== 0,
    repack: numberColumn(row, 'repack') !== 0,
    // A field added since the row was written takes its default.
    alarms: { ...NO_RELAY_ALARMS, ...jsonColumn<Partial<RelayChannelAlarms>>(row, 'alarms') },
    running: numberColumn(row, 'running') !== 0,
    state: textColumn(row, 'state'),
    outputStates: jsonColumn<RelayOutputState[]>(row, 'output_states'),
    error: optionalTextColumn(row, 'error'),
  };
}
