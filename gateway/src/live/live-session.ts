/**
 * One live inspection: a live source (UDP, multicast, serial) through the
 * demuxer into the same checks a file goes through, run incrementally. Each
 * violation is published the moment the check emits it, stamped with the
 * arrival time of the bytes that revealed it; repeats of a kind within a
 * second are folded into one record with their count (finding-coalescer.ts);
 * decoded metadata packets and statistics (every second) are published
 * beside the findings. Memory is bounded: the checks keep no points (a sink
 * takes them), the three event logs keep only their latest events, and the
 * records not yet in the database are handed over once there are
 * UNSAVED_RECORDS_LIMIT of them (the session's counters count everything).
 *
 * A feed that goes silent for IDLE_FLUSH_MS has what the demuxer holds for
 * later bytes passed on (observations after the last PCR, timed by the last
 * byte rate), so its last findings come with their own arrival time and its
 * last KLV packets count in their own second, not at Stop.
 *
 * The source's own troubles are findings too, under LIVE_SOURCE_CHECK_ID:
 * datagrams lost (in the application, RTP gaps, socket drops), serial
 * noise, and silence longer than `noDataSeconds` (the session keeps waiting
 * rather than hanging without a word).
 */
import { CheckSession, KlvStreamDemuxer, createKlvAwareTsDemuxer, type AnyCheck, type Demuxer, type Observation, type Point, type Severity } from '@klvscope/core';
import { epochNow, type LiveSource, type LiveSourceEvent } from '@klvscope/adapters';
import { FindingCoalescer, type CoalescedFinding } from './finding-coalescer.js';
import { LiveEventLog } from './live-event-log.js';
import {
  LIVE_SOURCE_CHECK_ID,
  type LiveFinding,
  type LiveMetadataPacket,
  type LiveSessionState,
  type LiveSessionStatus,
  type LiveStatistics,
} from './live-records.js';
import { PidRateMeter } from './pid-rate-meter.js';

/** Silence after which the session passes on what it holds waiting for more bytes (docs/live.md). */
export const IDLE_FLUSH_MS = 200;

/** How often the session publishes its statistics. */
const STATISTICS_INTERVAL_MS = 1_000;

/** Events kept for followers that reconnect (the database keeps more findings). */
const LIVE_LOG_CAPACITY = { findings: 10_000, metadata: 1_000, statistics: 600 } as const;

/** Records and packets held for the database before the session asks for them to be written (`onUnsaved`). */
const UNSAVED_RECORDS_LIMIT = 2_000;

export interface LiveSessionOptions {
  id: string;
  source: LiveSource;
  checks: readonly AnyCheck[];
  /** Rule slices by check id (the service's current rule set). */
  rules: Readonly<Record<string, unknown>>;
  /** Silence longer than this is reported (status 'no-data' and a finding). */
  noDataSeconds: number;
  /** Told when the status changes (to persist it). */
  onStatus?: (session: LiveSession) => void;
  /** Told when UNSAVED_RECORDS_LIMIT records or packets wait for the database (to write them before the next save). */
  onUnsaved?: (session: LiveSession) => void;
}

const SOURCE_EVENT_SEVERITY: Record<LiveSourceEvent['kind'], Severity> = {
  'application-loss': 'error',
  'rtp-gap': 'error',
  'socket-drops': 'error',
  noise: 'warning',
};

const SOURCE_EVENT_UNIT: Record<LiveSourceEvent['kind'], string> = {
  'application-loss': 'datagrams',
  'rtp-gap': 'packets',
  'socket-drops': 'datagrams',
  noise: 'bytes',
};

export class LiveSession {
  readonly id: string;
  readonly findings = new LiveEventLog<LiveFinding>(LIVE_LOG_CAPACITY.findings);
  readonly metadata = new LiveEventLog<LiveMetadataPacket>(LIVE_LOG_CAPACITY.metadata);
  readonly statistics = new LiveEventLog<LiveStatistics>(LIVE_LOG_CAPACITY.statistics);
  /** Resolves when the session has ended (stopped, replaced or failed) and its last findings are published. */
  readonly ended: Promise<void>;

