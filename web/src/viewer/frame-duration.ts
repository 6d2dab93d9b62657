/**
 * How long a frame of the live video lasts, learnt from the frames put on
 * screen while playing: the median gap between consecutive media times
 * (mpegts.js keeps whole milliseconds, so a 30 fps stream shows 33 and 34 ms
 * gaps; a dropped frame shows a double gap, which the median ignores).
 */

/** Before any gap is seen: 30 frames a second, the commonest STANAG 4609 rate. */
const DEFAULT_FRAME_S = 1 / 30;
const GAPS_KEPT = 31;
/** Gaps outside this range are seeks or stalls, not frames (a 1 fps feed's frame is a second long). */
const MIN_GAP_S = 0.004;
const MAX_GAP_S = 1.5;

export class FrameDuration {
  private readonly gaps: number[] = [];
  private lastMediaTimeS: number | null = null;

  /** A frame shown while playing; `null` breaks the chain (a pause, a seek: the next gap is not a frame's). */
  presented(mediaTimeS: number | null): void {
    if (mediaTimeS !== null && this.lastMediaTimeS !== null) {
      const gap = mediaTimeS - this.lastMediaTimeS;
      if (gap >= MIN_GAP_S && gap <= MAX_GAP_S) {
        this.gaps.push(gap);
        if (this.gaps.length > GAPS_KEPT) this.gaps.shift();
      }
    }
    this.lastMediaTimeS = mediaTimeS;
  }

  /** Seconds. */
  get seconds(): number {
    if (this.gaps.length === 0) return DEFAULT_FRAME_S;
    const sorted = [...this.gaps].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }
}
