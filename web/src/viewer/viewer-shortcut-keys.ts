/** The viewer's keys (viewer-shortcuts.tsx), as its help lists them. */
import type { Shortcut } from '../shared/shortcut.js';

export const VIEWER_SHORTCUTS: ReadonlyArray<Shortcut> = [
  { keys: 'Space', does: 'play or pause the video' },
  { keys: '→  or  .', does: 'next frame (pauses)' },
  { keys: '←  or  ,', does: 'previous frame (pauses)' },
  { keys: '?', does: 'show these keys' },
  { keys: 'Escape', does: 'hide them' },
];
