/**
 * The stream viewer page: holds the state every panel shows (the module's
 * info and status, the hello of this viewer's stream, the metadata of the
 * frame on screen, the tracks) and passes it down; the panels keep none of
 * it. Metadata messages go into a buffer ordered by PTS; every frame put on
 * screen picks its packet there (klv-frame-buffer.ts).
 */
import { VIEWER_LIMIT_CLOSE_CODE, type RecorderStatus, type StreamHelloMessage, type StreamKlvMessage, type StreamMessage, type StreamStatusMessage } from '@klvscope/core/browser';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ClockJumpWatch } from './clock-jump-watch.js';
import { FrameClock } from './frame-clock.js';
import { KlvFrameBuffer } from './klv-frame-buffer.js';
import { KlvPanel } from './klv-panel.js';
import { MediaTimeMapping, wrapPts } from './pts-clock.js';
import { RecorderControls } from './recorder-controls.js';
import { StatusLine } from './status-line.js';
import { TrackLog } from './track-log.js';
import { useMapTiles } from '../shared/map-tiles.js';
import { TrackMap } from './track-map.js';
import { VideoPanel, type PresentedFrame } from './video-panel.js';
import { fetchInfo, fetchRecorderState, streamSocketUrl, type StreamInfo } from './viewer-api.js';
import { downloadBlob, snapshotCaption, snapshotPng } from './frame-snapshot.js';
import { PlaybackBar } from './playback-bar.js';
import { TelemetryCharts } from './telemetry-charts.js';
import { TelemetryLog } from './telemetry-log.js';
import { ViewerPlayback, type StepResult } from './viewer-playback.js';
import type { ViewerProbe } from './viewer-probe.js';
import { VIEWER_SHORTCUTS } from './viewer-shortcut-keys.js';
import { useViewerShortcuts } from './viewer-shortcuts.js';
import { ShortcutHelp } from '../shared/shortcut-help.js';

/** The frame on screen, on the connection's unwrapped PTS line. */
interface ShownFrame {
  mediaTimeS: number;
  /** Seconds from the connection's first frame (media time, to the millisecond as mpegts.js keeps it). */
  elapsedS: number;
  pts90kHz: number;
  /** When its bytes arrived (estimated: shown time less the buffer ahead of it). */
  arrivedMs: number;
}

/** Per connection (hello): the KLV buffer, the media time to PTS mapping (from the first frame), the frame on screen. */
interface StreamTiming {
  buffer: KlvFrameBuffer;
  mapping: MediaTimeMapping | null;
  startPts90kHz: number;
  shown: ShownFrame | null;
  /** Null when the stream has no video. */
  clockJumps: ClockJumpWatch | null;
}

interface FrameView {
  /** Null without video. */
  pts90kHz: number | null;
  /** Seconds of video from the connection's first frame to this one; null without video. */
  elapsedS: number | null;
  klv: StreamKlvMessage | null;
  exact: boolean;
}

export interface ViewerPageProps {
  /** Written as the page changes, for the tests (window.klvscopeViewer). */
  probe: ViewerProbe;
}

