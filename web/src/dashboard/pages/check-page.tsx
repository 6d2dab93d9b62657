/**
 * The check page (`#/check?file=PATH&check=ID`): the check's points against
 * stream time (uPlot), the rule's limit across them, its violations below,
 * and the recording beside them (video, metadata of the frame on screen, map
 * of the flight). The page holds the one time cursor they share and the
 * selected violation: selecting one (in the list or on its ring) moves the
 * cursor there and seeks the video to the frame presented then.
 */
import '../check-view/check-view.css';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { buildCheckColumns } from '../check-view/check-columns.js';
import { loadCheckDetail } from '../check-view/check-detail.js';
import type { CheckDetail } from '../check-view/check-detail-wire.js';
import { limitLines } from '../check-view/check-limits.js';
import { formatPointValue } from '../check-view/point-value-format.js';
import { CheckPlot } from '../check-view/check-plot.js';
import { emptyCheckViewProbe, type CheckViewProbe } from '../check-view/check-view-probe.js';
import { ViolationList } from '../check-view/violation-list.js';
import { ShortcutHelp } from '../../shared/shortcut-help.js';
import { CHECK_SHORTCUTS } from '../check-view/check-shortcut-keys.js';
import { useCheckShortcuts } from '../check-view/check-shortcuts.js';
import { routeHash, type DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import type { PageProps } from '../page-props.js';
import { RecordingPlayback, type StreamTimeRequest } from '../playback/recording-playback.js';
import { useApiData } from '../use-api-data.js';

declare global {
  interface Window {
    /** Read by the browser tests only. */
    klvscopeCheckView?: CheckViewProbe;
  }
}

export function CheckPage({ api, route }: PageProps<Extract<DashboardRoute, { page: 'check' }>>) {
  const { filePath, checkId, atS } = route;
  const detail = useApiData(() => loadCheckDetail(api, checkId, filePath), [api, checkId, filePath]);
  return (
    <div class="check-page">
      <header class="check-header">
        <a href={routeHash({ page: 'report', filePath })}>← Report</a>
        <h1>
          {detail.state === 'loaded' ? detail.data.title : checkId} <code class="check-id">{checkId}</code>
        </h1>
        <p class="file-path">{filePath}</p>
      </header>
      {detail.state === 'loading' && <p class="loading">Loading the check's points (the file is inspected first if it has not been)…</p>}
      {detail.state === 'failed' && <ErrorNotice error={detail.error} what={`show check ${checkId} of this file`} />}
      {detail.state === 'loaded' && <LoadedCheck api={api} filePath={filePath} detail={detail.data} atS={atS ?? null} />}
    </div>
  );
}

function LoadedCheck({ api, filePath, detail, atS }: { api: PageProps['api']; filePath: string; detail: CheckDetail; atS: number | null }) {
  const probe = useMemo(() => ({ ...emptyCheckViewProbe(), checkId: detail.checkId }), [detail]);
  const columns = useMemo(() => buildCheckColumns(detail.points), [detail]);
  const limits = useMemo(() => limitLines(detail.checkId, detail.rules), [detail]);
  const unit = useMemo(() => detail.points.find((point) => point.unit !== null)?.unit ?? detail.summary.value?.unit ?? null, [detail]);
  const [cursorTimeS, setCursorTimeS] = useState<number | null>(null);
  const [selectedRow, setSelectedRow] = useState<number | null>(null);
  const [seekTo, setSeekTo] = useState<StreamTimeRequest | null>(null);
  const seeks = useRef(0);

  useEffect(() => {
    window.klvscopeCheckView = probe;
    probe.detailPoints = detail.points.length;
    probe.plottedPoints = columns.times.length;
    probe.series = columns.series.length;
    probe.violationMarkers = columns.violationRows.length;
    probe.limits = limits.map((limit) => limit.value);
    return () => {
      if (window.klvscopeCheckView === probe) delete window.klvscopeCheckView;
    };
  }, [probe, columns, limits]);

  const select = useCallback(
    (row: number) => {
      const streamTimeS = columns.times[row];
      probe.selectedRow = row;
      probe.seeks = ++seeks.current;
      probe.cursorTimeS = streamTimeS;
      setSelectedRow(row);
      setCursorTimeS(streamTimeS);
      setSeekTo({ streamTimeS, serial: seeks.current });
    },
    [columns, probe],
  );

  // Opened at a moment (the report's jump to the worst): the violation nearest it is selected, as a click on its row would.
  useEffect(() => {
    const row = atS === null ? null : nearestViolationRow(columns.times, columns.violationRows, atS);
    if (row !== null) select(row);
  }, [columns, atS, select]);

  const { helpOpen, closeHelp } = useCheckShortcuts(columns.violationRows, selectedRow, select);

  const onStreamTime = useCallback(
    (streamTimeS: number) => {
      probe.cursorTimeS = streamTimeS;
      setCursorTimeS(streamTimeS);
    },
    [probe],
  );

  const { summary } = detail;
  return (
    <>
      <section class="panel check-summary" data-verdict={summary.verdict}>
        <span class={`verdict-${summary.verdict}`}>{summary.verdict.toUpperCase()}</span> {summary.reason}.{' '}
        <span data-field="points">{detail.total}</span> points, <span data-field="violations">{summary.violations}</span> violations
        {summary.value !== null && (
          <>
            ; values {formatPointValue(summary.value.min)} to {formatPointValue(summary.value.max, summary.value.unit)}
          </>
        )}
        {limits.length > 0 && <>; {limits.map((limit) => limit.label).join(', ')}</>}
        {columns.unplaced > 0 && <>; {columns.unplaced} point(s) before the first PCR have no stream time and are not drawn</>}
        {detail.status === 'failed' && <p class="error">The check failed: {detail.error?.message}. Its points stop there.</p>}
        <span class="check-keys-hint"> Keys: n / p next and previous violation, Space play, ? all keys.</span>
      </section>
      {helpOpen && <ShortcutHelp shortcuts={CHECK_SHORTCUTS} onClose={closeHelp} />}
      <CheckPlot
        columns={columns}
        limits={limits}
        unit={unit}
        cursorTimeS={cursorTimeS}
        selectedRow={selectedRow}
        onSelectViolation={select}
        onDrawn={(elapsedMs) => {
          probe.plotDrawnMs = elapsedMs;
        }}
        onYAxis={({ range, tickLabels }) => {
          probe.yAxis = { ...range, tickLabels };
        }}
      />
      <ViolationList points={detail.points} columns={columns} selectedRow={selectedRow} onSelect={select} />
      <RecordingPlayback api={api} filePath={filePath} ingestRunId={detail.ingestRunId} cursorTimeS={cursorTimeS} seekTo={seekTo} onStreamTime={onStreamTime} probe={probe} />
    </>
  );
}

/** The violation row whose stream time is nearest `atS`; null without violations. */
function nearestViolationRow(times: ArrayLike<number>, violationRows: Int32Array, atS: number): number | null {
  let best: number | null = null;
  for (const row of violationRows) if (best === null || Math.abs(times[row] - atS) < Math.abs(times[best] - atS)) best = row;
  return best;
}
