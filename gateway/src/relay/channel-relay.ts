/**
 * One running channel: its input (the UDP adapter: unicast, multicast, SSM,
 * interface, RTP unwrapped) passed on to each output as it arrives, the
 * datagrams unchanged or re-packed into 7 × 188 bytes. A silent input is
 * reported (no-signal) and the channel goes on listening, so it recovers by
 * itself when data returns; an input that cannot be opened or fails is
 * reported (error) once, opened again every `retryMs`, and reported again
 * only at growing intervals. An output that refuses its sends is reported
 * without touching the others; what each output's socket took is what its
 * bitrate counts.
 */
import { UdpDatagramSink, type LiveChunk, type LiveSource } from '@klvscope/adapters';
import type { RelayChannelAlarms, RelayChannelDefinition, RelayOutputState } from '@klvscope/core/store';
import type { BitrateMeter } from './bitrate-meter.js';
import { ChannelAlarms, type ActiveAlarm } from './channel-alarms.js';
import type { ChannelState, LogMessageType } from './channel-state.js';
import { LoopDetector } from './loop-detector.js';
import { TsRepacker } from './ts-repacker.js';

export const DEFAULT_INPUT_RETRY_MS = 2000;
/** A failing input is reported when it fails, then again after this, then at twice the previous interval, up to MAX_ERROR_REPEAT_MS. */
export const DEFAULT_ERROR_REPEAT_MS = 60_000;
const MAX_ERROR_REPEAT_MS = 3_600_000;
/** Re-packed bytes that wait this long with no input after them go out as a short datagram: the end of a feed is not kept back. */
const REPACK_IDLE_MS = 100;
/** How often silence is looked at. */
const WATCH_MS = 250;
/** A bitrate reading each second: its own timer, so that a reading spans one second and not up to 1.25. */
const READING_MS = 1000;
/** An output whose last refused send is this recent is in error. */
const OUTPUT_ERROR_HOLD_MS = 2000;

export interface ChannelEvents {
  /** The channel's state changed (with the error, for 'error'). */
  state(state: ChannelState, error: string | null): void;
  /** An event worth a log message. */
  log(type: LogMessageType, message: string): void;
  /** The channel stopped by itself (a loop): it is no longer asked to run. */
  halted(): void;
}

/** The input as the console shows it: since when the channel runs, who sends, how long ago, and what was lost on the way. */
export interface ChannelInputStats {
  /** When the channel started (its uptime's start), ISO 8601. */
  since: string;
  /** `ADDRESS:PORT` of the last datagram's sender, or null before the first. */
  sender: string | null;
  /** Milliseconds since the last datagram (or since the start, before the first). */
  silentMs: number;
  /** Since the input was last opened: datagrams and payload bytes received, RTP packets missing by their sequence numbers, datagrams the kernel dropped (receive buffer full) and those the relay could not queue. */
  datagrams: number;
  bytes: number;
  rtp: boolean;
  rtpLost: number;
  kernelDrops: number;
  applicationLoss: number;
}

export interface ChannelRelayOptions {
  openSource: (url: string) => Promise<LiveSource>;
  /** Silence longer than this is no signal. */
  noSignalMs: number;
  /** Where the channel's bytes are counted (kept by the service across stops). */
  meter: BitrateMeter;
  /** Told for each datagram passed on: when it arrived and when it was handed to the outputs (benchmarks). */
  onRelayed?: (receivedAt: number) => void;
  /** How often an input that cannot be opened is tried again (default 2 s). */
  retryMs?: number;
  /** The first interval before a failing input is reported again (default 60 s; it then doubles). */
  errorRepeatMs?: number;
}

export class ChannelRelay {
  state: ChannelState = 'stopped';
  error: string | null = null;
  readonly meter: BitrateMeter;
  private source: LiveSource | null = null;
  private sinks: (UdpDatagramSink | null)[] = [];
  private sinkErrors: (string | null)[] = [];
  private readonly taps = new Set<(chunk: LiveChunk) => void>();
  private stopped = true;
  private lastDataAt = 0;
  private startedAt = 0;
  private lastTickAt = 0;
  private watchTimer: NodeJS.Timeout | null = null;
  private readingTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> = Promise.resolve();
  private repacker: TsRepacker | null = null;
  private loops = new LoopDetector();
  private readonly alarms: ChannelAlarms;
  /** Each output's socket counters at the last reading. */
  private sinkCounts: { bytes: number; datagrams: number; refused: number }[] = [];
  /** The failing input's report: its message, when it began, attempts, and when it is reported again. */
  private failing: { message: string; since: number; attempts: number; nextReportAt: number; repeatMs: number } | null = null;

