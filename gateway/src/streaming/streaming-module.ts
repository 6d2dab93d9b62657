/**
 * The streaming module's engine, apart from HTTP: it reads the source, tells
 * its state (starting, receiving, silent, failed, stopped), analyses the
 * stream (PIDs, KLV, mission), passes it to the viewers and the recorder,
 * and counts what it passes. A source that cannot be opened, or that ends,
 * is opened again after `retryMs`; a UDP source that goes silent stays open
 * and is picked up again as soon as data returns, with the viewers starting
 * over at the next random access point (the sender's clocks may have
 * started again).
 */
import { TS_PACKET_SIZE, TS_SYNC_BYTE, VIEWER_LIMIT_CLOSE_CODE, type RecorderStatus, type SourceState, type SourceStatus, type StreamKlvMessage, type StreamStatusMessage } from '@klvscope/core';
import { epochNow, TsFramer, type LiveChunk, type LiveSource } from '@klvscope/adapters';
import type { WebSocket } from 'ws';
import { StreamAnalysis } from './stream-analysis.js';
import type { StreamingConfig } from './streaming-config.js';
import { ViewerFanout } from './viewer-fanout.js';
import type { StreamRecorder } from './stream-recorder.js';
import { chooseVideoPath, type OpenTranscoder, type VideoPath } from './video-transcoding.js';

export interface StreamingModuleOptions {
  config: StreamingConfig;
  /** Opens the configured source (or the demo); called again for every retry. */
  openSource: () => Promise<LiveSource>;
  recorder: StreamRecorder;
  /** Told how long after its arrival each chunk went to the viewers (benchmarks). */
  onViewerSend?: (latencyMs: number) => void;
  /** Starts a transcoder for video the browser cannot play (or when videoPassThrough is false); null: none. */
  openTranscoder?: OpenTranscoder | null;
}

const STATUS_INTERVAL_MS = 1_000;
const SILENCE_CHECK_MS = 250;
/** The video bitrate is averaged over this many seconds. */
const VIDEO_RATE_SECONDS = 5;

export class StreamingModule {
  private readonly config: StreamingConfig;
  private readonly fanout: ViewerFanout;
  private analysis = new StreamAnalysis(null);
  /** How this run's video reaches the viewers; null until its PMT is read. */
  private videoPath: VideoPath | null = null;
  /** What the viewers get when it is transcoded: the transcoder's output, analysed for its own PIDs. */
  private transcoded: StreamAnalysis | null = null;
  private transcoderFailure: string | null = null;
  /** When the transcoder last sent bytes (or started), performance.now(): a transcoder silent while the source sends has stalled. */
  private transcodedAt = 0;
  private transcoderStall: string | null = null;
  private source: LiveSource | null = null;
  private running: Promise<void> | null = null;
  private wantStreaming = false;
  private sourceStatus: SourceStatus = { state: 'stopped', message: null, since: new Date().toISOString() };
  private lastChunkAt = 0;
  /** Bytes and metadata packets of the second under way, and the rates of the last whole second. */
  private bytesThisSecond = 0;
  private bitrateBps = 0;
  private klvRateHz = 0;
  /** Video payload bytes of each of the last seconds (up to VIDEO_RATE_SECONDS): a GOP's I-frame and its P-frames averaged. */
  private readonly videoBytesPerSecond: number[] = [];
  /** Frames chunks that are not whole packets (noise, a datagram of something else): only TS packets go on. */
  private framer = new TsFramer();
  /** Bytes that were not TS packets since the last packet: a sender of something else is no feed. */
  private noiseBytes = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private retryWake: (() => void) | null = null;

  constructor(private readonly options: StreamingModuleOptions) {
    this.config = options.config;
    this.fanout = new ViewerFanout(() => this.transcoded ?? this.analysis, {
      maxBufferedBytes: this.config.maxViewerBufferBytes,
      hello: () => ({ noPictureReason: this.noPictureReason(), mapTileUrl: this.config.mapTileUrl }),
      onSent: options.onViewerSend,
    });
    this.timers.push(setInterval(() => this.everySecond(), STATUS_INTERVAL_MS), setInterval(() => this.checkSilence(), SILENCE_CHECK_MS));
    for (const timer of this.timers) timer.unref();
  }

  get streaming(): boolean {
    return this.wantStreaming;
  }

  get viewerCount(): number {
    return this.fanout.count;
  }

  get droppedViewers(): number {
    return this.fanout.dropped;
  }

  /** The stream's facts as far as known (PIDs, KLV, mission). */
  get facts(): StreamAnalysis {
    return this.analysis;
  }

  get sourceStatusNow(): SourceStatus {
    return this.sourceStatus;
  }

  get rates(): { bitrateBps: number; klvRateHz: number } {
    return { bitrateBps: this.bitrateBps, klvRateHz: this.klvRateHz };
  }

