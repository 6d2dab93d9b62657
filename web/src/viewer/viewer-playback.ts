/**
 * Play, pause and frame step of the viewer's video element. The stream is
 * live: while paused the module's bytes go on filling the buffer, so a step
 * forward can go as far as what has arrived, a step back as far as what the
 * player still keeps (mpegts.js drops what is minutes behind). A pause asked
 * for before the player has started holds: the page's start on enough
 * buffer (video-panel.tsx) asks `mayStart` first.
 */
import { FrameDuration } from './frame-duration.js';

/** Where a step lands within the frame it goes to: a quarter frame in, away from the edges a millisecond grid rounds across. */
const INTO_FRAME = 0.25;

export type StepResult = 'stepped' | 'at-buffer-start' | 'at-buffer-end' | 'no-video';

export class ViewerPlayback {
  private video: HTMLVideoElement | null = null;
  private pausedByViewer = false;
  /** The media time of the frame on screen (requestVideoFrameCallback), null before one. */
  private frameMediaTimeS: number | null = null;
  readonly frameDuration = new FrameDuration();

  attach(video: HTMLVideoElement | null): void {
    this.video = video;
    this.frameMediaTimeS = null;
  }

  /** The player's start on enough buffer: not when the viewer paused first. */
  get mayStart(): boolean {
    return !this.pausedByViewer;
  }

  /** The video element, for a snapshot of its frame; null before the player. */
  get element(): HTMLVideoElement | null {
    return this.video;
  }

  get paused(): boolean {
    return this.video?.paused ?? true;
  }

  /** Every frame put on screen: where the steps go from, and (while playing) how long a frame lasts. */
  presented(mediaTimeS: number): void {
    this.frameMediaTimeS = mediaTimeS;
    this.frameDuration.presented(this.video !== null && !this.video.paused ? mediaTimeS : null);
  }

  pause(): void {
    this.pausedByViewer = true;
    this.video?.pause();
  }

  play(): void {
    this.pausedByViewer = false;
    void this.video?.play().catch(() => undefined);
  }

  togglePlay(): void {
    if (this.paused && this.video !== null) this.play();
    else this.pause();
  }

  /** Pauses, and shows the next (`by` 1) or the previous (-1) frame, within what is buffered. */
  step(by: 1 | -1): StepResult {
    const video = this.video;
    if (video === null || this.frameMediaTimeS === null || video.buffered.length === 0) return 'no-video';
    this.pause();
    const frameS = this.frameDuration.seconds;
    const target = this.frameMediaTimeS + by * frameS + INTO_FRAME * frameS;
    const range = bufferedRangeAround(video.buffered, this.frameMediaTimeS);
    if (range === null) return 'no-video';
    if (target < range.start) return 'at-buffer-start';
    if (target > range.end - INTO_FRAME * frameS) return 'at-buffer-end';
    video.currentTime = target;
    return 'stepped';
  }
}

/** The buffered range that holds `timeS` (or the nearest one): steps stay within it. */
function bufferedRangeAround(buffered: TimeRanges, timeS: number): { start: number; end: number } | null {
  let nearest: { start: number; end: number; distance: number } | null = null;
  for (let i = 0; i < buffered.length; i++) {
    const start = buffered.start(i);
    const end = buffered.end(i);
    const distance = timeS < start ? start - timeS : timeS > end ? timeS - end : 0;
    if (nearest === null || distance < nearest.distance) nearest = { start, end, distance };
  }
  return nearest;
}
