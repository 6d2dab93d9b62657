/**
 * Every recording of a folder with its verdict, worst first ("find the worst
 * in seconds"): each transport stream of the listing is inspected in turn by
 * the same process job as "Inspect" (cached results come back at once), and
 * its report's verdict, failing and warning checks, and worst problem are
 * listed as they arrive. One file at a time: the service's jobs share its
 * cores with whatever else it runs. Each row opens that file's report.
 * `onJobEnded` is called as each file's job ends, done or failed, so that
 * the page's archive lists what the job stored.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { isAuthError, type ApiClient } from '../api-client.js';
import { routeHash } from '../dashboard-route.js';
import { loadReport } from '../report/report-api.js';
import type { BrowseEntry } from './files-api.js';
import { runInspectionJob } from './inspection-job.js';

export interface FileVerdict {
  path: string;
  name: string;
  state: 'waiting' | 'inspecting' | 'done' | 'failed';
  verdict: 'pass' | 'warn' | 'fail' | null;
  failingChecks: number;
  warningChecks: number;
  /** The report's first problem kind, one line; null without problems. */
  worst: string | null;
  error: string | null;
}

/** Worst first: fail, warn, a file that could not be inspected, pass, then the ones not done yet. */
const RANK: Record<string, number> = { fail: 0, warn: 1, failed: 2, pass: 3, inspecting: 4, waiting: 5 };
const rankOf = (row: FileVerdict) => RANK[row.verdict ?? row.state];

export function FolderVerdicts({ api, folder, files, onJobEnded }: { api: ApiClient; folder: string; files: BrowseEntry[]; onJobEnded?: () => void }) {
  const [rows, setRows] = useState<FileVerdict[] | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const run = useRef(0);
  // A new folder, or leaving the page, stops the list (the job in progress runs on).
  useEffect(() => {
    setRows(null);
    return () => {
      run.current++;
    };
  }, [folder]);

  const start = async () => {
    const mine = ++run.current;
    const stopped = () => mine !== run.current;
    let current: FileVerdict[] = files.map((file) => ({ path: file.path, name: file.name, state: 'waiting', verdict: null, failingChecks: 0, warningChecks: 0, worst: null, error: null }));
    const update = (index: number, row: Partial<FileVerdict>) => {
      current = current.map((old, i) => (i === index ? { ...old, ...row } : old));
      if (!stopped()) setRows(current);
    };
    setRows(current);
    for (let index = 0; index < current.length && !stopped(); index++) {
      const { path } = current[index];
      update(index, { state: 'inspecting' });
      setPercent(null);
      try {
        try {
          await runInspectionJob(api, path, (_job, percent) => setPercent(percent), stopped);
        } finally {
          // Even a failed job may have stored stages; a list stopped by leaving the page has no archive to show.
          if (!stopped()) onJobEnded?.();
        }
        const report = await loadReport(api, path);
        if (report === null) throw new Error('the inspection left no report');
        update(index, {
          state: 'done',
          verdict: report.verdict,
          failingChecks: report.checks.filter((check) => check.summary.verdict === 'fail').length,
          warningChecks: report.checks.filter((check) => check.summary.verdict === 'warn').length,
          worst: report.problemKinds[0]?.line ?? null,
        });
      } catch (error) {
        if (stopped()) return;
        // Rethrown unhandled on purpose, as useApiData does: the dashboard's gate listens for a refused key.
        if (isAuthError(error)) void Promise.reject(error instanceof Error ? error : new Error(String(error)));
        update(index, { state: 'failed', error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (!stopped()) setPercent(null);
  };

  const done = rows?.filter((row) => row.state === 'done' || row.state === 'failed').length ?? 0;
  const running = rows !== null && done < rows.length;
  const shown = rows === null ? [] : [...rows].sort((a, b) => rankOf(a) - rankOf(b));
  return (
    <div class="folder-verdicts" data-done={done} data-total={rows?.length ?? 0}>
      <p>
        <button type="button" class="inspect-folder" disabled={running || files.length === 0} onClick={() => void start()}>
          {rows === null ? `Verdict of every recording here (${files.length})` : 'Inspect them again'}
        </button>{' '}
        {rows !== null && (
          <span class="verdicts-progress" role="status">
            <progress max={rows.length} value={done} /> {done} of {rows.length} inspected
            {running && percent !== null && ` (the current one ${Math.floor(percent)} %)`}
          </span>
        )}
      </p>
      {rows !== null && (
        <table class="data verdicts">
          <thead>
            <tr>
              <th>Recording</th>
              <th>Verdict</th>
              <th class="number">Failing checks</th>
              <th class="number">Warning checks</th>
              <th>Worst problem</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr class="file-verdict" data-path={row.path} data-state={row.state} data-verdict={row.verdict ?? ''}>
                <td>{row.state === 'done' ? <a href={routeHash({ page: 'report', filePath: row.path })}>{row.name}</a> : row.name}</td>
                <td>
                  {row.verdict !== null ? (
                    <span class={`verdict verdict-${row.verdict}`}>{row.verdict.toUpperCase()}</span>
                  ) : row.state === 'failed' ? (
                    <span class="error">could not be inspected</span>
                  ) : (
                    <span class="pending">{row.state === 'inspecting' ? 'inspecting…' : 'waiting'}</span>
                  )}
                </td>
                <td class="number" data-field="failing-checks">
                  {row.state === 'done' ? row.failingChecks : ''}
                </td>
                <td class="number" data-field="warning-checks">
                  {row.state === 'done' ? row.warningChecks : ''}
                </td>
                <td class="worst-problem">{row.error ?? row.worst ?? (row.state === 'done' ? 'none' : '')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