  /**
   * The spec's `videoBitrate`: passed through, the video's own rate as measured (its PID's payload over the last
   * seconds), once a second of it is measured; transcoded (or before), the configured rate of the encoder.
   */
  videoBitrate(): number {
    const seconds = this.videoBytesPerSecond.length;
    const bytes = this.videoBytesPerSecond.reduce((sum, count) => sum + count, 0);
    if (!this.videoPassThrough() || this.analysis.video === null || bytes === 0) return this.config.videoBitrate;
    return Math.round((bytes * 8) / seconds);
  }

  /** The mission name: configured, else the KLV's Mission ID, else ''. */
  missionName(): string {
    return this.config.missionName ?? this.analysis.missionId ?? '';
  }

  /** `streamer start`: opens the source (again) unless it runs. */
  startStreaming(): void {
    if (this.wantStreaming) return;
    this.wantStreaming = true;
    this.running = this.run();
  }

  /** `streamer stop`: closes the source; viewers stay connected and get the stream again on `start`. */
  async stopStreaming(): Promise<void> {
    this.wantStreaming = false;
    this.retryWake?.();
    await this.source?.close();
    await this.running;
    this.running = null;
    await this.closeTranscoder();
    this.setSource('stopped', null);
  }

  /** A viewer's WebSocket: refused (close 1013) past the viewer limit. */
  addViewer(socket: WebSocket): void {
    if (this.fanout.count >= this.config.concurrentClients) {
      socket.close(VIEWER_LIMIT_CLOSE_CODE, `the viewer limit of ${this.config.concurrentClients} is reached: try again later`);
      return;
    }
    this.fanout.add(socket);
  }

  status(recorder: RecorderStatus): StreamStatusMessage {
    return {
      type: 'status',
      activeConnections: this.fanout.count,
      concurrentClients: this.config.concurrentClients,
      bitrateBps: this.bitrateBps,
      klvRateHz: this.klvRateHz,
      streaming: this.wantStreaming,
      source: this.sourceStatus,
      recorder,
      missionName: this.missionName(),
      videoResolution: this.videoResolution(),
      noPictureReason: this.noPictureReason(),
    };
  }

  /** The source's video resolution `WIDTHxHEIGHT`, read from its sequence parameter set; '' while unknown. */
  videoResolution(): string {
    return this.analysis.videoResolution;
  }

  noPictureReason(): string | null {
    if (this.analysis.pmtSeen && this.analysis.video === null) return 'the source carries no video stream';
    if (this.videoPath !== null && 'noPictureReason' in this.videoPath) return this.videoPath.noPictureReason;
    return this.transcoderFailure ?? this.transcoderStall;
  }

  /** Whether the video goes to the viewers untouched: the configuration's intent until the source's PMT decides. */
  videoPassThrough(): boolean {
    return this.videoPath === null ? this.options.config.videoPassThrough : this.videoPath.passThrough;
  }

  /** Stops the source and the timers and closes every viewer. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.stopStreaming();
    this.fanout.closeAll(1001, 'the streaming module stops');
  }

  private async run(): Promise<void> {
    while (this.wantStreaming) {
      this.setSource('starting', null);
      let source: LiveSource;
      try {
        source = await this.options.openSource();
      } catch (error) {
        this.setSource('failed', `the source cannot be opened: ${(error as Error).message}`);
        await this.retryPause();
        continue;
      }
      if (!this.wantStreaming) {
        await source.close();
        break;
      }
      this.source = source;
      this.newRun();
      try {
        for await (const chunk of source) this.take(chunk);
        if (this.wantStreaming) this.setSource('failed', 'the source ended');
      } catch (error) {
        if (this.wantStreaming) this.setSource('failed', `the source failed: ${(error as Error).message}`);
      } finally {
        this.source = null;
        await source.close();
      }
      if (this.wantStreaming) await this.retryPause();
    }
  }

  /** A new stream: a new analysis (its clocks start again), its video path decided anew, and the viewers wait for a random access point of it. */
  private newRun(): void {
    void this.closeTranscoder();
    this.videoPath = null;
    this.analysis = new StreamAnalysis(this.onKlv);
    this.framer = new TsFramer();
    this.noiseBytes = 0;
    this.videoBytesPerSecond.length = 0;
    this.fanout.restart();
    this.lastChunkAt = performance.now();
  }

  private take(chunk: LiveChunk): void {
    const packets = this.packetsOf(chunk.bytes);
    // Only TS packets make a source `receiving`: a sender of anything else stays silent to the viewers.
    if (packets.length === 0) return;
    if (this.sourceStatus.state !== 'receiving') {
      // Data back after silence: the sender may have started again with new clocks.
      if (this.sourceStatus.state === 'silent') this.newRun();
      this.setSource('receiving', null);
    }
    this.lastChunkAt = performance.now();
    this.noiseBytes = 0;
    this.bytesThisSecond += packets.length;
    this.analysis.push(packets);
    if (this.videoPath === null && this.analysis.pmtSeen) this.chooseVideoPath();
    this.options.recorder.write(packets);
    if (this.videoPath !== null && 'transcoder' in this.videoPath) this.videoPath.transcoder.write(packets);
    else this.fanout.pushPackets(packets, chunk.receivedAt);
  }

