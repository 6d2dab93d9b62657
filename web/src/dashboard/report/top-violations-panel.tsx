/**
 * The most severe violations across the checks (the report keeps up to 50),
 * in stream order within a severity; each names its check, which it opens.
 * The first few show; the rest on request, so the list does not bury the page.
 * The heading says how many the checks counted, so a capped list never
 * passes for the whole.
 */
import { useState } from 'preact/hooks';
import { routeHash } from '../dashboard-route.js';
import type { FileReport } from './report-api.js';
import { CsvExportButton } from './csv-export-button.js';
import { pidLabel } from './pid-label.js';

/** The caps of the report's list (core's TOP_VIOLATIONS_PER_CHECK and REPORT_TOP_VIOLATIONS). */
const KEPT_PER_CHECK = 20;
const KEPT_IN_ALL = 50;

/** Violations listed before "Show all". */
const VIOLATIONS_SHOWN_FIRST = 10;

/** Every violation the report lists (those behind "Show all" too), as the table writes them. */
function violationRows(report: FileReport): string[][] {
  return [
    ['Time (s)', 'Severity', 'Check', 'PID', 'Message'],
    ...report.topViolations.map((point) => [point.t === null ? '' : point.t.toFixed(3), point.severity, point.checkId, pidLabel(point.pid), point.message]),
  ];
}

export function TopViolationsPanel({ report, filePath }: { report: FileReport; filePath: string }) {
  const [showAll, setShowAll] = useState(false);
  if (report.topViolations.length === 0) return null;
  const shown = showAll ? report.topViolations : report.topViolations.slice(0, VIOLATIONS_SHOWN_FIRST);
  const counted = report.checks.reduce((sum, check) => sum + check.summary.violations, 0);
  const listed = report.topViolations.length;
  return (
    <section class="panel top-violations">
      <h2>
        Most severe violations{' '}
        <span class="count" data-listed={listed} data-counted={counted}>
          ({listed === counted ? listed : `${listed} listed of ${counted} the checks counted`})
        </span>{' '}
        <CsvExportButton filePath={filePath} table="violations" rows={() => violationRows(report)} />
      </h2>
      {listed < counted && (
        <p class="capped">
          The report keeps the {KEPT_PER_CHECK} most severe violations of each check and {KEPT_IN_ALL} in all; each check's page lists every one.
        </p>
      )}
      <table class="data">
        <thead>
          <tr>
            <th class="number">Time (s)</th>
            <th>Severity</th>
            <th>Check</th>
            <th>PID</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((point) => (
            <tr class="violation" data-check-id={point.checkId} data-t={point.t ?? ''}>
              <td class="number">{point.t === null ? '—' : point.t.toFixed(3)}</td>
              <td class={`verdict-${point.severity === 'error' ? 'fail' : 'warn'}`}>{point.severity}</td>
              <td>
                <a href={routeHash({ page: 'check', filePath, checkId: point.checkId })}>{point.checkId}</a>
              </td>
              <td>{pidLabel(point.pid)}</td>
              <td class="message">{point.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < report.topViolations.length && (
        <button type="button" class="show-all" onClick={() => setShowAll(true)}>
          Show all {report.topViolations.length}
        </button>
      )}
    </section>
  );
}
