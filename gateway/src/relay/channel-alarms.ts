/**
 * A channel's alarms, TSDuck bitrate_monitor's core: the input's bitrate
 * (and each PID's) against a minimum and a maximum, and the input's silence
 * against a maximum. Judged at each one-second reading, as the mean of the
 * last `windowSeconds` readings (silence at each look, four a second); an alarm is raised with a log message of type
 * `alarm` the first time a limit is crossed, stays while it is, and clears
 * with an `alarm-cleared` message at the first reading back within it. The
 * first reading after a start covers part of a second and is not judged.
 */
import type { RelayChannelAlarms } from '@klvscope/core/store';
import { formatBitrate } from '../cli/inventory-text.js';
import type { PidBitrate } from './bitrate-meter.js';
import type { LogMessageType } from './channel-state.js';

export type AlarmKind = 'bitrate-low' | 'bitrate-high' | 'silence';

export interface ActiveAlarm {
  kind: AlarmKind;
  /** The PID whose bitrate crossed its limit; null for the channel's input as a whole. */
  pid: number | null;
  /** The limit crossed: bits per second, or milliseconds for silence. */
  limit: number;
  /** The latest value judged: bits per second, or milliseconds of silence (`message` says it). */
  value: number;
  /** When it was raised (ISO 8601). */
  since: string;
  message: string;
}

interface Judged {
  kind: AlarmKind;
  pid: number | null;
  limit: number;
  value: number;
  crossed: boolean;
}

const hexPid = (pid: number): string => `PID 0x${pid.toString(16).toUpperCase().padStart(4, '0')}`;

export class ChannelAlarms {
  private readonly raised = new Map<string, ActiveAlarm>();
  private readingsSinceStart = 0;
  /** The last `windowSeconds` readings judged, oldest first: the input's bitrate and each PID's. */
  private recent: Array<{ input: number; pids: ReadonlyMap<number, number> }> = [];

  constructor(
    private readonly channelId: string,
    private limits: RelayChannelAlarms,
    private readonly log: (type: LogMessageType, message: string) => void,
  ) {}

  /** The alarms raised now, the input's first, then by PID. */
  active(): ActiveAlarm[] {
    return [...this.raised.values()].sort((a, b) => (a.pid ?? -1) - (b.pid ?? -1) || a.kind.localeCompare(b.kind));
  }

  /** New limits (a PUT or PATCH of the running channel): an alarm whose limit is gone clears now; the others are judged at the next reading. */
  setLimits(limits: RelayChannelAlarms): void {
    this.limits = limits;
    for (const [key, alarm] of this.raised) {
      if (this.limitOf(alarm.kind, alarm.pid) === null) this.clear(key, alarm, `its limit was removed`);
    }
  }

  /** The channel (re)started: its first reading is a part of a second, and the window starts again. */
  started(): void {
    this.readingsSinceStart = 0;
    this.recent = [];
  }

  /** One second's reading of the input and its PIDs. */
  reading(inputBitrate: number, pids: readonly Pick<PidBitrate, 'pid' | 'bitrate'>[], nowMs: number): void {
    if (++this.readingsSinceStart === 1) return;
    this.recent.push({ input: inputBitrate, pids: new Map(pids.map((p) => [p.pid, p.bitrate])) });
    if (this.recent.length > this.limits.windowSeconds) this.recent.splice(0, this.recent.length - this.limits.windowSeconds);
    // The mean of the window (fewer readings just after a start); a PID absent from a second carried nothing: 0 b/s.
    const mean = (of: (r: (typeof this.recent)[number]) => number): number => Math.round(this.recent.reduce((sum, r) => sum + of(r), 0) / this.recent.length);
    const input = mean((r) => r.input);
    const { minBitrate, maxBitrate } = this.limits;
    const judged: Judged[] = [];
    if (minBitrate !== null) judged.push({ kind: 'bitrate-low', pid: null, limit: minBitrate, value: input, crossed: input < minBitrate });
    if (maxBitrate !== null) judged.push({ kind: 'bitrate-high', pid: null, limit: maxBitrate, value: input, crossed: input > maxBitrate });
    for (const limits of this.limits.pids) {
      const value = mean((r) => r.pids.get(limits.pid) ?? 0);
      if (limits.minBitrate !== null) judged.push({ kind: 'bitrate-low', pid: limits.pid, limit: limits.minBitrate, value, crossed: value < limits.minBitrate });
      if (limits.maxBitrate !== null) judged.push({ kind: 'bitrate-high', pid: limits.pid, limit: limits.maxBitrate, value, crossed: value > limits.maxBitrate });
    }
    for (const j of judged) this.judge(j, nowMs);
  }

