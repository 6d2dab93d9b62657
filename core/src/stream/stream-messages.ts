/**
 * The streaming module's WebSocket protocol (docs/streaming.md), as types:
 * the service writes these messages and the viewer (web/) reads them. One
 * socket per viewer at `/stream`: binary messages are MPEG-TS bytes (whole
 * 188-byte packets, starting with a PAT, a PMT and a video random access
 * point), text messages are one JSON object each, of the types below, sent
 * in order with the bytes.
 */

/** The close code of a viewer refused past the module's viewer limit (RFC 6455 7.4.1: try again later), with the reason as text. */
export const VIEWER_LIMIT_CLOSE_CODE = 1013;

/** The key MISB ST 0601 values of one metadata packet, in the units named; null where the packet lacks the item. */
export interface FrameKlvValues {
  /** Item 2, microseconds since 1970-01-01T00:00:00Z. */
  timestampMicros: number | null;
  /** Item 3. */
  missionId: string | null;
  /** Items 5, 6, 7. */
  platformHeadingDeg: number | null;
  platformPitchDeg: number | null;
  platformRollDeg: number | null;
  /** Items 13, 14, 15: the platform (sensor) position. */
  sensorLatitudeDeg: number | null;
  sensorLongitudeDeg: number | null;
  sensorAltitudeM: number | null;
  /** Items 16, 17. */
  sensorHorizontalFovDeg: number | null;
  sensorVerticalFovDeg: number | null;
  /** Items 18, 19, 20: sensor angles relative to the platform. */
  sensorAzimuthDeg: number | null;
  sensorElevationDeg: number | null;
  sensorRollDeg: number | null;
  /** Item 21. */
  slantRangeM: number | null;
  /** Items 23, 24, 25. */
  frameCenterLatitudeDeg: number | null;
  frameCenterLongitudeDeg: number | null;
  frameCenterElevationM: number | null;
  /** The image footprint, corners 1 to 4 as [latitude, longitude]: items 82-89, or else frame centre + offsets 26-33; null when neither is complete. */
  corners: Array<[number, number]> | null;
}

/** One decoded metadata packet. */
export interface StreamKlvMessage {
  type: 'klv';
  pid: number;
  /** sync: MISB ST 1402 synchronous carriage (stream_type 0x15, PTS of the frame it describes); async: stream_type 0x06. */
  carriage: 'sync' | 'async';
  /** The PTS of the PES that carried it (90 kHz, 33 bits), or null (asynchronous without PTS). */
  pts90kHz: number | null;
  /** Seconds since the first PCR of the source, or null before the first PCR. */
  streamTime: number | null;
  /** e.g. 'MISB ST 0601', 'EG 0104'. */
  standard: string;
  /** The ST 0601 checksum verdict; null where the standard has none. */
  checksumValid: boolean | null;
  /** ST 0601 mandatory items (1, 2, 65) the packet lacks, by tag; empty when all are there or the standard is not ST 0601. Additive (issue 36). */
  missingMandatoryTags?: number[];
  values: FrameKlvValues;
}

/** Where the source stands (GET /info `source`). */
export type SourceState = 'starting' | 'receiving' | 'silent' | 'failed' | 'stopped';

export interface SourceStatus {
  state: SourceState;
  /** Why (failed, silent), in a sentence; null while receiving. */
  message: string | null;
  /** When the state was entered, ISO 8601 with zone. */
  since: string;
}

export type RecorderStateName = 'stopped' | 'running' | 'failed';

/** GET /recorderState. */
export interface RecorderStatus {
  state: RecorderStateName;
  /** ISO 8601 with zone (the spec types it a date-time text): when the current state began; for `failed`, when the failed run began. */
  timeStarted: string;
  /** The file being written, while running. */
  file: string | null;
  /** Why it failed, when failed. */
  reason: string | null;
}

/** Sent first, once: what this viewer's byte stream starts with. */
export interface StreamHelloMessage {
  type: 'hello';
  /** The PTS of the first video access unit of this viewer's bytes (90 kHz), or null when there is no video. */
  startPts90kHz: number | null;
  videoPid: number | null;
  /** Why the page gets no picture (no video, a codec the browser cannot play and no ffmpeg), or null. */
  noPictureReason: string | null;
  /** A map tile URL template (`https://…/{z}/{x}/{y}.png`) from the configuration, or null: outlines and a graticule only. */
  mapTileUrl: string | null;
}

/** Sent every second. */
export interface StreamStatusMessage {
  type: 'status';
  activeConnections: number;
  concurrentClients: number;
  /** What the source delivered over the last second, bits/s. */
  bitrateBps: number;
  /** Metadata packets per second over the last second. */
  klvRateHz: number;
  streaming: boolean;
  source: SourceStatus;
  recorder: RecorderStatus;
  missionName: string;
  videoResolution: string;
  /** Why the viewers get no picture now (the hello's, or a transcoder that failed or stalled since), or null. */
  noPictureReason: string | null;
}

export type StreamMessage = StreamHelloMessage | StreamKlvMessage | StreamStatusMessage;
