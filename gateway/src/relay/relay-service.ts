/**
 * The relay's runtime over its database: the channels that run, their
 * commands (start, stop), the log messages of their events, the server
 * status records, and the state kept on each channel's row so that a
 * restart starts again what was running. Saves are atomic
 * (core's DatabaseFile); changes by events are saved within SAVE_DELAY_MS,
 * changes by requests before the answer. A request's change is all or
 * nothing (changeOrRollBack): one that fails, its save included, leaves
 * the database and the running channels as they were.
 */
import type { LiveSource } from '@klvscope/adapters';
import { RELAY_LOG_MESSAGES, RELAY_SERVER_STATUS, deleteRelayChannel, getRelayChannel, getRelayPlatform, insertRelayRecord, listRelayChannels, trimRelayRecords, setRelayChannelRuntime, type RelayChannelDefinition, type RelayChannelRow, type RelayDatabase, type RelayOutputState, type SqlDatabase } from '@klvscope/core/store';
import { BitrateMeter } from './bitrate-meter.js';
import { ChannelRelay, type ChannelEvents } from './channel-relay.js';
import type { LogMessageType, ServerState } from './channel-state.js';
import { RelayError } from './relay-error.js';

const SAVE_DELAY_MS = 200;

export interface RelayServiceOptions {
  database: RelayDatabase;
  openSource: (url: string) => Promise<LiveSource>;
  noSignalMs: number;
  onRelayed?: (receivedAt: number) => void;
  /** An input that cannot be opened is tried again this often (default 2 s). */
  inputRetryMs?: number;
  /** A failing input is reported again after this, then at doubling intervals (default 60 s). */
  errorRepeatMs?: number;
  /** Log messages kept: at most this many (default 10 000) ... */
  logMaxMessages?: number;
  /** ... and none older than this (default 30 days). */
  logMaxAgeMs?: number;
}

export const DEFAULT_LOG_MAX_MESSAGES = 10_000;
export const DEFAULT_LOG_MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/** A channel as the API shows it: its definition, then what the relay keeps. */
export interface ChannelView extends RelayChannelDefinition {
  state: string;
  outputState: RelayOutputState[];
  error: string | null;
}

