/**
 * The analysis archive (`GET /analysis/archive`): every file with cached
 * stages, by content hash, most recently updated first. An entry opens the
 * report of its file; deleting it (`DELETE /analysis/archive`) drops its
 * cached stages and ingest runs, so the next inspection reads the file anew.
 * Listed again whenever `reloadAfter` changes (a job on the page ended).
 */
import type { ApiClient } from '../api-client.js';
import { routeHash } from '../dashboard-route.js';
import { useApiData } from '../use-api-data.js';
import { formatByteSize } from './byte-size.js';
import { filesApi } from './files-api.js';
import { useListAction } from './list-action.js';
import { useReloadAfter } from './reload-after.js';
import { ListingPanel } from './listing-panel.js';
import { formatUtcTime } from './utc-time.js';

export function ArchivePanel({ api, reloadAfter = 0 }: { api: ApiClient; reloadAfter?: number }) {
  const entries = useApiData(() => filesApi.archive(api), [api]);
  useReloadAfter(reloadAfter, entries.reload);
  const deletion = useListAction(entries.reload);
  return (
    <ListingPanel
      name="archive"
      title="Analysis archive"
      list={entries}
      listing="list the archive"
      action={{ error: deletion.error, what: 'delete the entry' }}
      empty="Nothing analysed yet: inspect a recording above."
    >
      {(items) => {
        // A fleet's archive names the worker of each entry; a single node's has none to show.
        const byWorker = items.some((entry) => entry.worker !== undefined);
        return (
        <table class="data">
          <thead>
            <tr>
              <th>File</th>
              <th class="number">Size</th>
              <th>Stages cached</th>
              <th>Updated</th>
              {byWorker && <th>Worker</th>}
              <th>Hash</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {items.map((entry) => (
              <tr class="archive-entry" data-hash={entry.hash} data-path={entry.firstPath}>
                <td>
                  <a class="open-report" href={routeHash({ page: 'report', filePath: entry.firstPath })}>
                    {entry.firstPath}
                  </a>
                </td>
                <td class="number">{formatByteSize(entry.size)}</td>
                <td>{entry.stages.join(', ')}</td>
                <td>{formatUtcTime(entry.updatedMs)}</td>
                {byWorker && <td class="worker">{entry.worker ?? '—'}</td>}
                <td>
                  <code title={entry.hash}>{entry.hash.slice(0, 12)}…</code>
                </td>
                <td>
                  <button type="button" class="delete" aria-label={`delete the archive entry of ${entry.firstPath}`} onClick={() => deletion.run(() => filesApi.deleteArchiveEntry(api, entry.hash))}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        );
      }}
    </ListingPanel>
  );
}
