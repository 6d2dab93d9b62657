/**
 * The compare page (`#/compare?a=PATH&b=PATH`): two recordings side by side
 * (GET /compare), such as the recording before and after a change of
 * encoder or link. The two paths are fields of the page; comparing puts
 * them in the address, so a comparison can be bookmarked. A file not yet
 * inspected is inspected by the service first, which the page says.
 */
import '../compare/compare.css';
import '../report/report.css';
import { useState } from 'preact/hooks';
import { loadComparison } from '../compare/compare-api.js';
import { ComparisonView } from '../compare/comparison-view.js';
import type { DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import type { PageProps } from '../page-props.js';
import { useApiData } from '../use-api-data.js';

export function ComparePage({ api, route, navigate }: PageProps<Extract<DashboardRoute, { page: 'compare' }>>) {
  const [a, setA] = useState(route.a);
  const [b, setB] = useState(route.b);
  const ready = route.a !== '' && route.b !== '';
  return (
    <div class="compare-page">
      <p class="breadcrumb">
        <a href="#/files">Files</a> › Compare two recordings
      </p>
      <section class="panel">
        <form
          class="compare-form"
          onSubmit={(event) => {
            event.preventDefault();
            navigate({ page: 'compare', a: a.trim(), b: b.trim() });
          }}
        >
          <label for="compare-a">A</label>
          <input id="compare-a" name="a" value={a} placeholder="/path/of/the/first/recording.ts" onInput={(event) => setA(event.currentTarget.value)} />
          <label for="compare-b">B</label>
          <input id="compare-b" name="b" value={b} placeholder="/path/of/the/second/recording.ts" onInput={(event) => setB(event.currentTarget.value)} />
          <button type="submit" disabled={a.trim() === '' || b.trim() === ''}>
            Compare
          </button>
        </form>
      </section>
      {ready && <LoadedComparison api={api} a={route.a} b={route.b} />}
    </div>
  );
}

function LoadedComparison({ api, a, b }: { api: PageProps['api']; a: string; b: string }) {
  const comparison = useApiData(() => loadComparison(api, a, b), [api, a, b]);
  return (
    <div class="comparison" data-state={comparison.state}>
      {comparison.state === 'loading' && <p class="loading">Comparing (a file not inspected under the current rules is inspected first)…</p>}
      {comparison.state === 'failed' && <ErrorNotice error={comparison.error} what="compare the two recordings" />}
      {comparison.state === 'loaded' && <ComparisonView comparison={comparison.data} />}
    </div>
  );
}
