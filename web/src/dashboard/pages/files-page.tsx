/**
 * The files page: the recordings in the browse roots, the recent sources and
 * the analysis archive; "Inspect" on a file runs a process job with a live
 * progress bar, then opens the file's report. When a folder's verdict list
 * ends the job of one of its files, the archive is listed again: that file
 * is now in it (a process job opens no file session: the recent sources
 * stay as they were).
 */
import '../files/files.css';
import { useCallback, useState } from 'preact/hooks';
import type { DashboardRoute } from '../dashboard-route.js';
import { ArchivePanel } from '../files/archive-panel.js';
import { FolderBrowser } from '../files/folder-browser.js';
import { useInspectionJob } from '../files/inspection-job.js';
import { InspectionProgress } from '../files/inspection-progress.js';
import { RecentSourcesPanel } from '../files/recent-sources-panel.js';
import type { PageProps } from '../page-props.js';

export function FilesPage({ api, navigate }: PageProps<Extract<DashboardRoute, { page: 'files' }>>) {
  const { inspection, start } = useInspectionJob(api, (filePath) => navigate({ page: 'report', filePath }));
  // Counts the folder verdicts' jobs ended on this page: the archive reloads on each.
  const [jobsEnded, setJobsEnded] = useState(0);
  const jobEnded = useCallback(() => setJobsEnded((count) => count + 1), []);
  return (
    <div class="files-page">
      <InspectionProgress inspection={inspection} />
      <FolderBrowser api={api} onInspect={start} onJobEnded={jobEnded} />
      <RecentSourcesPanel api={api} onInspect={start} />
      <ArchivePanel api={api} reloadAfter={jobsEnded} />
    </div>
  );
}
