/**
 * Where the console's key lives: it arrives in the URL fragment
 * (`#key=KEY`, which browsers never send to a server, as `klvscope relay`
 * prints it) or from the sign-in form, and once the relay accepts it, it is
 * kept in sessionStorage (this tab only, gone when it closes). The fragment
 * leaves the address bar at once, so the key is not left in history,
 * bookmarks or a screenshot.
 */

const STORAGE_ITEM = 'klvscope.relayConsole.apiKey';

/** The key of `#key=KEY`, taken out of the address bar; null when the fragment has none. */
export function takeFragmentKey(location: Location, history: History): string | null {
  const key = new URLSearchParams(location.hash.replace(/^#/, '')).get('key');
  if (key === null) return null;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  return key === '' ? null : key;
}

export function keptSessionKey(storage: Storage): string | null {
  return storage.getItem(STORAGE_ITEM);
}

export function keepSessionKey(storage: Storage, key: string): void {
  storage.setItem(STORAGE_ITEM, key);
}

export function forgetSessionKey(storage: Storage): void {
  storage.removeItem(STORAGE_ITEM);
}
