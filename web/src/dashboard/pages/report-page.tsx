/**
 * The report page (`#/report?file=PATH`): a file's report under the current
 * rules — verdict, the worst problems (one line each), the checks with their verdicts and worst values (each row
 * opens the check), the inventory, the video details, the KLV summary and the most severe
 * violations. A file without a report under the current rules offers to
 * inspect it here, with the same progress bar as the files page.
 */
import '../report/report.css';
import { routeHash, type DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import { useInspectionJob } from '../files/inspection-job.js';
import { InspectionProgress } from '../files/inspection-progress.js';
import type { PageProps } from '../page-props.js';
import { ChecksTable } from '../report/checks-table.js';
import { InventoryPanel } from '../report/inventory-panel.js';
import { KlvSummaryPanel } from '../report/klv-summary-panel.js';
import { ProblemKindsPanel } from '../report/problem-kinds-panel.js';
import { PsiTreePanel } from '../report/psi-tree-panel.js';
import { loadReport, type FileReport } from '../report/report-api.js';
import { TimingPlotsPanel } from '../report/timing-plots-panel.js';
import { TopViolationsPanel } from '../report/top-violations-panel.js';
import { VideoDetailsPanel } from '../report/video-details-panel.js';
import { RawDatasetsPanel } from '../report/raw-datasets-panel.js';
import { ViolationTimeline } from '../report/violation-timeline.js';
import { useApiData } from '../use-api-data.js';

export function ReportPage({ api, route, navigate }: PageProps<Extract<DashboardRoute, { page: 'report' }>>) {
  const { filePath } = route;
  const report = useApiData(() => loadReport(api, filePath), [api, filePath]);
  const { inspection, start } = useInspectionJob(api, () => report.reload());
  return (
    <div class="report-page" data-file={filePath} data-state={report.state === 'loaded' ? (report.data === null ? 'none' : 'ready') : report.state}>
      <p class="breadcrumb">
        <a href="#/files">Files</a> › <code>{filePath}</code>
      </p>
      {report.state === 'loading' && <p class="loading">Loading the report…</p>}
      {report.state === 'failed' && <ErrorNotice error={report.error} what="load the report" />}
      {report.state === 'loaded' && report.data === null && (
        <section class="panel no-report">
          <h2>No report yet</h2>
          <p>This file has not been inspected under the current rules.</p>
          <button type="button" class="inspect" disabled={inspection.state === 'starting' || inspection.state === 'running'} onClick={() => start(filePath)}>
            Inspect
          </button>
        </section>
      )}
      {/* Once the report it made has loaded, the finished inspection has nothing more to say. */}
      {!(inspection.state === 'completed' && report.state === 'loaded' && report.data !== null) && <InspectionProgress inspection={inspection} />}
      {report.state === 'loaded' && report.data !== null && <ReportView api={api} report={report.data} filePath={filePath} navigate={navigate} />}
    </div>
  );
}

function ReportView({ api, report, filePath, navigate }: { api: PageProps['api']; report: FileReport; filePath: string; navigate: PageProps['navigate'] }) {
  const failed = report.checks.filter((check) => check.summary.verdict === 'fail').length;
  const warned = report.checks.filter((check) => check.summary.verdict === 'warn').length;
  return (
    <>
      <section class="panel report-header">
        <h2>
          Report: <span class={`overall-verdict verdict-${report.verdict}`}>{report.verdict.toUpperCase()}</span>
        </h2>
        <p>
          {failed} of {report.checks.length} checks fail, {warned} warn.
        </p>
        <p class="report-ids">
          file hash <code>{report.fileHash}</code> · ingest run <code>{report.runId}</code> ·{' '}
          <a class="compare-with" href={routeHash({ page: 'compare', a: filePath, b: '' })}>
            compare with another recording
          </a>
        </p>
      </section>
      <ProblemKindsPanel report={report} filePath={filePath} />
      <ViolationTimeline report={report} filePath={filePath} />
      <ChecksTable filePath={filePath} checks={report.checks} navigate={navigate} />
      <InventoryPanel inventory={report.inventory} checks={report.checks} filePath={filePath} />
      <VideoDetailsPanel video={report.video} filePath={filePath} />
      <TimingPlotsPanel api={api} filePath={filePath} runId={report.runId} />
      <PsiTreePanel inventory={report.inventory} filePath={filePath} />
      <KlvSummaryPanel klv={report.klv} filePath={filePath} />
      <TopViolationsPanel report={report} filePath={filePath} />
      <RawDatasetsPanel api={api} runId={report.runId} />
    </>
  );
}
