/**
 * Live events come many a second (metadata 30 times): a page is drawn again
 * at most every REDRAW_MS after a change, which keeps an event on screen
 * well within a second of its arrival.
 */
const REDRAW_MS = 100;

export interface RedrawCue {
  /** A log changed: draw again within REDRAW_MS. */
  changed(): void;
  cancel(): void;
}

/** `redraw` is called at most once per REDRAW_MS, and only after a change. */
export function redrawCue(redraw: () => void): RedrawCue {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    changed() {
      timer ??= setTimeout(() => {
        timer = null;
        redraw();
      }, REDRAW_MS);
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
