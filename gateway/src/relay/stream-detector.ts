/**
 * Stream detection (the `detect` command): listens to a channel's input for
 * a bounded time and runs core's KLV-aware demuxer over what arrives, folded
 * by the same builders `klvscope inspect` uses (InventoryBuilder,
 * KlvSummaryBuilder), so the programs, PIDs, stream types and KLV standards
 * are those inspect reports for the same bytes. A running channel is tapped
 * (its socket is not opened twice: a unicast port cannot be); a stopped one
 * has its input opened for the time of the detection.
 */
import type { LiveChunk, LiveSource } from '@klvscope/adapters';
import { InventoryBuilder, KlvSummaryBuilder, VideoResolutionProbe, createKlvAwareTsDemuxer, isAudioStreamType, isVideoStreamType, type Inventory, type KlvPidSummary } from '@klvscope/core';
import { DetectionProblemTally, type DetectionProblemCount } from './detection-problems.js';
import type { RelayService } from './relay-service.js';

/** Long enough for a PAT, a PMT and a key frame of the usual 1-2 s GOP. */
export const DEFAULT_DETECT_MS = 3000;
export const MAX_DETECT_MS = 30_000;

export interface StreamDetection {
  channelId: string;
  /** When the detection ended. */
  time: string;
  durationMs: number;
  /** UDP payload bytes and datagrams received while listening. */
  bytes: number;
  datagrams: number;
  /** Bits per second over the listening time (wall clock). */
  bitrate: number;
  programs: Inventory['programs'];
  pids: Array<{ pid: number; role: string; streamType: number | null; streamTypeName: string | null; packets: number; bitrate: number }>;
  video: { pid: number; streamType: number; codec: string; resolution: string | null } | null;
  /** Every elementary stream the programs declare, video, audio, KLV and other data alike, by PID. */
  streams: DetectedStream[];
  klv: Array<{ pid: number; carriage: KlvPidSummary['carriage']; standards: string[]; packets: number; rateHz: number; checksumFailures: number }>;
  /** Transport errors by type (continuity, PCR, ...) and KLV problems by type, as inspect counts them. */
  errors: Inventory['errorCounts'];
  klvErrors: Record<string, number>;
  /** The same problems by source, type and severity (errors first): a legacy set's warnings are not counted as errors. */
  problems: DetectionProblemCount[];
  /** Why nothing could be said, when nothing arrived or the input could not be opened; null otherwise. */
  problem: string | null;
}

export interface DetectedStream {
  pid: number;
  kind: 'video' | 'audio' | 'klv' | 'data';
  streamType: number;
  /** The stream type's name; for KLV, the standards its packets were of ('MISB EG 0104'). */
  codec: string;
  packets: number;
  bitrate: number;
}

export class StreamDetector {
  private readonly latest = new Map<string, StreamDetection>();

  constructor(
    private readonly service: RelayService,
    private readonly openSource: (url: string) => Promise<LiveSource>,
  ) {}

  results(channelId?: string): StreamDetection[] {
    return channelId === undefined ? [...this.latest.values()] : [...this.latest.values()].filter((d) => d.channelId === channelId);
  }

  forget(channelId: string): void {
    this.latest.delete(channelId);
  }

  async detect(channelId: string, durationMs: number): Promise<StreamDetection> {
    const row = this.service.channelRow(channelId);
    const analysis = new DetectionAnalysis();
    const started = performance.now();
    const runtime = this.service.runtimes.get(channelId);
    let problem: string | null = null;
    if (runtime !== undefined) {
      const untap = runtime.tap((chunk) => analysis.push(chunk));
      await sleep(durationMs);
      untap();
    } else {
      try {
        const source = await this.openSource(row.input);
        const timer = setTimeout(() => void source.close(), durationMs);
        try {
          for await (const chunk of source) analysis.push(chunk);
        } finally {
          clearTimeout(timer);
          await source.close();
        }
      } catch (error) {
        problem = `the input cannot be opened: ${(error as Error).message}`;
      }
    }
    const elapsedMs = performance.now() - started;
    const detection = analysis.result(channelId, elapsedMs, problem);
    this.latest.set(channelId, detection);
    this.service.log('detection-done', `channel ${channelId}: detection done: ${describe(detection)}`);
    return detection;
  }
}

