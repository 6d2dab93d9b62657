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
import { InventoryBuilder, KlvSummaryBuilder, VideoResolutionProbe, createKlvAwareTsDemuxer, isVideoStreamType, type Inventory, type KlvPidSummary } from '@klvscope/core';
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
  klv: Array<{ pid: number; carriage: KlvPidSummary['carriage']; standards: string[]; packets: number; rateHz: number; checksumFailures: number }>;
  /** Transport errors by type (continuity, PCR, ...) and KLV problems by type, as inspect counts them. */
  errors: Inventory['errorCounts'];
  klvErrors: Record<string, number>;
  /** Why nothing could be said, when nothing arrived or the input could not be opened; null otherwise. */
  problem: string | null;
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
  private readonly probe = new VideoResolutionProbe();
  private resolution: string | null = null;
  private readonly demuxer = createKlvAwareTsDemuxer(
    (o) => {
      this.inventory.observe(o);
      this.klv.observe(o);
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
      klv: klv.map((s) => ({ pid: s.pid, carriage: s.carriage, standards: s.standards, packets: s.packets, rateHz: Math.round((s.packets / seconds) * 100) / 100, checksumFailures: s.checksumFailures })),
      errors: inventory.errorCounts,
      klvErrors,
      problem: problem ?? (this.bytes === 0 ? `nothing arrived in ${Math.round(elapsedMs)} ms` : null),
    };
  }
}

function describe(d: StreamDetection): string {
  if (d.problem !== null) return d.problem;
  const video = d.video ? `${d.video.codec}${d.video.resolution ? ` ${d.video.resolution}` : ''}` : 'no video';
  const klv = d.klv.length === 0 ? 'no KLV' : d.klv.map((k) => `KLV PID ${k.pid} ${k.standards.join('/') || 'unknown'} ${k.rateHz} Hz`).join(', ');
  return `${d.programs.length} program(s), ${d.pids.length} PID(s), ${video}, ${klv}, ${(d.bitrate / 1e6).toFixed(2)} Mb/s`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
