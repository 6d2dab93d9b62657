/**
 * The files page: the recordings in the browse roots, the recent sources and
 * the analysis archive; "Inspect" on a file runs a process job with a live
 * progress bar, then opens the file's report.
 */
import '../files/files.css';
import type { DashboardRoute } from '../dashboard-route.js';
import { ArchivePanel } from '../files/archive-panel.js';
import { FolderBrowser } from '../files/folder-browser.js';
import { useInspectionJob } from '../files/inspection-job.js';
import { InspectionProgress } from '../files/inspection-progress.js';
import { RecentSourcesPanel } from '../files/recent-sources-panel.js';
import type { PageProps } from '../page-props.js';

export function FilesPage({ api, navigate }: PageProps<Extract<DashboardRoute, { page: 'files' }>>) {
  const { inspection, start } = useInspectionJob(api, (filePath) => navigate({ page: 'report', filePath }));
  return (
    <div class="files-page">
      <InspectionProgress inspection={inspection} />
      <FolderBrowser api={api} onInspect={start} />
      <RecentSourcesPanel api={api} onInspect={start} />
      <ArchivePanel api={api} />
    </div>
  );
}
