/** The table of the checks in a report: verdict, violations and worst value per check; a row opens the check's page. */
import type { DashboardRoute } from '../dashboard-route.js';
import { routeHash } from '../dashboard-route.js';
import type { ReportCheck } from './report-api.js';
import { useRef } from 'preact/hooks';
import { CsvExportButton } from './csv-export-button.js';
import { rowsOfTable } from './csv-text.js';
import { formatWorstValue } from './worst-value.js';

export function ChecksTable({ filePath, checks, navigate }: { filePath: string; checks: ReportCheck[]; navigate: (route: DashboardRoute) => void }) {
  const table = useRef<HTMLTableElement>(null);
  return (
    <section class="panel checks">
      <h2>
        Checks ({checks.length}) <CsvExportButton filePath={filePath} table="checks" rows={() => rowsOfTable(table.current!)} />
      </h2>
      <table class="data checks-table" ref={table}>
        <thead>
          <tr>
            <th>Check</th>
            <th>Verdict</th>
            <th class="number">Violations</th>
            <th class="number">Points</th>
            <th class="number">Worst value</th>
            <th>Reason</th>
          </tr>
        </thead>
        <tbody>
          {checks.map((check) => {
            const route: DashboardRoute = { page: 'check', filePath, checkId: check.checkId };
            const value = check.summary.value;
            return (
              <tr class="check-row clickable" data-check-id={check.checkId} data-verdict={check.summary.verdict} onClick={() => navigate(route)}>
                <td>
                  <a href={routeHash(route)} onClick={(event) => event.stopPropagation()}>
                    {check.title}
                  </a>{' '}
                  <code class="check-id">{check.checkId}</code>
                </td>
                <td class={`verdict verdict-${check.summary.verdict}`}>{check.status === 'failed' ? 'check failed' : check.summary.verdict}</td>
                <td class="number violations">{check.summary.violations}</td>
                <td class="number points">{check.summary.points}</td>
                <td class="number worst-value" title={value === null ? 'no values' : `min ${value.min}, mean ${value.mean.toFixed(3)}, max ${value.max} over ${value.count} values`}>
                  {formatWorstValue(value)}
                </td>
                <td class="reason">{check.error === null ? check.summary.reason : `${check.summary.reason}: ${check.error.message}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