class DetectionAnalysis {
  private readonly inventory = new InventoryBuilder();
  private readonly klv = new KlvSummaryBuilder();
  private readonly problems = new DetectionProblemTally();
  private readonly probe = new VideoResolutionProbe();
  private resolution: string | null = null;
  private readonly demuxer = createKlvAwareTsDemuxer(
    (o) => {
      this.inventory.observe(o);
      this.klv.observe(o);
      this.problems.observe(o);
    },
    { klvFields: false },
  );
  bytes = 0;
  datagrams = 0;

  push(chunk: LiveChunk): void {
    this.bytes += chunk.bytes.length;
    this.datagrams++;
    this.demuxer.push(chunk.bytes);
    if (this.resolution === null) {
      const found = this.probe.push(chunk.bytes);
      if (found) this.resolution = `${found.width}x${found.height}`;
    }
  }

  result(channelId: string, elapsedMs: number, problem: string | null): StreamDetection {
    this.demuxer.end();
    const inventory = this.inventory.build(this.demuxer.packetSize ?? null);
    const seconds = elapsedMs / 1000;
    const perSecond = (bytes: number): number => Math.round((bytes * 8) / seconds);
    const klv = this.klv.build();
    const videoPid = inventory.pids.find((p) => p.streamType !== null && isVideoStreamType(p.streamType));
    const klvErrors: Record<string, number> = {};
    for (const summary of klv) for (const [type, n] of Object.entries(summary.problems)) klvErrors[type] = (klvErrors[type] ?? 0) + (n ?? 0);
    const klvPids = new Map(klv.map((s) => [s.pid, s]));
    const declared = new Set(inventory.programs.flatMap((p) => p.streams));
    const streams: DetectedStream[] = inventory.pids.flatMap((p) => {
      if (!declared.has(p.pid) || p.streamType === null) return [];
      const klvPid = klvPids.get(p.pid);
      const kind = klvPid !== undefined ? 'klv' : isVideoStreamType(p.streamType) ? 'video' : isAudioStreamType(p.streamType) ? 'audio' : 'data';
      const codec = klvPid !== undefined && klvPid.standards.length > 0 ? klvPid.standards.join(', ') : (p.streamTypeName ?? 'unknown');
      return [{ pid: p.pid, kind, streamType: p.streamType, codec, packets: p.packets, bitrate: perSecond(p.bytes) }];
    });
    return {
      channelId,
      time: new Date().toISOString(),
      durationMs: Math.round(elapsedMs),
      bytes: this.bytes,
      datagrams: this.datagrams,
      bitrate: perSecond(this.bytes),
      programs: inventory.programs,
      pids: inventory.pids.map((p) => ({ pid: p.pid, role: p.role, streamType: p.streamType, streamTypeName: p.streamTypeName, packets: p.packets, bitrate: perSecond(p.bytes) })),
      video: videoPid ? { pid: videoPid.pid, streamType: videoPid.streamType as number, codec: videoPid.streamTypeName ?? 'unknown', resolution: this.resolution } : null,
      streams,
      klv: klv.map((s) => ({ pid: s.pid, carriage: s.carriage, standards: s.standards, packets: s.packets, rateHz: Math.round((s.packets / seconds) * 100) / 100, checksumFailures: s.checksumFailures })),
      errors: inventory.errorCounts,
      klvErrors,
      problems: this.problems.build(),
      problem: problem ?? (this.bytes === 0 ? `nothing arrived in ${Math.round(elapsedMs)} ms` : null),
    };
  }
}

function describe(d: StreamDetection): string {
  if (d.problem !== null) return d.problem;
  const video = d.video ? `${d.video.codec}${d.video.resolution ? ` ${d.video.resolution}` : ''}` : 'no video';
  const audio = d.streams.filter((s) => s.kind === 'audio').map((s) => `${s.codec} PID ${s.pid}`);
  const data = d.streams.filter((s) => s.kind === 'data').map((s) => `${s.codec} PID ${s.pid}`);
  const klv = d.klv.length === 0 ? 'no KLV' : d.klv.map((k) => `KLV PID ${k.pid} ${k.standards.join('/') || 'unknown'} ${k.rateHz} Hz`).join(', ');
  const problems = d.problems.map((p) => `${p.count} ${p.type} (${p.severity})`);
  return [`${d.programs.length} program(s), ${d.pids.length} PID(s), ${video}`, ...audio, ...data, klv, `${(d.bitrate / 1e6).toFixed(2)} Mb/s`, ...(problems.length > 0 ? [`problems: ${problems.join(', ')}`] : [])].join(', ');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
