/**
 * The KLV packets page (`#/klv?file=PATH`): every KLV packet of the file's
 * latest ingest run, a page of rows at a time (the `klv/packets` dataset),
 * and the packet chosen opened below: its items with units and its bytes in
 * hex, the item pointed at lit in both. ↑ and ↓ (or j and k) choose the
 * previous and next packet, across pages. Export buttons save the KLV
 * datasets whole.
 */
import '../klv/klv-packets.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { DatasetExportButtons } from '../dataset-download.js';
import { routeHash, type DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import { KlvPacketDetail } from '../klv/klv-packet-detail.js';
import { loadKlvPackets } from '../klv/klv-packets-api.js';
import type { PageProps } from '../page-props.js';
import { pidLabel } from '../report/pid-label.js';
import { loadReport } from '../report/report-api.js';
import { useApiData } from '../use-api-data.js';
import { formatStreamSeconds } from '../../shared/stream-time-format.js';

/** Rows a page of the table holds. */
export const KLV_PACKETS_PER_PAGE = 50;

export function KlvPacketsPage({ api, route }: PageProps<Extract<DashboardRoute, { page: 'klv' }>>) {
  const { filePath } = route;
  const report = useApiData(() => loadReport(api, filePath), [api, filePath]);
  return (
    <div class="klv-packets-page" data-file={filePath}>
      <p class="breadcrumb">
        <a href="#/files">Files</a> › <a href={routeHash({ page: 'report', filePath })}>{filePath}</a> › KLV packets
      </p>
      {report.state === 'loading' && <p class="loading">Loading the report…</p>}
      {report.state === 'failed' && <ErrorNotice error={report.error} what="load the report" />}
      {report.state === 'loaded' && report.data === null && (
        <p class="empty">
          This file has no report under the current rules: <a href={routeHash({ page: 'report', filePath })}>inspect it from its report page</a>.
        </p>
      )}
      {report.state === 'loaded' && report.data !== null && <KlvPacketBrowser api={api} runId={report.data.runId} />}
    </div>
  );
}

function KlvPacketBrowser({ api, runId }: { api: PageProps['api']; runId: string }) {
  const [offset, setOffset] = useState(0);
  // The row chosen on this page; -1 chooses the last row once the previous page has loaded.
  const [chosen, setChosen] = useState(0);
  const page = useApiData(() => loadKlvPackets(api, runId, offset, KLV_PACKETS_PER_PAGE).then((data) => ({ ...data, offset })), [api, runId, offset]);
  // Until the page of the new offset has come, the previous one is not what the table says it is.
  const state = page.state === 'loaded' && page.data.offset !== offset ? 'loading' : page.state;
  const rows = page.state === 'loaded' && state === 'loaded' ? page.data.rows : [];
  const total = page.state === 'loaded' && state === 'loaded' ? page.data.total : 0;
  const index = chosen < 0 ? rows.length - 1 : Math.min(chosen, rows.length - 1);

  const goTo = (nextOffset: number, nextChosen: number) => {
    setOffset(nextOffset);
    setChosen(nextChosen);
  };
  // A held key repeats faster than the page renders: each step goes from the previous one's row.
  const latestIndex = useRef(index);
  latestIndex.current = index;
  const step = (by: 1 | -1) => {
    const next = latestIndex.current + by;
    if (next >= 0 && next < rows.length) {
      latestIndex.current = next;
      setChosen(next);
    }
    else if (by > 0 && offset + rows.length < total) goTo(offset + KLV_PACKETS_PER_PAGE, 0);
    else if (by < 0 && offset > 0) goTo(Math.max(0, offset - KLV_PACKETS_PER_PAGE), -1);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowDown' || event.key === 'j') step(1);
      else if (event.key === 'ArrowUp' || event.key === 'k') step(-1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <>
      <section class="panel klv-packets" data-state={state} data-offset={offset} data-total={total}>
        <h2>KLV packets</h2>
        <p class="klv-packets-toolbar">
          <button type="button" class="previous-page" disabled={offset === 0} onClick={() => goTo(Math.max(0, offset - KLV_PACKETS_PER_PAGE), 0)}>
            ← Previous {KLV_PACKETS_PER_PAGE}
          </button>{' '}
          <span class="page-range">
            {state !== 'loaded' ? 'loading…' : total === 0 ? 'no packets' : `${(offset + 1).toLocaleString('en-US')}–${(offset + rows.length).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}
          </span>{' '}
          <button type="button" class="next-page" disabled={offset + rows.length >= total} onClick={() => goTo(offset + KLV_PACKETS_PER_PAGE, 0)}>
            Next {KLV_PACKETS_PER_PAGE} →
          </button>
          <span class="spacer" />
          <span class="export-group">
            packets <DatasetExportButtons api={api} runId={runId} dataset="klv/packets" />
          </span>
          <span class="export-group">
            decoded items <DatasetExportButtons api={api} runId={runId} dataset="klv/fields" />
          </span>
        </p>
        {page.state === 'failed' && <ErrorNotice error={page.error} what="load the KLV packets" />}
        {state === 'loaded' && rows.length === 0 && <p class="empty">No KLV packet in this file.</p>}
        {rows.length > 0 && (
          <div class="klv-packet-table-frame">
            <table class="data klv-packet-table">
              <thead>
                <tr>
                  <th class="number">#</th>
                  <th>PID</th>
                  <th>Carriage</th>
                  <th class="number">Stream time (s)</th>
                  <th class="number">Byte offset</th>
                  <th>Key</th>
                  <th class="number">Value bytes</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, rowIndex) => (
                  <tr class={`klv-packet clickable ${rowIndex === index ? 'chosen' : ''}`} data-klv-index={row.klvIndex} data-pid={row.pid} onClick={() => setChosen(rowIndex)}>
                    <td class="number">{row.klvIndex}</td>
                    <td>{pidLabel(row.pid)}</td>
                    <td>{row.carriage}</td>
                    <td class="number stream-time">{row.t === null ? 'before the first PCR' : formatStreamSeconds(row.t)}</td>
                    <td class="number">{row.offset.toLocaleString('en-US')}</td>
                    <td class="key-name" title={row.keyHex}>
                      {row.keyName ?? row.keyHex}
                    </td>
                    <td class="number">{row.length.toLocaleString('en-US')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p class="hint">↑ ↓ (or k j) choose the previous and next packet; point at an item or a byte to light both.</p>
      </section>
      {index >= 0 && rows[index] !== undefined && <KlvPacketDetail packet={rows[index]} />}
    </>
  );
}
