/** An action on an item of a listed panel (remove a source, delete an archive entry): the list is reloaded once it succeeded, its error kept to show if it failed. */
import { useState } from 'preact/hooks';

export function useListAction(reload: () => void): { error: Error | null; run: (action: () => Promise<unknown>) => void } {
  const [error, setError] = useState<Error | null>(null);
  const run = (action: () => Promise<unknown>) => {
    setError(null);
    action().then(reload, (failure: unknown) => setError(failure instanceof Error ? failure : new Error(String(failure))));
  };
  return { error, run };
}
