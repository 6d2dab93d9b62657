/**
 * The live video: mpegts.js plays the `/stream` socket's MPEG-TS through
 * Media Source Extensions, in live mode with latency chasing, and reports
 * every frame put on screen (requestVideoFrameCallback) with its media time.
 * The poster shows until the first frame; `notice` covers the picture with
 * why there is none.
 */
import mpegts from 'mpegts.js';
import { useEffect, useRef } from 'preact/hooks';
import { livePlayerConfig, START_BUFFER_S } from './player-settings.js';
import { streamLoaderFor, type StreamSocketHandlers } from './stream-loader.js';
import type { ViewerPlayback } from './viewer-playback.js';

export interface PresentedFrame {
  /** The frame's media time, seconds. */
  mediaTimeS: number;
  /** Where the video buffer started when the first frame was shown: the first access unit's media time. */
  firstFrameMediaTimeS: number;
  /** performance.now() when it was shown. */
  shownAtMs: number;
  /** Seconds of video buffered ahead of it: roughly how long ago its bytes arrived. */
  bufferedAheadS: number;
}

export interface VideoPanelProps {
  socketUrl: string;
  /** A new value makes a new player on a new socket. */
  connection: number;
  posterUrl: string | null;
  notice: string | null;
  handlers: StreamSocketHandlers;
  onFrame: (frame: PresentedFrame) => void;
  /** The video element paused or played (by the page, a test or the browser). */
  onPausedChange: (paused: boolean) => void;
  /** Play, pause and step (the page's buttons and keys): given the video element, told of every frame shown. */
  playback: ViewerPlayback;
}

export function VideoPanel({ socketUrl, connection, posterUrl, notice, handlers, onFrame, onPausedChange, playback }: VideoPanelProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  // The player lives as long as the panel; it calls whatever handlers the latest render gave.
  const latest = useRef({ handlers, onFrame, onPausedChange });
  latest.current = { handlers, onFrame, onPausedChange };

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const loader = streamLoaderFor({
      onMessage: (message, arrivedMs) => latest.current.handlers.onMessage(message, arrivedMs),
      onBytes: (chunk) => latest.current.handlers.onBytes(chunk),
      onClose: (code, reason) => latest.current.handlers.onClose(code, reason),
    });
    const player = mpegts.createPlayer({ type: 'mpegts', isLive: true, url: socketUrl }, livePlayerConfig(loader));
    player.attachMediaElement(video);
    player.load();
    playback.attach(video);
    // Start with some video buffered: a frame's metadata may come after the frame's bytes (the muxer's order, and the
    // module sends a packet once decoded), and should be there when the frame is shown. Latency chasing keeps it low after.
    const startWhenBuffered = window.setInterval(() => {
      const buffered = video.buffered;
      if (buffered.length === 0 || buffered.end(buffered.length - 1) - video.currentTime < START_BUFFER_S) return;
      window.clearInterval(startWhenBuffered);
      // Not when the viewer paused before the start: the pause holds.
      if (playback.mayStart) video.play().catch(() => undefined);
    }, 50);

    const onPauseOrPlay = () => latest.current.onPausedChange(video.paused);
    video.addEventListener('pause', onPauseOrPlay);
    video.addEventListener('play', onPauseOrPlay);
    let firstFrameMediaTimeS: number | null = null;
    let callbackId = 0;
    const onVideoFrame = (now: number, metadata: VideoFrameCallbackMetadata) => {
      if (firstFrameMediaTimeS === null) firstFrameMediaTimeS = video.buffered.length > 0 ? video.buffered.start(0) : metadata.mediaTime;
      const buffered = video.buffered;
      const bufferedAheadS = buffered.length > 0 ? Math.max(0, buffered.end(buffered.length - 1) - metadata.mediaTime) : 0;
      playback.presented(metadata.mediaTime);
      latest.current.onFrame({ mediaTimeS: metadata.mediaTime, firstFrameMediaTimeS, shownAtMs: now, bufferedAheadS });
      callbackId = video.requestVideoFrameCallback(onVideoFrame);
    };
    callbackId = video.requestVideoFrameCallback(onVideoFrame);
    return () => {
      window.clearInterval(startWhenBuffered);
      video.removeEventListener('pause', onPauseOrPlay);
      video.removeEventListener('play', onPauseOrPlay);
      video.cancelVideoFrameCallback(callbackId);
      player.destroy();
      playback.attach(null);
    };
  }, [socketUrl, connection, playback]);

  return (
    <section class="video-panel">
      <video ref={videoRef} muted playsInline poster={posterUrl ?? undefined} />
      {notice !== null && <p class="video-notice">{notice}</p>}
    </section>
  );
}
