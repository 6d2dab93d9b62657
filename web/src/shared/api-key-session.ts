/**
 * Where the dashboard keeps the API key: `klvscope serve` prints a sign-in
 * URL with the key in the fragment (`/#key=KEY`), which a browser never
 * sends to a server. The page takes it from there at once, removes it from
 * the address bar (history.replaceState, so it is not in the history either)
 * and keeps it in sessionStorage: for this tab, until it is closed.
 */

const STORAGE_NAME = 'klvscope.apiKey';

/** Takes a `#key=…` fragment off the address bar; returns the key it carried, if any (none when it is not valid percent-encoding: it is gone all the same). */
export function takeKeyFromFragment(location: Location, history: History): string | null {
  const match = /^#key=([^&]*)/.exec(location.hash);
  if (match === null) return null;
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
  let key: string;
  try {
    key = decodeURIComponent(match[1]).trim();
  } catch {
    return null;
  }
  return key === '' ? null : key;
}

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_NAME);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key === null) sessionStorage.removeItem(STORAGE_NAME);
    else sessionStorage.setItem(STORAGE_NAME, key);
  } catch {
    // Storage refused (private mode): the key lives as long as the page.
  }
}
