/**
 * Queues a folder as a batch (POST /automation/batch) and follows it
 * (GET /automation/batch/{id}) with a bar of the jobs ended, until all have.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.js';
import { ErrorNotice } from '../error-notice.js';
import type { BatchState, QueuedBatch } from './fleet-wire.js';

export function BatchForm({ api }: { api: ApiClient }) {
  const [folder, setFolder] = useState('');
  const [glob, setGlob] = useState('');
  const [queued, setQueued] = useState<QueuedBatch | null>(null);
  const [state, setState] = useState<BatchState | null>(null);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    if (queued === null || state?.done) return;
    const timer = setTimeout(() => {
      api.get<BatchState>(`/automation/batch/${queued.batch}`).then(setState, (e: unknown) => setError(e as Error));
    }, 1000);
    return () => clearTimeout(timer);
  }, [api, queued, state]);

  const submit = (event: Event) => {
    event.preventDefault();
    setError(null);
    setState(null);
    api.post<QueuedBatch>('/automation/batch', glob.trim() === '' ? { folder } : { folder, glob }).then(setQueued, (e: unknown) => setError(e as Error));
  };

  const ended = state === null ? 0 : state.counts.completed + state.counts.failed + state.counts.cancelled;
  return (
    <section class="panel batch">
      <h2>Inspect a folder on the fleet</h2>
      <form class="batch-form" onSubmit={submit}>
        <label>
          Folder <input name="folder" value={folder} placeholder="/archive/2026-11 (under a browse root)" onInput={(e) => setFolder(e.currentTarget.value)} required />
        </label>
        <label>
          Files <input name="glob" value={glob} placeholder="**/*.{ts,m2ts,mts,trp,tsv}" onInput={(e) => setGlob(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={folder.trim() === ''}>
          Queue
        </button>
      </form>
      {error !== null && <ErrorNotice error={error} what="queue the batch" />}
      {queued !== null && (
        <div class="batch-progress" data-batch={queued.batch}>
          <progress max={Math.max(queued.queued, 1)} value={ended} />
          <span>
            {ended} of {queued.queued} recordings done
            {state !== null && state.counts.failed > 0 && <strong class="bad">, {state.counts.failed} failed</strong>}
            {state?.done && ' — the batch has ended'}
          </span>
        </div>
      )}
    </section>
  );
}
