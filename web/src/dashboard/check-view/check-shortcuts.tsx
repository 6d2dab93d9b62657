/**
 * The check page's keyboard: n and p (or ] and [) select the next and the
 * previous violation in time (the video seeks there, as a click would),
 * Space plays or pauses the recording, ? shows the keys and Escape hides
 * them. Keys typed into a field, or with a modifier, are the field's or the
 * browser's.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { isTypingInto } from '../../shared/shortcut-help.js';
import { steppedViolation } from './check-shortcut-keys.js';

/** Listens for the keys while the page is shown; whether the help is open. */
export function useCheckShortcuts(violationRows: Int32Array, selectedRow: number | null, select: (row: number) => void): { helpOpen: boolean; closeHelp: () => void } {
  const [helpOpen, setHelpOpen] = useState(false);
  // Keys can come faster than the page renders (a held key repeats): each
  // step goes from the row the previous one selected, not from the last render's.
  const latestRow = useRef(selectedRow);
  latestRow.current = selectedRow;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTypingInto(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
      const step = event.key === 'n' || event.key === ']' ? 1 : event.key === 'p' || event.key === '[' ? -1 : 0;
      if (step !== 0) {
        const row = steppedViolation(violationRows, latestRow.current, step);
        if (row !== null) {
          latestRow.current = row;
          select(row);
        }
      } else if (event.key === ' ' && !(event.target instanceof HTMLButtonElement) && !(event.target instanceof HTMLTableRowElement)) {
        const video = document.querySelector<HTMLVideoElement>('video.recording-video');
        if (video === null) return;
        if (video.paused) void video.play().catch(() => undefined);
        else video.pause();
      } else if (event.key === '?') setHelpOpen(true);
      else if (event.key === 'Escape') setHelpOpen(false);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [violationRows, select]);
  return { helpOpen, closeHelp: () => setHelpOpen(false) };
}
