/**
 * The buttons under the picture: a frame back, play or pause, a frame
 * forward, the snapshot, the keys; and where a step could not go (the live
 * buffer's ends) or which frame it reached, to the millisecond.
 */
import { formatElapsed } from './elapsed-format.js';
import type { StepResult } from './viewer-playback.js';

export interface PlaybackBarProps {
  paused: boolean;
  /** The last step's outcome, null before one (or after playing on). */
  lastStep: StepResult | null;
  /** The frame on screen: seconds from the connection's first frame, and its PTS; null before a frame. */
  frame: { elapsedS: number; pts90kHz: number } | null;
  onTogglePlay: () => void;
  onStep: (by: 1 | -1) => void;
  onSnapshot: () => void;
  onHelp: () => void;
}

const STEP_NOTES: Record<StepResult, string> = {
  stepped: '',
  'at-buffer-start': 'the oldest frame the player keeps',
  'at-buffer-end': 'the newest frame received so far',
  'no-video': 'no video to step through',
};

export function PlaybackBar({ paused, lastStep, frame, onTogglePlay, onStep, onSnapshot, onHelp }: PlaybackBarProps) {
  return (
    <div class="playback-bar">
      <button type="button" data-action="step-back" title="previous frame (← or ,)" onClick={() => onStep(-1)}>
        ◀❘
      </button>
      <button type="button" data-action="play-pause" title="play or pause (Space)" onClick={onTogglePlay}>
        {paused ? '▶ Play' : '❚❚ Pause'}
      </button>
      <button type="button" data-action="step-forward" title="next frame (→ or .)" onClick={() => onStep(1)}>
        ❘▶
      </button>
      <button type="button" data-action="snapshot" title="save the frame with its time and metadata as a PNG" onClick={onSnapshot}>
        Snapshot
      </button>
      <button type="button" data-action="keys" title="keyboard shortcuts (?)" onClick={onHelp}>
        ?
      </button>
      {paused && frame !== null && (
        <span class="stepped-frame" data-field="stepped-frame">
          frame at {formatElapsed(frame.elapsedS, 3)} · PTS {frame.pts90kHz}
          {lastStep !== null && STEP_NOTES[lastStep] !== '' ? ` · ${STEP_NOTES[lastStep]}` : ''}
        </span>
      )}
    </div>
  );
}
