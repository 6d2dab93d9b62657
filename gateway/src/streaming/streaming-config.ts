/**
 * The streaming module's configuration: every setting with its default
 * (docs/streaming.md lists them). The spec's Info object reports most of
 * them as they are.
 */
import { join } from 'node:path';
import { StreamingError } from './streaming-error.js';

export interface StreamingConfig {
  /** The source URL (udp://…, file:///…, serial:…); null: the built-in demo. */
  source: string | null;
  /** A video capture device read through ffmpeg (`/dev/video0`; Info `useCapture`): wins over `source`. */
  captureDevice: string | null;
  /** ffmpeg's input format of the capture device: 'v4l2' (default), or 'lavfi' with a filter graph as the device (a test picture). */
  captureFormat: string;
  /** The name of this channel, in /info and in recording file names. */
  channelName: string;
  /** The mission name; null: the KLV's Mission ID (ST 0601 item 3) as it arrives. */
  missionName: string | null;
  /** Viewers at most (Info `concurrentClients`). */
  concurrentClients: number;
  /** true: H.264 passes to the viewers untouched; false: the video is transcoded (ffmpeg) at videoBitrate and videoResolution. */
  videoPassThrough: boolean;
  /** Bits/s of the transcoded video. */
  videoBitrate: number;
  /** `WIDTHxHEIGHT` of the transcoded video; null keeps the source's. */
  videoResolution: string | null;
  /** Whether `recorder start` is allowed. */
  recorderEnabled: boolean;
  /** Where recordings go. */
  recordingsDir: string;
  /** A recording file is closed and the next one started past this size (bytes) or duration (seconds, null: none). */
  recordingMaxBytes: number;
  recordingMaxSeconds: number | null;
  /** Bytes of this channel's recordings kept in recordingsDir at most: past it the oldest files are deleted; null: all kept. */
  recordingsKeepBytes: number | null;
  /** A map tile URL template for the viewer (`https://…/{z}/{x}/{y}.png`); null: outlines and a graticule only. */
  mapTileUrl: string | null;
  /** Unsent bytes a viewer may have before it is dropped as not reading (8 MiB: over 6 s at 10 Mb/s). */
  maxViewerBufferBytes: number;
  /** No data for this long: the source is `silent`. */
  silenceMs: number;
  /** After a source fails to open or ends, the next try comes this much later. */
  retryMs: number;
  /** A transcoder that sends nothing for this long while the source sends has stalled: the viewers are told (noPictureReason). */
  transcoderStallMs: number;
  /** The credentials of POST /command; absent: environment or the data folder's file (stream-credentials.ts). */
  user?: string;
  password?: string;
}

export const DEFAULT_STREAMING_PORT = 4000;
/** The recordings folder inside the data folder; the inspection service browses it too. */
export const RECORDINGS_FOLDER_NAME = 'recordings';
export const STREAM_PORT_ENV = 'KLVSCOPE_STREAM_PORT';

export function defaultStreamingConfig(dataDir: string): StreamingConfig {
  return {
    source: null,
    captureDevice: null,
    captureFormat: 'v4l2',
    channelName: 'klvscope',
    missionName: null,
    concurrentClients: 16,
    videoPassThrough: true,
    videoBitrate: 2_000_000,
    videoResolution: null,
    recorderEnabled: true,
    recordingsDir: join(dataDir, RECORDINGS_FOLDER_NAME),
    recordingMaxBytes: 1024 ** 3,
    recordingMaxSeconds: null,
    recordingsKeepBytes: null,
    mapTileUrl: null,
    maxViewerBufferBytes: 8 * 1024 * 1024,
    silenceMs: 2_000,
    retryMs: 1_000,
    transcoderStallMs: 5_000,
  };
}

/** Refuses values no run could use, naming the setting. */
export function assertStreamingConfig(config: StreamingConfig): void {
  const problems: string[] = [];
  if (!Number.isInteger(config.concurrentClients) || config.concurrentClients < 1) problems.push(`concurrentClients must be a whole number of at least 1, got ${config.concurrentClients}`);
  if (!Number.isInteger(config.videoBitrate) || config.videoBitrate < 10_000) problems.push(`videoBitrate must be a whole number of bits/s of at least 10000, got ${config.videoBitrate}`);
  if (config.videoResolution !== null && !/^\d{2,5}x\d{2,5}$/.test(config.videoResolution)) problems.push(`videoResolution must be WIDTHxHEIGHT, e.g. 1280x720, got '${config.videoResolution}'`);
  if (config.source !== null && !/^(udp|file|serial):/i.test(config.source)) problems.push(`source must be udp://…, file:///… or serial:…, got '${config.source}'`);
  if (config.channelName.trim() === '') problems.push('channelName must not be empty');
  if (!(config.recordingMaxBytes >= 188 * 1024)) problems.push(`recordingMaxBytes must be at least 192512, got ${config.recordingMaxBytes}`);
  if (config.recordingMaxSeconds !== null && !(config.recordingMaxSeconds >= 1)) problems.push(`recordingMaxSeconds must be at least 1, got ${config.recordingMaxSeconds}`);
  if (config.recordingsKeepBytes !== null && !(config.recordingsKeepBytes >= 1)) problems.push(`recordingsKeepBytes must be at least 1, got ${config.recordingsKeepBytes}`);
  if (!(config.maxViewerBufferBytes >= 64 * 1024)) problems.push(`maxViewerBufferBytes must be at least 65536, got ${config.maxViewerBufferBytes}`);
  if (!(config.silenceMs >= 100) || !(config.retryMs >= 10)) problems.push('silenceMs must be at least 100 and retryMs at least 10');
  if (!(config.transcoderStallMs >= 500)) problems.push('transcoderStallMs must be at least 500');
  if (problems.length > 0) throw new StreamingError('ERR_STREAM_CONFIG_INVALID', `invalid streaming configuration: ${problems.join('; ')}`, { problems });
}
