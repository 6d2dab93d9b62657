/**
 * The check page's keyboard: n and p (or ] and [) select the next and the
 * previous violation in time (the video seeks there, as a click would),
 * Space plays or pauses the recording, ? shows the keys and Escape hides
 * them. Keys typed into a field, or with a modifier, are the field's or the
 * browser's.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { CHECK_SHORTCUTS, steppedViolation } from './check-shortcut-keys.js';

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Listens for the keys while the page is shown; whether the help is open. */
export function useCheckShortcuts(violationRows: Int32Array, selectedRow: number | null, select: (row: number) => void): { helpOpen: boolean; closeHelp: () => void } {
  const [helpOpen, setHelpOpen] = useState(false);
  // Keys can come faster than the page renders (a held key repeats): each
  // step goes from the row the previous one selected, not from the last render's.
  const latestRow = useRef(selectedRow);
  latestRow.current = selectedRow;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
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

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  return (
    <section class="shortcut-help" aria-label="Keyboard shortcuts">
      <h2>Keys</h2>
      <table class="data">
        <tbody>
          {CHECK_SHORTCUTS.map((shortcut) => (
            <tr class="shortcut">
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" class="close-help" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
