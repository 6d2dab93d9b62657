/**
 * What the report opens with: the worst problems, one line each (the
 * report's `problemKinds`). One cause that several checks see (a PCR gap is
 * a PCR interval, a PCR jump and two TR 101 290 errors) is one line naming
 * every check, each a link to its page. The first line is the worst: "Jump
 * to the worst" opens its leading check at its worst occurrence, that
 * violation selected (the video paused on its frame); each line's "show"
 * does the same for it.
 */
import type { ReportProblemKind } from '@klvscope/core/browser';
import { routeHash } from '../dashboard-route.js';
import { CsvExportButton } from './csv-export-button.js';
import { pidLabel } from './pid-label.js';
import type { FileReport } from './report-api.js';

/** One row per line of the panel, its figures in columns of their own. */
function problemKindRows(kinds: readonly ReportProblemKind[]): string[][] {
  return [
    ['Severity', 'Problem', 'Count', 'Count is a lower bound', 'First at (s)', 'PID', 'Checks'],
    ...kinds.map((kind) => [kind.severity, kind.line, String(kind.count), kind.countIsLowerBound ? 'yes' : 'no', kind.firstT === null ? '' : kind.firstT.toFixed(3), pidLabel(kind.pid), kind.checkIds.join(' ')]),
  ];
}

export function ProblemKindsPanel({ report, filePath }: { report: FileReport; filePath: string }) {
  if (report.problemKinds.length === 0) return null;
  return (
    <section class="panel problem-kinds">
      <h2>
        Worst problems{' '}
        <a class="jump-to-worst button-link" href={worstMoment(report.problemKinds[0], filePath)}>
          Jump to the worst
        </a>{' '}
        <CsvExportButton filePath={filePath} table="problems" rows={() => problemKindRows(report.problemKinds)} />
      </h2>
      <ol>
        {report.problemKinds.map((kind) => (
          <li class="problem-kind" data-pid={kind.pid} data-count={kind.count}>
            <span class={`severity verdict-${kind.severity === 'error' ? 'fail' : 'warn'}`}>{kind.severity}</span> <span class="line">{kind.line}</span>{' '}
            <a class="show-worst" href={worstMoment(kind, filePath)}>
              show
            </a>
            <span class="seen-by">
              {' '}
              — PID {pidLabel(kind.pid)}, seen by{' '}
              {kind.checkIds.map((checkId, index) => (
                <>
                  {index > 0 && ', '}
                  <a href={routeHash({ page: 'check', filePath, checkId })}>{checkId}</a>
                </>
              ))}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The check view of the kind's leading check, at its worst occurrence (its first, when the worst has no stream time). */
function worstMoment(kind: ReportProblemKind, filePath: string): string {
  const atS = kind.worst.t ?? kind.firstT;
  return routeHash({ page: 'check', filePath, checkId: kind.checkIds[0], ...(atS === null ? {} : { atS }) });
}
