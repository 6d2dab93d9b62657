/** The check page's keys (check-shortcuts.tsx) and the violation each step selects. */
import type { Shortcut } from '../../shared/shortcut.js';

export const CHECK_SHORTCUTS: ReadonlyArray<Shortcut> = [
  { keys: 'n  or  ]', does: 'next violation' },
  { keys: 'p  or  [', does: 'previous violation' },
  { keys: 'Space', does: 'play or pause the recording' },
  { keys: '?', does: 'show these keys' },
  { keys: 'Escape', does: 'hide them' },
];

/** The violation to select from `selectedRow` going `by` (rows in time order); the first or last when none is selected. */
export function steppedViolation(violationRows: Int32Array, selectedRow: number | null, by: 1 | -1): number | null {
  if (violationRows.length === 0) return null;
  const at = selectedRow === null ? -1 : violationRows.indexOf(selectedRow);
  if (at < 0) return by > 0 ? violationRows[0] : violationRows[violationRows.length - 1];
  const next = at + by;
  return next >= 0 && next < violationRows.length ? violationRows[next] : null;
}
