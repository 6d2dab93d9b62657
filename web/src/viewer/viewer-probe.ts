/**
 * What the page shows, as data, on `window.klvscopeViewer`, for the browser
 * tests to compare against what the service sent. The page writes it; nothing
 * reads it but a test.
 */
import type { StreamHelloMessage, StreamKlvMessage } from '@klvscope/core/browser';

export interface ProbeFrame {
  /** requestVideoFrameCallback's mediaTime of the frame on screen, seconds. */
  mediaTime: number;
  /** The PTS (33 bits) the page maps that media time to. */
  pts90kHz: number;
  /** The PTS of the metadata packet shown for it (null: none, or none carried a PTS). */
  klvPts90kHz: number | null;
  /** A synchronous packet of this very frame was found. */
  exact: boolean;
  /** Seconds of video from the connection's first frame to this one, as the time display under the picture counts them. */
  elapsedS: number;
}

export interface ViewerProbe {
  /** The hello of the current connection. */
  hello: StreamHelloMessage | null;
  /** Connections that got a hello: more than one after the source's clocks started again. */
  connections: number;
  /** Frames presented since the stream started (requestVideoFrameCallback calls). */
  framesShown: number;
  /** Media time of the first frame: where mpegts.js's time line puts the first access unit. */
  firstFrameMediaTime: number | null;
  lastFrame: ProbeFrame | null;
  /** The packet whose values the panel shows. */
  panelKlv: StreamKlvMessage | null;
  /** Metadata messages received over the socket, and the PTS of the first and the latest (null: none had one). */
  klvReceived: number;
  firstKlvPts90kHz: number | null;
  lastKlvPts90kHz: number | null;
  /** Points of the platform track on the map, and of the frame-centre track. */
  trackPointCount: number;
  frameCentrePointCount: number;
  /** On the map, for the frame on screen: the footprint's corners and whether the line of sight is drawn. */
  footprintCorners: number;
  lineOfSight: boolean;
  /** The socket's close code and reason, once closed. */
  closed: { code: number; reason: string } | null;
  /** The video element is paused. */
  paused: boolean;
  /** The outcome of the last frame step (null: none since playing). */
  lastStep: 'stepped' | 'at-buffer-start' | 'at-buffer-end' | 'no-video' | null;
  /** The frame duration the steps use, seconds (learnt from the frames shown). */
  frameDurationS: number;
  /** Rows the telemetry charts hold, and where their cursor is (seconds on the frame clock's line; null: none). */
  telemetryRows: number;
  telemetryCursorS: number | null;
  /** The caption written under the last snapshot's picture, and the PNG's size in bytes. */
  snapshot: { caption: string[]; bytes: number } | null;
}

export function emptyProbe(): ViewerProbe {
  return {
    hello: null,
    connections: 0,
    framesShown: 0,
    firstFrameMediaTime: null,
    lastFrame: null,
    panelKlv: null,
    klvReceived: 0,
    firstKlvPts90kHz: null,
    lastKlvPts90kHz: null,
    trackPointCount: 0,
    frameCentrePointCount: 0,
    footprintCorners: 0,
    lineOfSight: false,
    closed: null,
    paused: true,
    lastStep: null,
    frameDurationS: 0,
    telemetryRows: 0,
    telemetryCursorS: null,
    snapshot: null,
  };
}