export function ViewerPage({ probe }: ViewerPageProps) {
  const [info, setInfo] = useState<StreamInfo | null>(null);
  const [infoError, setInfoError] = useState<string | null>(null);
  const [status, setStatus] = useState<StreamStatusMessage | null>(null);
  const [recorder, setRecorder] = useState<RecorderStatus | null>(null);
  const [hello, setHello] = useState<StreamHelloMessage | null>(null);
  const mapTiles = useMapTiles();
  const [closed, setClosed] = useState<{ code: number; reason: string } | null>(null);
  const [frame, setFrame] = useState<FrameView | null>(null);
  const [trackVersion, setTrackVersion] = useState(0);
  const [connection, setConnection] = useState(0);
  const [paused, setPaused] = useState(false);
  const [lastStep, setLastStep] = useState<StepResult | null>(null);
  const [snapshotError, setSnapshotError] = useState<string | null>(null);
  const track = useMemo(() => new TrackLog(), []);
  const telemetry = useMemo(() => new TelemetryLog(), []);
  const playback = useMemo(() => new ViewerPlayback(), []);
  const shownFrame = useRef<FrameView | null>(null);
  // Per stream start (hello): the KLV buffer and the media time to PTS mapping.
  const helloSeen = useRef(false);
  const timing = useRef<StreamTiming | null>(null);

  /**
   * The source's clocks started again (a looped file, a restarted encoder): mpegts.js would carry its time line on
   * across the jump, which then no longer maps to PTS. A new player on a new socket starts at media time 0 again.
   */
  const restartPlayer = useCallback(() => {
    timing.current = null;
    // The new connection's time line starts at 0 again.
    telemetry.clear();
    helloSeen.current = false;
    setConnection((count) => count + 1);
  }, []);

  useEffect(() => {
    fetchInfo().then(setInfo, (error: Error) => setInfoError(error.message));
    fetchRecorderState().then(setRecorder, () => undefined);
  }, []);

  const onMessage = useCallback((message: StreamMessage, arrivedMs: number) => {
    if (message.type === 'hello') {
      // A second hello: the module started this viewer over (its source's clocks started again).
      if (helloSeen.current) {
        restartPlayer();
        return;
      }
      helloSeen.current = true;
      probe.hello = message;
      probe.connections++;
      setHello(message);
      const start = message.startPts90kHz;
      timing.current =
        start === null
          ? null
          : {
              buffer: new KlvFrameBuffer(start),
              mapping: null,
              startPts90kHz: start,
              shown: null,
              clockJumps: message.videoPid === null ? null : new ClockJumpWatch(message.videoPid, start),
            };
    } else if (message.type === 'klv') {
      probe.klvReceived++;
      if (message.pts90kHz !== null) {
        probe.firstKlvPts90kHz ??= message.pts90kHz;
        probe.lastKlvPts90kHz = message.pts90kHz;
      }
      const current = timing.current;
      if (current !== null) {
        const entry = current.buffer.add(message, arrivedMs);
        if (entry.pts90kHz !== null) telemetry.add((entry.pts90kHz - current.startPts90kHz) / 90_000, message.values);
        // The muxer may put a frame's metadata after the frame's bytes: a late packet can be the one for the frame on screen.
        if (current.shown !== null) showFrame(current.shown);
      } else if (helloSeen.current) {
        // No video (hello without a start PTS): no frame to match, the panel shows the latest packet.
        probe.panelKlv = message;
        setFrame({ pts90kHz: null, elapsedS: null, klv: message, exact: false });
      }
      track.add(message.values);
      setTrackVersion((version) => version + 1);
    } else {
      setStatus(message);
      setRecorder(message.recorder);
    }
  }, []);

  const onBytes = useCallback((chunk: Uint8Array) => {
    if (timing.current?.clockJumps?.push(chunk)) restartPlayer();
  }, []);

  const onClose = useCallback((code: number, reason: string) => {
    probe.closed = { code, reason };
    setClosed({ code, reason });
  }, []);

  /** Picks the packet of the frame on screen and shows it; again when a packet comes in after its frame was shown. */
  const showFrame = useCallback((shown: ShownFrame) => {
    const found = timing.current?.buffer.forFrame(shown.pts90kHz, shown.arrivedMs) ?? null;
    const klv = found?.entry.message ?? null;
    const exact = found?.exact ?? false;
    const pts90kHz = wrapPts(shown.pts90kHz);
    const changed = probe.lastFrame?.mediaTime !== shown.mediaTimeS || probe.panelKlv !== klv;
    probe.lastFrame = { mediaTime: shown.mediaTimeS, pts90kHz, klvPts90kHz: klv?.pts90kHz ?? null, exact, elapsedS: shown.elapsedS };
    probe.panelKlv = klv;
    if (changed) {
      shownFrame.current = { pts90kHz, elapsedS: shown.elapsedS, klv, exact };
      setFrame(shownFrame.current);
    }
  }, []);

  const onFrame = useCallback((presented: PresentedFrame) => {
    probe.framesShown++;
    const current = timing.current;
    if (current === null) return;
    current.mapping ??= new MediaTimeMapping(current.startPts90kHz, presented.firstFrameMediaTimeS);
    probe.firstFrameMediaTime = presented.firstFrameMediaTimeS;
    current.shown = {
      mediaTimeS: presented.mediaTimeS,
      elapsedS: Math.round((presented.mediaTimeS - presented.firstFrameMediaTimeS) * 1000) / 1000,
      pts90kHz: current.mapping.ptsAt(presented.mediaTimeS),
      arrivedMs: presented.shownAtMs - presented.bufferedAheadS * 1000,
    };
    showFrame(current.shown);
  }, []);

  const onPausedChange = useCallback((isPaused: boolean) => {
    probe.paused = isPaused;
    setPaused(isPaused);
  }, []);

  const step = useCallback((by: 1 | -1) => {
    const result = playback.step(by);
    probe.lastStep = result;
    probe.frameDurationS = playback.frameDuration.seconds;
    setLastStep(result);
  }, []);

  const togglePlay = useCallback(() => {
    playback.togglePlay();
    probe.lastStep = null;
    setLastStep(null);
  }, []);

  const takeSnapshot = useCallback(() => {
    const video = playback.element;
    const shown = shownFrame.current;
    if (video === null || shown === null || shown.pts90kHz === null || shown.elapsedS === null || video.videoWidth === 0) {
      setSnapshotError('No frame on screen to take.');
      return;
    }
    const caption = snapshotCaption({ elapsedS: shown.elapsedS, pts90kHz: shown.pts90kHz, klv: shown.klv });
    snapshotPng(video, caption).then(
      (png) => {
        probe.snapshot = { caption, bytes: png.size };
        setSnapshotError(null);
        downloadBlob(png, `klvscope-frame-pts${shown.pts90kHz}.png`);
      },
      (error: Error) => setSnapshotError(`The snapshot failed: ${error.message}`),
    );
  }, []);

  const keyActions = useMemo(() => ({ togglePlay, step }), [togglePlay, step]);
  const { helpOpen, openHelp, closeHelp } = useViewerShortcuts(keyActions);

  const onTelemetryDrawn = useCallback((rows: number, cursorS: number | null) => {
    probe.telemetryRows = rows;
    probe.telemetryCursorS = cursorS;
  }, []);

  const onFrameShapes = useCallback((corners: number, lineOfSight: boolean) => {
    probe.footprintCorners = corners;
    probe.lineOfSight = lineOfSight;
  }, []);

  const onDrawn = useCallback((platformPoints: number, frameCentrePoints: number) => {
    probe.trackPointCount = platformPoints;
    probe.frameCentrePointCount = frameCentrePoints;
  }, []);

  const socketUrl = useMemo(() => streamSocketUrl(window.location), []);
  const handlers = useMemo(() => ({ onMessage, onBytes, onClose }), [onMessage, onBytes, onClose]);
  const notice = noticeOf(closed, hello, status, infoError);

  return (
    <main class="viewer">
      <header>
        <h1>klvscope</h1>
        <span class="channel">{[info?.channelName, status?.missionName ?? info?.missionName].filter(Boolean).join(' · ')}</span>
        <span class="resolution">{status?.videoResolution ?? info?.videoResolution ?? ''}</span>
      </header>
      <StatusLine info={info} status={status} recorder={recorder} />
      <div class="panels">
        <div class="video-column">
          <VideoPanel
            socketUrl={socketUrl}
            connection={connection}
            posterUrl={info?.poster ? encodeURI(info.poster) : null}
            notice={notice}
            handlers={handlers}
            onFrame={onFrame}
            onPausedChange={onPausedChange}
            playback={playback}
          />
          <FrameClock elapsedS={frame?.elapsedS ?? null} timestampMicros={frame?.klv?.values.timestampMicros ?? null} paused={paused} />
          <PlaybackBar
            paused={paused}
            lastStep={lastStep}
            frame={frame?.pts90kHz != null && frame.elapsedS !== null ? { elapsedS: frame.elapsedS, pts90kHz: frame.pts90kHz } : null}
            onTogglePlay={togglePlay}
            onStep={step}
            onSnapshot={takeSnapshot}
            onHelp={openHelp}
          />
          {snapshotError !== null && <p class="snapshot-error">{snapshotError}</p>}
          <TelemetryCharts log={telemetry} logVersion={trackVersion} cursorS={frame?.elapsedS ?? null} onDrawn={onTelemetryDrawn} />
        </div>
        <KlvPanel klv={frame?.klv ?? null} exact={frame?.exact ?? false} framePts90kHz={frame?.pts90kHz ?? null} />
        <TrackMap
          track={track}
          trackVersion={trackVersion}
          current={frame?.klv?.values ?? null}
          // Once the service has said how deep its tiles go: a layer made before would ask for tiles past them.
          tileUrl={mapTiles === undefined ? null : (hello?.mapTileUrl ?? null)}
          tileMaxNativeZoom={mapTiles?.url === hello?.mapTileUrl ? mapTiles?.maxNativeZoom : undefined}
          onDrawn={onDrawn}
          onFrameShapes={onFrameShapes}
        />
      </div>
      <RecorderControls enabled={info?.recorderEnabled ?? true} onRecorderState={setRecorder} />
      {helpOpen && <ShortcutHelp shortcuts={VIEWER_SHORTCUTS} onClose={closeHelp} />}
    </main>
  );
}

/** Why the picture is missing or stopped, in a sentence; null while all is well. */
function noticeOf(
  closed: { code: number; reason: string } | null,
  hello: StreamHelloMessage | null,
  status: StreamStatusMessage | null,
  infoError: string | null,
): string | null {
  if (closed !== null) {
    if (closed.code === VIEWER_LIMIT_CLOSE_CODE) return `The module refused this viewer: ${closed.reason || 'too many viewers, try again later'}.`;
    return `The stream ended (WebSocket closed, code ${closed.code}${closed.reason ? `: ${closed.reason}` : ''}). Reload the page to reconnect.`;
  }
  // The status is newer than the hello: a transcoder that failed or stalled after the start shows.
  const noPicture = status?.noPictureReason ?? hello?.noPictureReason;
  if (noPicture) return `No picture: ${noPicture}`;
  const source = status?.source;
  if (source && (source.state === 'silent' || source.state === 'failed')) return `Source ${source.state}${source.message ? `: ${source.message}` : ''}`;
  if (status && !status.streaming) return 'Streaming is stopped.';
  if (infoError !== null) return `The module did not answer: ${infoError}`;
  return null;
}
