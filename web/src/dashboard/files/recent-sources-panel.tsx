/**
 * The sources opened lately (`GET /sources/recent`: files of file sessions,
 * live feeds), most recent first, each removable (`DELETE /sources/{id}`).
 * A file opens its report; a feed is started from the live page.
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api-client.js';
import { routeHash } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import { useApiData } from '../use-api-data.js';
import { filesApi } from './files-api.js';
import { formatUtcTime } from './utc-time.js';

export function RecentSourcesPanel({ api, onInspect }: { api: ApiClient; onInspect: (filePath: string) => void }) {
  const sources = useApiData(() => filesApi.recentSources(api), [api]);
  const [removeError, setRemoveError] = useState<Error | null>(null);
  const remove = (id: string) => {
    setRemoveError(null);
    filesApi.removeRecentSource(api, id).then(sources.reload, (error: unknown) => setRemoveError(error as Error));
  };
  return (
    <section class="panel recent-sources">
      <h2>Recent sources</h2>
      {sources.state === 'loading' && <p class="loading">loading…</p>}
      {sources.state === 'failed' && <ErrorNotice error={sources.error} what="list the recent sources" />}
      {removeError !== null && <ErrorNotice error={removeError} what="remove the source" />}
      {sources.state === 'loaded' && sources.data.length === 0 && <p class="empty">No source opened yet: a file session or a live session adds its source here.</p>}
      {sources.state === 'loaded' && sources.data.length > 0 && (
        <table class="data">
          <thead>
            <tr>
              <th>Source</th>
              <th>Kind</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sources.data.map((source) => (
              <tr class="recent-source" data-id={source.id} data-source={source.source}>
                <td>{source.kind === 'file' ? <a href={routeHash({ page: 'report', filePath: source.source })}>{source.source}</a> : <code>{source.source}</code>}</td>
                <td>{source.kind}</td>
                <td>{formatUtcTime(source.lastUsedAt)}</td>
                <td class="actions">
                  {source.kind === 'file' && (
                    <button type="button" class="inspect" onClick={() => onInspect(source.source)}>
                      Inspect
                    </button>
                  )}
                  <button type="button" class="remove" aria-label={`remove ${source.source} from the recent sources`} onClick={() => remove(source.id)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
