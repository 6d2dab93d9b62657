/**
 * The viewer's keyboard: Space plays or pauses, the arrow keys (or , and .)
 * step a frame back or forward (pausing first), ? shows the keys and Escape
 * hides them. Keys typed into a field (the recorder's credentials), or with
 * a modifier, are the field's or the browser's.
 */
import { useEffect, useState } from 'preact/hooks';
import { isTypingInto } from '../shared/shortcut-help.js';

export interface ViewerKeyActions {
  togglePlay: () => void;
  step: (by: 1 | -1) => void;
}

/** Listens for the keys while the page is shown; whether the help is open. */
export function useViewerShortcuts(actions: ViewerKeyActions): { helpOpen: boolean; openHelp: () => void; closeHelp: () => void } {
  const [helpOpen, setHelpOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTypingInto(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === ' ' && !(event.target instanceof HTMLButtonElement)) actions.togglePlay();
      else if (event.key === 'ArrowRight' || event.key === '.') actions.step(1);
      else if (event.key === 'ArrowLeft' || event.key === ',') actions.step(-1);
      else if (event.key === '?') setHelpOpen(true);
      else if (event.key === 'Escape') setHelpOpen(false);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
  return { helpOpen, openHelp: () => setHelpOpen(true), closeHelp: () => setHelpOpen(false) };
}