  private readonly source: LiveSource;
  private readonly createdAt: number;
  private readonly checkSession: CheckSession;
  private readonly demuxer: Demuxer;
  /** TS sources only: raw KLV has no TS packets, and a 0x47 inside a KLV value would pass for a sync byte. */
  private readonly meter: PidRateMeter | null;
  /** Findings (occurrences) in all, by severity and by check; the records are the findings log's sequence numbers. */
  private readonly findingCounts: Pick<LiveSessionState['counts'], 'findings' | 'bySeverity' | 'byCheck'> = { findings: 0, bySeverity: {}, byCheck: {} };
  private readonly coalescer = new FindingCoalescer((finding) => this.publishRecord(finding));
  private statusValue: LiveSessionStatus = 'waiting';
  private error: string | null = null;
  private stoppedAt: number | null = null;
  private endStatus: LiveSessionStatus | null = null;
  /** Arrival time of the chunk being demultiplexed: what the findings it reveals are stamped with. */
  private arrival: number | null = null;
  private continuityErrors = 0;
  private klvPackets = 0;
  private lastReadingAt: number;
  /** The source's byte count at the last reading. */
  private lastReadingBytes = 0;
  private silentSince: number;
  private readonly timer: NodeJS.Timeout;
  /** Armed again by each chunk: fires once the feed has been silent for IDLE_FLUSH_MS. */
  private readonly idleTimer: NodeJS.Timeout;
  /** Findings and packets not yet written to the database (taken by `takeUnsaved`). */
  private unsavedFindings: LiveFinding[] = [];
  private unsavedMetadata: LiveMetadataPacket[] = [];

  constructor(private readonly options: LiveSessionOptions) {
    this.id = options.id;
    this.source = options.source;
    this.createdAt = epochNow();
    this.lastReadingAt = this.createdAt;
    this.silentSince = this.createdAt;
    this.checkSession = new CheckSession(options.checks, {
      rules: options.rules,
      keepPoints: false,
      pointSinks: [(point, checkId) => point.violation && this.publishFinding(checkId, point)],
    });
    const sink = (observation: Observation): void => {
      if (observation.kind === 'metadata-packet') this.publishMetadata(observation);
      else if (observation.kind === 'ts-error' && observation.type === 'continuity-error') this.continuityErrors++;
      this.checkSession.observe(observation);
    };
    // The kinds the sink above reads besides the checks'. KLV packets are counted as they are framed, on
    // arrival: their observations may wait for the next PCR (half a second apart in some feeds), and
    // counted then they came in batches (16 or 32 a second for a 29.4 Hz source).
    const made = { ...this.checkSession.demuxerOptions(['metadata-packet', 'ts-error']), onKlvPacket: () => this.klvPackets++ };
    this.demuxer = this.source.format === 'klv' ? new KlvStreamDemuxer(sink, made) : createKlvAwareTsDemuxer(sink, made);
    this.meter = this.source.format === 'ts' ? new PidRateMeter() : null;
    this.source.onEvent = (event) => this.publishSourceEvent(event);
    this.timer = setInterval(() => this.tick(), STATISTICS_INTERVAL_MS);
    this.timer.unref();
    this.idleTimer = setTimeout(() => this.flushIdle(), IDLE_FLUSH_MS);
    this.idleTimer.unref();
    this.ended = this.run();
  }

  get status(): LiveSessionStatus {
    return this.statusValue;
  }

  get isActive(): boolean {
    return this.stoppedAt === null;
  }

  /** Ends the session: the source closes, the checks finish (their last findings are published), the logs close. */
  async stop(status: 'stopped' | 'replaced' | 'interrupted' = 'stopped'): Promise<void> {
    this.endStatus ??= status;
    await this.source.close();
    await this.ended;
  }

  state(): LiveSessionState {
    return {
      sessionId: this.id,
      kind: 'live',
      status: this.statusValue,
      source: this.source.url,
      format: this.source.format,
      checks: this.options.checks.map((check) => check.id),
      createdAt: new Date(this.createdAt).toISOString(),
      updatedAt: new Date(epochNow()).toISOString(),
      stoppedAt: this.stoppedAt === null ? null : new Date(this.stoppedAt).toISOString(),
      error: this.error,
      counts: { ...structuredClone(this.findingCounts), records: this.findings.last, metadataPackets: this.metadata.last },
      received: this.source.stats(),
      statistics: this.statistics.latest(),
    };
  }

  /** What was published since the last call, for the database. */
  takeUnsaved(): { findings: LiveFinding[]; metadata: LiveMetadataPacket[] } {
    const taken = { findings: this.unsavedFindings, metadata: this.unsavedMetadata };
    this.unsavedFindings = [];
    this.unsavedMetadata = [];
    return taken;
  }

  private async run(): Promise<void> {
    try {
      for await (const chunk of this.source) {
        this.arrival = chunk.receivedAt;
        this.coalescer.closePast(chunk.receivedAt);
        if (this.statusValue !== 'receiving') this.setStatus('receiving');
        this.meter?.push(chunk.bytes);
        this.demuxer.push(chunk.bytes);
        this.checkSession.throwIfSinkFailed();
        this.idleTimer.refresh();
      }
      this.arrival = null;
      this.demuxer.end();
      this.checkSession.finish();
      this.coalescer.close();
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      this.endStatus = 'failed';
      await this.source.close();
    } finally {
      clearInterval(this.timer);
      clearTimeout(this.idleTimer);
      this.stoppedAt = epochNow();
      this.takeReading();
      this.findings.close();
      this.metadata.close();
      this.statistics.close();
      this.setStatus(this.endStatus ?? 'stopped');
    }
  }

