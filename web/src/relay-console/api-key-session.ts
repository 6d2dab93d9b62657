/**
 * Where the console's key lives: it arrives in the URL fragment
 * (`#key=KEY`, which browsers never send to a server, as `klvscope relay`
 * prints it) or from the sign-in form, and is kept in sessionStorage (this
 * tab only, gone when it closes). The fragment leaves the address bar at
 * once, so the key is not left in history, bookmarks or a screenshot.
 */

const STORAGE_ITEM = 'klvscope.relayConsole.apiKey';

/** Takes `#key=KEY` out of the address bar (kept for the session); else the key kept earlier; else null. */
export function takeSessionKey(location: Location, history: History, storage: Storage): string | null {
  const fromFragment = new URLSearchParams(location.hash.replace(/^#/, '')).get('key');
  if (fromFragment !== null) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    if (fromFragment !== '') keepSessionKey(storage, fromFragment);
  }
  return storage.getItem(STORAGE_ITEM);
}

export function keepSessionKey(storage: Storage, key: string): void {
  storage.setItem(STORAGE_ITEM, key);
}

export function forgetSessionKey(storage: Storage): void {
  storage.removeItem(STORAGE_ITEM);
}