  /** How long the input has been silent, looked at several times a second. */
  silence(silentMs: number, nowMs: number): void {
    const limit = this.limits.maxSilenceMs;
    if (limit === null) return;
    this.judge({ kind: 'silence', pid: null, limit, value: Math.round(silentMs), crossed: silentMs > limit }, nowMs);
  }

  /** The channel stopped: what was raised clears, saying why. */
  clearAll(reason: string): void {
    for (const [key, alarm] of this.raised) this.clear(key, alarm, reason);
  }

  private judge(j: Judged, nowMs: number): void {
    const key = `${j.kind} ${j.pid ?? 'input'}`;
    const alarm = this.raised.get(key);
    if (j.crossed && alarm === undefined) {
      const message = `${this.subject(j)}: ${this.crossing(j)}`;
      this.raised.set(key, { kind: j.kind, pid: j.pid, limit: j.limit, value: j.value, since: new Date(nowMs).toISOString(), message });
      this.log('alarm', `channel ${this.channelId}: alarm: ${message}`);
    } else if (j.crossed && alarm !== undefined) {
      // Shown with the latest value; the log message keeps the one that raised it.
      alarm.value = j.value;
      alarm.limit = j.limit;
      alarm.message = `${this.subject(j)}: ${this.crossing(j)}`;
    } else if (!j.crossed && alarm !== undefined) {
      const lasted = ((nowMs - Date.parse(alarm.since)) / 1000).toFixed(0);
      this.clear(key, alarm, `${this.back(j)} after ${lasted} s`);
    }
  }

  private clear(key: string, alarm: ActiveAlarm, why: string): void {
    this.raised.delete(key);
    this.log('alarm-cleared', `channel ${this.channelId}: alarm cleared: ${this.subject(alarm)} (${why})`);
  }

  private limitOf(kind: AlarmKind, pid: number | null): number | null {
    if (kind === 'silence') return this.limits.maxSilenceMs;
    const limits = pid === null ? this.limits : this.limits.pids.find((p) => p.pid === pid);
    if (limits === undefined) return null;
    return kind === 'bitrate-low' ? limits.minBitrate : limits.maxBitrate;
  }

  private subject(a: { kind: AlarmKind; pid: number | null }): string {
    if (a.kind === 'silence') return 'input silent';
    const window = this.limits.windowSeconds > 1 ? ` (mean of ${this.limits.windowSeconds} s)` : '';
    return `${a.pid === null ? 'input' : hexPid(a.pid)} bitrate${window} ${a.kind === 'bitrate-low' ? 'below its minimum' : 'above its maximum'}`;
  }

  private crossing(j: Judged): string {
    if (j.kind === 'silence') return `no datagram for ${(j.value / 1000).toFixed(1)} s (maximum ${(j.limit / 1000).toFixed(1)} s)`;
    return `${formatBitrate(j.value)} (${j.kind === 'bitrate-low' ? 'minimum' : 'maximum'} ${formatBitrate(j.limit)})`;
  }

  private back(j: Judged): string {
    if (j.kind === 'silence') return 'datagrams arrive again';
    return `${formatBitrate(j.value)}, back within ${formatBitrate(j.limit)}`;
  }
}