  private publishFinding(checkId: string, point: Point): void {
    const counts = this.findingCounts;
    counts.findings++;
    counts.bySeverity[point.severity] = (counts.bySeverity[point.severity] ?? 0) + 1;
    counts.byCheck[checkId] = (counts.byCheck[checkId] ?? 0) + 1;
    this.coalescer.add(checkId, point, this.arrival ?? epochNow(), this.arrival);
  }

  private publishRecord({ checkId, point, ...record }: CoalescedFinding): number {
    const finding = this.findings.append((seq) => ({ ...point, seq, sessionId: this.id, checkId, ...record, emittedAt: epochNow() }));
    this.unsavedFindings.push(finding);
    this.unsavedGrew();
    return finding.seq;
  }

  private unsavedGrew(): void {
    if (this.unsavedFindings.length + this.unsavedMetadata.length >= UNSAVED_RECORDS_LIMIT) this.options.onUnsaved?.(this);
  }

  private publishMetadata(observation: Observation & { kind: 'metadata-packet' }): void {
    const { kind: _kind, ...packet } = observation;
    const published = this.metadata.append((seq) => ({ ...packet, seq, sessionId: this.id, receivedAt: this.arrival }));
    this.unsavedMetadata.push(published);
    this.unsavedGrew();
  }

  private publishSourceEvent(event: LiveSourceEvent): void {
    if (this.findings.isClosed) return;
    this.publishFinding(LIVE_SOURCE_CHECK_ID, {
      t: null,
      offset: event.offset,
      packetIndex: -1,
      pid: -1,
      value: event.count,
      unit: SOURCE_EVENT_UNIT[event.kind],
      violation: true,
      severity: SOURCE_EVENT_SEVERITY[event.kind],
      message: event.message,
      citation: null,
      type: event.kind,
    });
  }

  /** The feed has been silent for IDLE_FLUSH_MS: what was received is passed on, stamped with the arrival of the last bytes. */
  private flushIdle(): void {
    if (this.stoppedAt !== null) return;
    try {
      this.demuxer.flush?.();
      this.checkSession.throwIfSinkFailed();
    } catch (error) {
      // A sink that failed here fails the session as it would on the next chunk.
      this.error = error instanceof Error ? error.message : String(error);
      this.endStatus = 'failed';
      void this.source.close();
    }
    this.coalescer.publishRepeats();
    // What happens from now until bytes come again (a source event, no data) happens now, not at the last bytes' arrival.
    this.arrival = null;
  }

  private tick(): void {
    const now = epochNow();
    const received = this.source.stats();
    const lastChunkAt = received.lastChunkAt ?? this.createdAt;
    const silentMs = now - Math.max(lastChunkAt, this.silentSince);
    if (this.statusValue !== 'no-data' && silentMs >= this.options.noDataSeconds * 1_000) {
      this.setStatus('no-data');
      this.publishFinding(LIVE_SOURCE_CHECK_ID, {
        t: null,
        offset: received.bytes,
        packetIndex: -1,
        pid: -1,
        value: Math.round(silentMs) / 1_000,
        unit: 's',
        violation: true,
        severity: 'warning',
        message: `no data from ${this.source.url} for ${this.options.noDataSeconds} s`,
        citation: null,
        type: 'no-data',
      });
    }
    this.takeReading();
  }

  private takeReading(): void {
    if (this.statistics.isClosed) return;
    const now = epochNow();
    const seconds = Math.max((now - this.lastReadingAt) / 1_000, 1e-3);
    this.lastReadingAt = now;
    const { packets, pids } = this.meter?.read(seconds) ?? { packets: 0, pids: [] };
    const source = this.source.stats();
    const bytes = source.bytes - this.lastReadingBytes;
    this.lastReadingBytes = source.bytes;
    const klvPackets = this.klvPackets;
    this.klvPackets = 0;
    this.statistics.append((seq) => ({
      seq,
      sessionId: this.id,
      at: now,
      seconds,
      status: this.statusValue,
      bytesPerSecond: bytes / seconds,
      packetsPerSecond: packets / seconds,
      bitsPerSecond: pids.reduce((sum, pid) => sum + pid.bitsPerSecond, 0),
      pids,
      klvPacketsPerSecond: klvPackets / seconds,
      continuityErrors: this.continuityErrors,
      losses: { application: source.applicationLoss, rtpPackets: source.rtpLost, socket: source.socketDrops },
      findings: this.findingCounts.findings,
      source,
    }));
  }

  private setStatus(status: LiveSessionStatus): void {
    if (status === this.statusValue) return;
    // Silence is measured from the end of the last silence, so one long pause is reported once.
    if (this.statusValue === 'no-data') this.silentSince = epochNow();
    this.statusValue = status;
    this.options.onStatus?.(this);
  }
}