  private chooseVideoPath(): void {
    const path = chooseVideoPath(this.analysis.video, this.config, this.options.openTranscoder ?? null);
    this.videoPath = path;
    if (!('transcoder' in path)) return;
    const transcoded = new StreamAnalysis(null);
    this.transcoded = transcoded;
    this.transcoderFailure = null;
    this.transcoderStall = null;
    this.transcodedAt = performance.now();
    path.transcoder.onData = (bytes) => {
      this.transcodedAt = performance.now();
      this.transcoderStall = null;
      transcoded.push(bytes);
      this.fanout.pushPackets(bytes, epochNow());
    };
    path.transcoder.onError = (error) => {
      this.transcoderFailure = `transcoding failed: ${error.message}`;
      // Told at once, not at the next second.
      this.fanout.pushMessage(this.status(this.options.recorder.status()));
    };
  }

  private async closeTranscoder(): Promise<void> {
    const path = this.videoPath;
    this.transcoded = null;
    if (path !== null && 'transcoder' in path) {
      path.transcoder.onData = null;
      await path.transcoder.close();
    }
  }

  /**
   * The TS packets of a chunk. A chunk of whole packets (a datagram, a paced file's chunk) goes on as it is; anything
   * else is framed on the sync byte (ISO 13818-1 2.4.3.2), the bytes that are no packet counted and dropped. A whole
   * chunk after noise starts afresh: the sources deliver whole packets, so what the framer holds then is noise.
   */
  private packetsOf(bytes: Uint8Array): Uint8Array {
    if (isWholePackets(bytes)) {
      if (this.framer.pending > 0) {
        this.noiseBytes += this.framer.pending;
        this.framer = new TsFramer();
      }
      return bytes;
    }
    const framed = this.framer.push(bytes);
    for (const run of framed.noise) this.noiseBytes += run.count;
    return framed.bytes;
  }

  private readonly onKlv = (message: StreamKlvMessage): void => {
    this.fanout.pushMessage(message);
  };

  private everySecond(): void {
    this.bitrateBps = this.bytesThisSecond * 8;
    this.bytesThisSecond = 0;
    this.klvRateHz = this.analysis.takeKlvCount();
    this.videoBytesPerSecond.push(this.analysis.takeVideoBytes());
    if (this.videoBytesPerSecond.length > VIDEO_RATE_SECONDS) this.videoBytesPerSecond.shift();
    this.fanout.pushMessage(this.status(this.options.recorder.status()));
  }

  private checkTranscoder(): void {
    const path = this.videoPath;
    if (path === null || !('transcoder' in path) || this.transcoderFailure !== null || this.sourceStatus.state !== 'receiving') return;
    const quietMs = performance.now() - this.transcodedAt;
    if (quietMs < this.config.transcoderStallMs) return;
    this.transcoderStall ??= `the transcoder (ffmpeg) has sent nothing for ${(quietMs / 1000).toFixed(1)} s while the source sends: it stalled`;
  }

  private checkSilence(): void {
    this.checkTranscoder();
    // A source that sent only noise since it opened is as silent as one that sent nothing.
    const noiseOnly = this.sourceStatus.state === 'starting' && this.noiseBytes > 0;
    if (this.sourceStatus.state !== 'receiving' && !noiseOnly) return;
    const silentMs = performance.now() - this.lastChunkAt;
    if (silentMs < this.config.silenceMs) return;
    const seconds = (silentMs / 1000).toFixed(1);
    this.setSource('silent', this.noiseBytes > 0 ? `no MPEG-TS from the source for ${seconds} s: ${this.noiseBytes.toLocaleString('en-US')} bytes arrived that are not TS packets` : `no data from the source for ${seconds} s`);
  }

  private setSource(state: SourceState, message: string | null): void {
    if (state === this.sourceStatus.state && message === this.sourceStatus.message) return;
    this.sourceStatus = { state, message, since: new Date().toISOString() };
  }

  /** Waits `retryMs`, or less when streaming is stopped meanwhile. */
  private retryPause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.retryWake?.(), this.config.retryMs);
      this.retryWake = () => {
        clearTimeout(timer);
        this.retryWake = null;
        resolve();
      };
    });
  }
}

/** Whole 188-byte packets, each starting with the sync byte. */
function isWholePackets(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length % TS_PACKET_SIZE !== 0) return false;
  for (let pos = 0; pos < bytes.length; pos += TS_PACKET_SIZE) if (bytes[pos] !== TS_SYNC_BYTE) return false;
  return true;
}
