/**
 * Data a page reads again and again (every `intervalMs` after the previous
 * answer, so slow answers never pile up): the latest answer stays on screen
 * while a later read fails, beside that failure. An error that `isFinal`
 * names (a service that is no hub stays one until restarted) ends the
 * polling. A refused key goes to the dashboard's sign-in gate, as in
 * use-api-data.ts.
 */
import { useEffect, useState } from 'preact/hooks';
import { isAuthError } from './api-client.js';

export interface PolledData<T> {
  /** The latest answer, or null before the first. */
  data: T | null;
  /** Why the latest read failed, or null when it did not. */
  error: Error | null;
}

export function usePolledData<T>(load: () => Promise<T>, intervalMs: number, inputs: readonly unknown[], isFinal: (error: Error) => boolean = () => false): PolledData<T> {
  const [polled, setPolled] = useState<PolledData<T>>({ data: null, error: null });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    setPolled({ data: null, error: null });
    const read = (): void => {
      load().then(
        (data) => {
          if (stopped) return;
          setPolled({ data, error: null });
          timer = setTimeout(read, intervalMs);
        },
        (thrown: unknown) => {
          if (stopped) return;
          const error = thrown instanceof Error ? thrown : new Error(String(thrown));
          // Rethrown unhandled on purpose: the dashboard's gate listens for it.
          if (isAuthError(error)) void Promise.reject(error);
          setPolled((old) => ({ data: old.data, error }));
          if (!isFinal(error) && !isAuthError(error)) timer = setTimeout(read, intervalMs);
        },
      );
    };
    read();
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    };
    // The caller names the inputs the load depends on.
  }, inputs);
  return polled;
}
