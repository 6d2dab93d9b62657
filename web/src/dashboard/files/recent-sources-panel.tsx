/**
 * The sources opened lately (`GET /sources/recent`: files of file sessions,
 * live feeds), most recent first, each removable (`DELETE /sources/{id}`).
 * A file opens its report or is inspected again; a feed is started from the
 * live page.
 */
import type { ApiClient } from '../api-client.js';
import { routeHash } from '../dashboard-route.js';
import { useApiData } from '../use-api-data.js';
import { filesApi } from './files-api.js';
import { useListAction } from './list-action.js';
import { ListingPanel } from './listing-panel.js';
import { formatUtcTime } from './utc-time.js';

export function RecentSourcesPanel({ api, onInspect }: { api: ApiClient; onInspect: (filePath: string) => void }) {
  const sources = useApiData(() => filesApi.recentSources(api), [api]);
  const removal = useListAction(sources.reload);
  return (
    <ListingPanel
      name="recent-sources"
      title="Recent sources"
      list={sources}
      listing="list the recent sources"
      action={{ error: removal.error, what: 'remove the source' }}
      empty="No source opened yet: a file session or a live session adds its source here."
    >
      {(items) => (
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
            {items.map((source) => (
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
                  <button type="button" class="remove" aria-label={`remove ${source.source} from the recent sources`} onClick={() => removal.run(() => filesApi.removeRecentSource(api, source.id))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListingPanel>
  );
}
