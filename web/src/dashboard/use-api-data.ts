/**
 * Loading data for a page: the state of one request (loading, its data or
 * its error) and a reload. A request still in flight when its inputs change
 * is ignored when it answers, so a page never shows an older answer over a
 * newer one. A refused key goes to the dashboard's sign-in gate (unhandled
 * rejection of an auth error, see dashboard-app.tsx).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { isAuthError } from './api-client.js';

export type ApiData<T> = { state: 'loading' } | { state: 'loaded'; data: T } | { state: 'failed'; error: Error };

export function useApiData<T>(load: () => Promise<T>, inputs: readonly unknown[]): ApiData<T> & { reload: () => void } {
  const [data, setData] = useState<ApiData<T>>({ state: 'loading' });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    load().then(
      (value) => {
        if (mine === generation.current) setData({ state: 'loaded', data: value });
      },
      (error: unknown) => {
        if (mine !== generation.current) return;
        // Rethrown unhandled on purpose: the dashboard's gate listens for it.
        if (isAuthError(error)) void Promise.reject(error instanceof Error ? error : new Error(String(error)));
        setData({ state: 'failed', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    // The caller names the inputs the load depends on.
  }, inputs);
  useEffect(() => {
    setData({ state: 'loading' });
    run();
  }, [run]);
  return { ...data, reload: run };
}