  constructor(
    readonly definition: RelayChannelDefinition,
    private readonly events: ChannelEvents,
    private readonly options: ChannelRelayOptions,
  ) {
    this.meter = options.meter;
    this.alarms = new ChannelAlarms(definition.channelId, definition.alarms, (type, message) => events.log(type, message));
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** Opens the outputs and the input, and relays until stop(). */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.setState('starting', null);
    this.sinks = [];
    this.sinkErrors = [];
    this.failing = null;
    this.repacker = this.definition.repack ? new TsRepacker() : null;
    this.loops = new LoopDetector();
    this.alarms.started();
    this.meter.restartInput();
    // Silence is judged from the start, not from the epoch.
    this.lastDataAt = this.startedAt = Date.now();
    for (const url of this.definition.outputs) {
      try {
        this.sinks.push(await UdpDatagramSink.open(url));
        this.sinkErrors.push(null);
      } catch (error) {
        this.sinks.push(null);
        this.sinkErrors.push((error as Error).message);
        this.events.log('error', `channel ${this.definition.channelId}: output ${url}: ${(error as Error).message}`);
      }
    }
    this.sinkCounts = this.sinks.map(() => ({ bytes: 0, datagrams: 0, refused: 0 }));
    this.lastTickAt = Date.now();
    this.watchTimer = setInterval(() => this.watch(), WATCH_MS);
    this.readingTimer = setInterval(() => this.read(), READING_MS);
    this.events.log('started', `channel ${this.definition.channelId} (${this.definition.name}) started: ${this.definition.input} -> ${this.definition.outputs.join(', ') || 'no output'}`);
    await this.openInput();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.watchTimer !== null) clearInterval(this.watchTimer);
    if (this.readingTimer !== null) clearInterval(this.readingTimer);
    this.readingTimer = null;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.watchTimer = this.retryTimer = null;
    await this.source?.close();
    await this.pumping;
    this.source = null;
    this.flushRepacker();
    await Promise.all(this.sinks.flatMap((sink) => (sink === null ? [] : [sink.close()])));
    this.sinks = [];
    this.alarms.clearAll('channel stopped');
    this.setState('stopped', null);
    this.events.log('stopped', `channel ${this.definition.channelId} (${this.definition.name}) stopped`);
  }

  /** Each datagram of the input, as it arrives, until the returned function is called (detect). */
  tap(listener: (chunk: LiveChunk) => void): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  /** The input's figures while the channel runs; null while it is stopped. */
  inputStats(): ChannelInputStats | null {
    if (this.stopped) return null;
    const stats = this.source?.stats();
    return {
      since: new Date(this.startedAt).toISOString(),
      sender: stats?.sender ?? null,
      silentMs: Math.max(0, Date.now() - this.lastDataAt),
      datagrams: stats?.chunks ?? 0,
      bytes: stats?.bytes ?? 0,
      rtp: stats?.rtp ?? false,
      rtpLost: stats?.rtpLost ?? 0,
      kernelDrops: stats?.socketDrops ?? 0,
      applicationLoss: stats?.applicationLoss ?? 0,
    };
  }

  /** The alarms raised now (none while stopped). */
  activeAlarms(): ActiveAlarm[] {
    return this.alarms.active();
  }

  /** New alarm limits, taken without stopping the channel. */
  setAlarms(limits: RelayChannelAlarms): void {
    this.definition.alarms = limits;
    this.alarms.setLimits(limits);
  }

  outputStates(): RelayOutputState[] {
    const now = Date.now();
    return this.definition.outputs.map((url, i) => {
      const sink = this.sinks[i];
      const error = this.sinkErrors[i] ?? (sink?.lastError != null && now - (sink.lastErrorAt ?? 0) < OUTPUT_ERROR_HOLD_MS ? sink.lastError : null);
      const state = error !== null ? 'error' : this.stopped || sink == null ? 'idle' : 'sending';
      return { url, state, error };
    });
  }

  private async openInput(): Promise<void> {
    let source: LiveSource;
    try {
      source = await this.options.openSource(this.definition.input);
    } catch (error) {
      this.fail((error as Error).message);
      return;
    }
    if (this.stopped) {
      await source.close();
      return;
    }
    this.source = source;
    this.lastDataAt = Date.now();
    if (this.failing !== null) this.events.log('signal-back', `channel ${this.definition.channelId}: input ${this.definition.input} opened after ${this.failing.attempts} failed attempts`);
    this.failing = null;
    // Listening: the channel runs; silence is judged from now.
    this.setState('running', null);
    this.pumping = this.pump(source);
  }

  private async pump(source: LiveSource): Promise<void> {
    const { meter, taps, repacker, loops } = this;
    const onRelayed = this.options.onRelayed;
    try {
      for await (const chunk of source) {
        const bytes = chunk.bytes;
        meter.input(bytes);
        if (loops.received(bytes, chunk.receivedAt)) {
          this.haltOnLoop();
          break;
        }
        this.lastDataAt = Date.now();
        if (this.state === 'no-signal') {
          this.setState('running', null);
          this.events.log('signal-back', `channel ${this.definition.channelId}: input ${this.definition.input} receives again`);
        }
        const datagrams = repacker === null ? [bytes] : repacker.push(bytes);
        for (const datagram of datagrams) this.send(datagram, chunk.receivedAt);
        onRelayed?.(chunk.receivedAt);
        for (const tap of taps) tap(chunk);
      }
    } catch (error) {
      if (!this.stopped) this.fail((error as Error).message);
    }
  }

  /** Hands a datagram to every output that is open; what each took is counted from its socket at the next reading. */
  private send(datagram: Uint8Array, receivedAt: number): void {
    this.loops.sent(datagram, receivedAt);
    for (const sink of this.sinks) sink?.send(datagram);
  }

  /** Its datagrams come back to its input: relaying would only feed the storm. Stopped, in error, with a log message. */
  private haltOnLoop(): void {
    const message = `loop: the datagrams it sends come back to its input ${this.definition.input}; stopped (change its outputs, then start it)`;
    // After the pump returns: stop() waits for it.
    void (async () => {
      await this.stop();
      this.setState('error', message);
      this.events.log('error', `channel ${this.definition.channelId}: ${message}`);
      this.events.halted();
    })();
  }

  private flushRepacker(): void {
    const rest = this.repacker?.flush() ?? null;
    if (rest !== null) this.send(rest, Date.now());
  }

  private fail(message: string): void {
    this.source = null;
    this.setState('error', message);
    const retryMs = this.options.retryMs ?? DEFAULT_INPUT_RETRY_MS;
    const now = Date.now();
    const failing = this.failing;
    if (failing === null || failing.message !== message) {
      // A new failure (or another reason) is reported at once; the same one again only at growing intervals.
      const repeatMs = this.options.errorRepeatMs ?? DEFAULT_ERROR_REPEAT_MS;
      this.failing = { message, since: now, attempts: 1, nextReportAt: now + repeatMs, repeatMs };
      this.events.log('error', `channel ${this.definition.channelId}: input ${this.definition.input}: ${message} (trying again every ${retryMs / 1000} s)`);
    } else {
      failing.attempts++;
      if (now >= failing.nextReportAt) {
        failing.repeatMs = Math.min(failing.repeatMs * 2, MAX_ERROR_REPEAT_MS);
        failing.nextReportAt = now + failing.repeatMs;
        this.events.log('error', `channel ${this.definition.channelId}: input ${this.definition.input}: ${message} (still, for ${((now - failing.since) / 1000).toFixed(0)} s and ${failing.attempts} attempts; trying again every ${retryMs / 1000} s)`);
      }
    }
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) void this.openInput();
    }, retryMs);
  }

  private read(): void {
    const now = Date.now();
    this.sinks.forEach((sink, i) => {
      if (sink === null) return;
      const last = this.sinkCounts[i];
      const bytes = sink.bytes - last.bytes;
      const datagrams = sink.datagrams - last.datagrams;
      const refused = sink.sendErrors - last.refused;
      // A refusal (ICMP port unreachable, reported on the connected socket) names no datagram: it takes back one of the mean size.
      const delivered = datagrams === 0 ? 0 : Math.max(0, bytes - refused * (bytes / datagrams));
      this.meter.output(i, delivered, datagrams, refused);
      this.sinkCounts[i] = { bytes: sink.bytes, datagrams: sink.datagrams, refused: sink.sendErrors };
    });
    this.meter.tick(now, now - this.lastTickAt);
    this.lastTickAt = now;
    const latest = this.meter.latest;
    if (latest !== null) this.alarms.reading(latest.reading.inputBitrate, latest.pids, now);
    this.loops.reading();
  }

  private watch(): void {
    const now = Date.now();
    if (now - this.lastDataAt >= REPACK_IDLE_MS) this.flushRepacker();
    this.alarms.silence(now - this.lastDataAt, now);
    if (this.state === 'running' && now - this.lastDataAt > this.options.noSignalMs) {
      this.setState('no-signal', null);
      this.events.log('no-signal', `channel ${this.definition.channelId}: no data on ${this.definition.input} for ${((now - this.lastDataAt) / 1000).toFixed(1)} s`);
    }
  }

  private setState(state: ChannelState, error: string | null): void {
    if (state === this.state && error === this.error) return;
    this.state = state;
    this.error = error;
    this.events.state(state, error);
  }
}
