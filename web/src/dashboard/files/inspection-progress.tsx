/** An inspection under way: the file, the job's status and a progress bar of bytes read of the total; its error when it failed. */
import { ErrorNotice } from '../error-notice.js';
import { formatByteSize } from './byte-size.js';
import type { Inspection } from './inspection-job.js';

export function InspectionProgress({ inspection }: { inspection: Inspection }) {
  if (inspection.state === 'idle') return null;
  const job = inspection.state === 'starting' ? null : (inspection.job ?? null);
  const percent = inspection.state === 'starting' ? null : (inspection.percent ?? null);
  const status = inspection.state === 'starting' ? 'starting' : inspection.state === 'failed' ? 'failed' : (job?.status ?? 'queued');
  return (
    <section class="panel inspection" data-status={status} data-file={inspection.filePath} aria-live="polite">
      <h2>
        Inspecting <code>{inspection.filePath}</code>
      </h2>
      <div
        class="progress inspection-bar"
        role="progressbar"
        aria-label="bytes read"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        data-percent={percent === null ? '' : percent.toFixed(1)}
      >
        <div style={{ width: `${percent ?? 0}%` }} />
      </div>
      <p class="inspection-status">
        {status}
        {job !== null && job.progress.bytesTotal !== null && (
          <>
            {' '}
            · <span class="percent">{(percent ?? 0).toFixed(0)} %</span> · {formatByteSize(job.progress.bytesDone)} of {formatByteSize(job.progress.bytesTotal)} read · the file is read once to analyse and ingest it (a new file is identified beside that read; one that may be known is read to identify it first), as far as these are not cached
          </>
        )}
        {status === 'running' && job !== null && job.progress.bytesTotal !== null && job.progress.bytesDone >= job.progress.bytesTotal && ' · reading done, running the checks'}
        {status === 'completed' && ' · opening the report…'}
      </p>
      {inspection.state === 'failed' && <ErrorNotice error={inspection.error} what="inspect the file" />}
    </section>
  );
}
