/**
 * What the report opens with: the worst problems, one line each (the
 * report's `problemKinds`). One cause that several checks see (a PCR gap is
 * a PCR interval, a PCR jump and two TR 101 290 errors) is one line naming
 * every check, each a link to its page.
 */
import { routeHash } from '../dashboard-route.js';
import { pidLabel } from './pid-label.js';
import type { FileReport } from './report-api.js';

export function ProblemKindsPanel({ report, filePath }: { report: FileReport; filePath: string }) {
  if (report.problemKinds.length === 0) return null;
  return (
    <section class="panel problem-kinds">
      <h2>Worst problems</h2>
      <ol>
        {report.problemKinds.map((kind) => (
          <li class="problem-kind" data-pid={kind.pid} data-count={kind.count}>
            <span class={`severity verdict-${kind.severity === 'error' ? 'fail' : 'warn'}`}>{kind.severity}</span> <span class="line">{kind.line}</span>
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
