/** An inspection under way: the file, the job's status and a progress bar of bytes read of the total; its error when it failed. */
import { ErrorNotice } from '../error-notice.js';
import { formatByteSize } from './byte-size.js';
import { jobPercent, type Inspection } from './inspection-job.js';

export function InspectionProgress({ inspection }: { inspection: Inspection }) {
  if (inspection.state === 'idle') return null;
  const job = inspection.state === 'starting' ? null : (inspection.job ?? null);
  const percent = job === null ? null : jobPercent(job);
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
            · {formatByteSize(job.progress.bytesDone)} of {formatByteSize(job.progress.bytesTotal)} read ({percent?.toFixed(0)} %; the file is read to identify, analyse and ingest it, as far as not cached)
          </>
        )}
        {status === 'completed' && ' · opening the report…'}
      </p>
      {inspection.state === 'failed' && <ErrorNotice error={inspection.error} what="inspect the file" />}
    </section>
  );
}
