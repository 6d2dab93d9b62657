/**
 * A listed panel that goes stale when something else on the page changes
 * the service (a folder's verdict job adds its file to the archive):
 * `reload` runs each time `count` changes after the first render, the old
 * list shown until the new one answers (useApiData's reload).
 */
import { useEffect, useRef } from 'preact/hooks';

export function useReloadAfter(count: number, reload: () => void): void {
  const seen = useRef(count);
  useEffect(() => {
    if (count === seen.current) return;
    seen.current = count;
    reload();
  }, [count, reload]);
}
