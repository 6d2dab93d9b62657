/**
 * A page's keyboard help (the dashboard's check view, the stream viewer):
 * the keys and what each does, over the page at its top right, shown with ?
 * and hidden with Escape or its button. Each page lists its own keys.
 */
import './shortcut-help.css';
import type { Shortcut } from './shortcut.js';

/** A key typed into a field is the field's, not a shortcut. */
export function isTypingInto(target: EventTarget | null): boolean {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function ShortcutHelp({ shortcuts, onClose }: { shortcuts: ReadonlyArray<Shortcut>; onClose: () => void }) {
  return (
    <div class="shortcut-help" role="dialog" aria-label="Keyboard shortcuts">
      <h2>Keys</h2>
      <table class="data">
        <tbody>
          {shortcuts.map((shortcut) => (
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
    </div>
  );
}