export class RelayService {
  readonly runtimes = new Map<string, ChannelRelay>();
  /** Each channel's bitrate readings, kept across stops (cleared by clearBitrateArray or deletion). */
  private readonly meters = new Map<string, BitrateMeter>();
  private saveTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Requests' changes run one after another: undoing one must not undo another's. */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: RelayServiceOptions) {}

  get db(): SqlDatabase {
    return this.options.database.file.db;
  }

  /** Writes the database now (atomically); a pending delayed save is folded in. */
  async save(): Promise<void> {
    if (this.saveTimer !== null) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.options.database.file.saveIfChanged();
  }

  /**
   * Runs a request's change (which saves before it returns). When it throws
   * (a save refused for a full disk: 503 ERR_STORE_DISK_FULL), the database
   * goes back to what it was before, and the channels run as it says, so a
   * client that repeats the request once there is space makes its change
   * once (issue 35). Events' changes (log messages, states) made while the
   * change ran go back with it.
   */
  changeOrRollBack<T>(change: () => Promise<T>): Promise<T> {
    const run = this.changes.then(async () => {
      const before = this.options.database.file.snapshot();
      try {
        return await change();
      } catch (error) {
        if (this.options.database.file.restore(before)) {
          await this.runAsRecorded();
          this.saveSoon();
        }
        throw error;
      }
    });
    this.changes = run.catch(() => undefined);
    return run;
  }

  /** After a roll-back: runtimes of channels gone, stopped or redefined stop; channels recorded as running run. */
  private async runAsRecorded(): Promise<void> {
    for (const [channelId, runtime] of [...this.runtimes]) {
      const row = getRelayChannel(this.db, channelId);
      if (row === null || (runtime.running && !row.running) || !sameDefinition(runtime.definition, row)) {
        await runtime.stop();
        this.runtimes.delete(channelId);
      }
    }
    for (const row of listRelayChannels(this.db)) {
      if (row.running && row.enabled && !this.runtimes.has(row.channelId)) await this.startRuntime(row);
    }
  }

  private saveSoon(): void {
    if (this.saveTimer !== null || this.closed) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.options.database.file.saveIfChanged().catch((error: unknown) => console.error('klvscope relay: cannot save its database:', error));
    }, SAVE_DELAY_MS);
  }

  log(type: LogMessageType, message: string): void {
    if (this.closed) return;
    insertRelayRecord(this.db, RELAY_LOG_MESSAGES, { time: new Date().toISOString(), type, message });
    this.trimLog();
    this.saveSoon();
  }

  /** Keeps the log under its retention: the newest logMaxMessages, none older than logMaxAgeMs. */
  trimLog(): void {
    const maxAgeMs = this.options.logMaxAgeMs ?? DEFAULT_LOG_MAX_AGE_MS;
    trimRelayRecords(this.db, RELAY_LOG_MESSAGES, this.options.logMaxMessages ?? DEFAULT_LOG_MAX_MESSAGES, new Date(Date.now() - maxAgeMs).toISOString());
  }

  recordServerStatus(state: ServerState, errorMessage = ''): void {
    insertRelayRecord(this.db, RELAY_SERVER_STATUS, { startedAt: new Date().toISOString(), state, errorMessage });
    this.saveSoon();
  }

  /** At start: rows left running by the last process read as stopped; those asked to run (and enabled) start again. */
  async resume(): Promise<string[]> {
    const channels = listRelayChannels(this.db);
    for (const channel of channels) setRelayChannelRuntime(this.db, channel.channelId, { state: 'stopped', error: null, outputStates: [] });
    const resumed = channels.filter((c) => c.running && c.enabled).map((c) => c.channelId);
    for (const id of resumed) await this.startChannel(id);
    await this.save();
    return resumed;
  }

  channelRow(channelId: string): RelayChannelRow {
    const row = getRelayChannel(this.db, channelId);
    if (row === null) throw new RelayError('ERR_CHANNEL_NOT_FOUND', `no channel '${channelId}'`, { channelId });
    return row;
  }

  view(row: RelayChannelRow): ChannelView {
    const runtime = this.runtimes.get(row.channelId);
    const { channelId, name, input, outputs, enabled, repack, alarms } = row;
    const state = runtime?.state ?? row.state;
    const outputState = runtime?.outputStates() ?? (row.outputStates.length > 0 ? row.outputStates : outputs.map((url) => ({ url, state: 'idle', error: null })));
    return { channelId, name, input, outputs, enabled, repack, alarms, state, outputState, error: runtime === undefined ? row.error : runtime.error };
  }

  async startChannel(channelId: string): Promise<ChannelView> {
    const row = this.channelRow(channelId);
    const halted = this.runtimes.get(channelId);
    // A channel that stopped by itself (a loop) starts again on a command, with its definition as it is now.
    if (halted !== undefined && !halted.running) this.runtimes.delete(channelId);
    if (!this.runtimes.has(channelId)) await this.startRuntime(row);
    await this.save();
    return this.view(this.channelRow(channelId));
  }

  private async startRuntime(row: RelayChannelRow): Promise<void> {
    const { channelId } = row;
    let meter = this.meters.get(channelId);
    if (meter === undefined || meter.outputCount !== row.outputs.length) this.meters.set(channelId, (meter = new BitrateMeter(row.outputs.length)));
    const runtime = new ChannelRelay(row, this.eventsOf(channelId), {
      openSource: this.options.openSource,
      noSignalMs: this.options.noSignalMs,
      onRelayed: this.options.onRelayed,
      meter,
      retryMs: this.options.inputRetryMs,
      errorRepeatMs: this.options.errorRepeatMs,
    });
    this.runtimes.set(channelId, runtime);
    setRelayChannelRuntime(this.db, channelId, { running: true });
    await runtime.start();
  }

  async stopChannel(channelId: string): Promise<ChannelView> {
    this.channelRow(channelId);
    await this.stopRuntime(channelId);
    setRelayChannelRuntime(this.db, channelId, { running: false });
    await this.save();
    return this.view(this.channelRow(channelId));
  }

  private async stopRuntime(channelId: string): Promise<void> {
    const runtime = this.runtimes.get(channelId);
    if (runtime === undefined) return;
    await runtime.stop();
    this.runtimes.delete(channelId);
    // After stop(): its last state change is written before the row is read again.
    setRelayChannelRuntime(this.db, channelId, { outputStates: runtime.outputStates() });
  }

  meterOf(channelId: string): BitrateMeter | null {
    return this.meters.get(channelId) ?? null;
  }

  /** The meter of a channel, made when it has none (for readings given from outside). */
  meterFor(row: RelayChannelRow): BitrateMeter {
    let meter = this.meters.get(row.channelId);
    if (meter === undefined) this.meters.set(row.channelId, (meter = new BitrateMeter(row.outputs.length)));
    return meter;
  }

  async platformCommand(platformId: string, command: 'start' | 'stop'): Promise<ChannelView[]> {
    const platform = getRelayPlatform(this.db, platformId);
    if (platform === null) throw new RelayError('ERR_PLATFORM_NOT_FOUND', `no platform '${platformId}'`, { id: platformId });
    const views: ChannelView[] = [];
    for (const channel of platform.channels) {
      // A platform starts its enabled channels; a disabled one starts only by its own command.
      if (command === 'start' && !channel.enabled) views.push(this.view(channel));
      else views.push(command === 'start' ? await this.startChannel(channel.channelId) : await this.stopChannel(channel.channelId));
    }
    return views;
  }

  /** After a platform's channels changed: removed ones stop, running ones whose definition changed start again with the new one. */
  async channelsChanged(removed: readonly string[], platformId: string): Promise<void> {
    for (const id of removed) {
      await this.stopRuntime(id);
      this.meters.delete(id);
    }
    const platform = getRelayPlatform(this.db, platformId);
    for (const channel of platform?.channels ?? []) {
      const runtime = this.runtimes.get(channel.channelId);
      if (runtime === undefined) continue;
      if (sameDefinition(runtime.definition, channel)) {
        // Limits change without a restart: relaying goes on untouched.
        if (JSON.stringify(runtime.definition.alarms) !== JSON.stringify(channel.alarms)) runtime.setAlarms(channel.alarms);
        continue;
      }
      await this.stopRuntime(channel.channelId);
      await this.startChannel(channel.channelId);
    }
  }

  /** Stops a channel and deletes it with its readings. */
  async deleteChannels(channelIds: readonly string[]): Promise<void> {
    for (const id of channelIds) {
      await this.stopRuntime(id);
      deleteRelayChannel(this.db, id);
      this.meters.delete(id);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Stopped by the server's end, not by a user: the rows keep `running`, so a restart starts them again.
    for (const id of [...this.runtimes.keys()]) await this.stopRuntime(id);
    this.recordServerStatus('stopped');
    this.closed = true;
    await this.save();
  }

  private eventsOf(channelId: string): ChannelEvents {
    return {
      halted: () => {
        if (this.closed) return;
        setRelayChannelRuntime(this.db, channelId, { running: false });
        this.saveSoon();
      },
      state: (state, error) => {
        if (this.closed) return;
        setRelayChannelRuntime(this.db, channelId, { state, error });
        this.saveSoon();
      },
      log: (type, message) => this.log(type, message),
    };
  }
}

function sameDefinition(a: RelayChannelDefinition, b: RelayChannelDefinition): boolean {
  return a.input === b.input && a.repack === b.repack && a.outputs.join('\n') === b.outputs.join('\n');
}
