/**
 * A recording played through its playback URL: mpegts.js fetches the file
 * over HTTP (its own loader, Range requests; the URL's token is the
 * credential, so no key is sent) and plays it through Media Source
 * Extensions, as the viewer does with the module's stream. Every frame put
 * on screen is reported with its media time (requestVideoFrameCallback). A
 * seek request pauses on the frame at that media time once it is buffered.
 * The whole file stays buffered (no clean-up), so any moment can be shown.
 */
import mpegts from 'mpegts.js';
import { useEffect, useRef } from 'preact/hooks';

export interface SeekRequest {
  mediaTimeS: number;
  /** A new number for each request, so the same time can be asked for twice. */
  serial: number;
}

export interface RecordingVideoProps {
  url: string;
  seek: SeekRequest | null;
  /** Where mpegts.js's time line starts (the first access unit's media time), once known. */
  onTimeline: (firstMediaTimeS: number) => void;
  onFrame: (mediaTimeS: number) => void;
  onError: (message: string) => void;
}

/** How long a seek waits for its moment to be buffered. */
const SEEK_WAIT_MS = 20_000;

export function RecordingVideo({ url, seek, onTimeline, onFrame, onError }: RecordingVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const latest = useRef({ onTimeline, onFrame, onError });
  latest.current = { onTimeline, onFrame, onError };

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const player = mpegts.createPlayer(
      { type: 'mpegts', isLive: false, url: new URL(url, window.location.href).href },
      { enableWorker: false, lazyLoad: false, autoCleanupSourceBuffer: false, seekType: 'range' },
    );
    player.on(mpegts.Events.ERROR, (type: string, detail: string, info?: { msg?: string }) => {
      latest.current.onError(`the player failed (${type}: ${detail}${info?.msg ? `, ${info.msg}` : ''})`);
    });
    // The media element fails on its own when the bytes hold no picture the browser can decode (mpegts.js reports nothing then).
    const onMediaError = () => latest.current.onError(`the browser could not decode the video (${video.error?.message ?? 'no reason given'})`);
    video.addEventListener('error', onMediaError);
    player.attachMediaElement(video);
    player.load();
    let timelineKnown = false;
    const onProgress = () => {
      if (timelineKnown || video.buffered.length === 0) return;
      timelineKnown = true;
      latest.current.onTimeline(video.buffered.start(0));
    };
    video.addEventListener('progress', onProgress);
    video.addEventListener('loadeddata', onProgress);
    let callbackId = 0;
    const onVideoFrame = (_now: number, metadata: VideoFrameCallbackMetadata) => {
      onProgress();
      latest.current.onFrame(metadata.mediaTime);
      callbackId = video.requestVideoFrameCallback(onVideoFrame);
    };
    callbackId = video.requestVideoFrameCallback(onVideoFrame);
    return () => {
      video.removeEventListener('error', onMediaError);
      video.removeEventListener('progress', onProgress);
      video.removeEventListener('loadeddata', onProgress);
      video.cancelVideoFrameCallback(callbackId);
      player.destroy();
    };
  }, [url]);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || seek === null) return;
    const started = performance.now();
    const timer = window.setInterval(() => {
      const { buffered } = video;
      // A moment before the first frame shows the first frame (the video starts after the first PCR).
      const target = buffered.length > 0 ? Math.max(seek.mediaTimeS, buffered.start(0)) : seek.mediaTimeS;
      let inBuffer = false;
      for (let i = 0; i < buffered.length; i++) if (buffered.start(i) <= target && target <= buffered.end(i)) inBuffer = true;
      if (!inBuffer && performance.now() - started < SEEK_WAIT_MS) return;
      window.clearInterval(timer);
      video.pause();
      video.currentTime = target;
    }, 50);
    return () => window.clearInterval(timer);
  }, [seek]);

  return <video ref={videoRef} class="recording-video" controls muted playsInline />;
}
