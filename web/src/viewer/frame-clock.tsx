/**
 * The viewer's own time display, under the picture. The module's stream is
 * live MPEG-TS: it has no duration, so a browser's own controls would read
 * `0:00 / 0:00` (mpegts.js gives the media element none). What the page
 * knows for sure is said instead: that it is live, how much video this
 * viewer has been shown (the frame's PTS less the PTS its stream started
 * with), and the frame's time of day from its metadata (ST 0601 item 2).
 */
import { formatElapsed } from './elapsed-format.js';
import { formatTimestampMicros } from './klv-value-format.js';

export interface FrameClockProps {
  /** Seconds of video from this viewer's first access unit to the frame on screen; null before a frame. */
  elapsedS: number | null;
  /** ST 0601 item 2 of the frame's metadata packet, microseconds since the epoch; null without one. */
  timestampMicros: number | null;
  /** The video element is paused (the stream goes on behind it). */
  paused: boolean;
}

export function FrameClock({ elapsedS, timestampMicros, paused }: FrameClockProps) {
  return (
    <p class="frame-clock">
      <span class={paused ? 'live-badge live-paused' : 'live-badge'} data-field="live">
        {paused ? 'LIVE · paused' : 'LIVE'}
      </span>
      <span data-field="elapsed" data-elapsed-s={elapsedS ?? undefined} title="video shown since this viewer joined the stream (from the frames' PTS)">
        {elapsedS === null ? '—' : formatElapsed(elapsedS)}
      </span>
      <span data-field="frame-time" title="ST 0601 time stamp of the frame on screen">
        {timestampMicros === null ? 'no time stamp' : formatTimestampMicros(timestampMicros).replace('T', ' ')}
      </span>
    </p>
  );
}
