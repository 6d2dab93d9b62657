/** A page's keyboard shortcut as its help lists it (shortcut-help.tsx). */
export interface Shortcut {
  keys: string;
  does: string;
}
