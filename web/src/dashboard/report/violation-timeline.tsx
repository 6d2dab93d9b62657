/**
 * One time line of every check's violations (the report's `problems`, each
 * marked in the lane of every check that saw it), over the recording's
 * stream time, filtered by check and severity. A mark opens that check at
 * its moment, the violation selected. Problems without a stream time
 * (before the first PCR) are counted under it, not placed. Its CSV holds
 * the problems the filters show.
 */
import { useMemo, useState } from 'preact/hooks';
import { routeHash } from '../dashboard-route.js';
import { CsvExportButton } from './csv-export-button.js';
import { pidLabel } from './pid-label.js';
import type { FileReport } from './report-api.js';

type SeverityFilter = 'all' | 'error';

const LANE_PX = 18;
const LABEL_PX = 230;
const WIDTH_PX = 1000;

export function ViolationTimeline({ report, filePath }: { report: FileReport; filePath: string }) {
  const [checkFilter, setCheckFilter] = useState('all');
  const [severityFilter, setSeverityFilter] = useState<SeverityFilter>('all');
  const checkIds = useMemo(() => [...new Set(report.problems.flatMap((problem) => problem.checkIds))], [report]);
  const shown = report.problems.filter(
    (problem) => (severityFilter === 'all' || problem.severity === 'error') && (checkFilter === 'all' || problem.checkIds.includes(checkFilter)),
  );
  const lanes = checkIds.filter((checkId) => checkFilter === 'all' || checkId === checkFilter);
  const durationS = Math.max(report.inventory.durationSeconds ?? 0, ...shown.map((problem) => problem.t ?? 0), 1e-3);
  const x = (t: number) => LABEL_PX + (t / durationS) * (WIDTH_PX - LABEL_PX - 10);
  const unplaced = shown.filter((problem) => problem.t === null).length;
  if (report.problems.length === 0) return null;
  return (
    <section class="panel violation-timeline">
      <h2>
        Violations over time{' '}
        <CsvExportButton
          filePath={filePath}
          table="timeline"
          rows={() => [
            ['Time (s)', 'Severity', 'PID', 'Checks', 'Message', 'Violations'],
            ...shown.map((problem) => [problem.t === null ? '' : problem.t.toFixed(3), problem.severity, pidLabel(problem.pid), problem.checkIds.join(' '), problem.message, String(problem.violations)]),
          ]}
        />
      </h2>
      <p class="timeline-filters">
        <label>
          check{' '}
          <select value={checkFilter} onChange={(event) => setCheckFilter(event.currentTarget.value)}>
            <option value="all">every check</option>
            {checkIds.map((checkId) => (
              <option value={checkId}>{checkId}</option>
            ))}
          </select>
        </label>{' '}
        <label>
          severity{' '}
          <select value={severityFilter} onChange={(event) => setSeverityFilter(event.currentTarget.value as SeverityFilter)}>
            <option value="all">every</option>
            <option value="error">errors</option>
          </select>
        </label>{' '}
        <span data-field="shown">{shown.length}</span> of {report.problems.length} problems the report keeps
        {unplaced > 0 && <>, {unplaced} before the first PCR (no stream time, not placed)</>}
      </p>
      <svg class="timeline" viewBox={`0 0 ${WIDTH_PX} ${lanes.length * LANE_PX + 24}`} width="100%" role="img" aria-label="violations over stream time">
        {lanes.map((checkId, lane) => (
          <g class="lane" data-check={checkId}>
            <text x={0} y={lane * LANE_PX + 13} class="lane-label">
              {checkId}
            </text>
            <line x1={LABEL_PX} x2={WIDTH_PX - 10} y1={lane * LANE_PX + 9} y2={lane * LANE_PX + 9} class="lane-axis" />
            {shown
              .filter((problem) => problem.t !== null && problem.checkIds.includes(checkId))
              .map((problem) => (
                <a href={routeHash({ page: 'check', filePath, checkId, atS: problem.t as number })}>
                  <rect
                    class={`mark mark-${problem.severity}`}
                    data-t={problem.t}
                    x={x(problem.t as number) - 2}
                    y={lane * LANE_PX + 2}
                    width={4}
                    height={LANE_PX - 4}
                  >
                    <title>{`${(problem.t as number).toFixed(3)} s: ${problem.message}`}</title>
                  </rect>
                </a>
              ))}
          </g>
        ))}
        <text x={LABEL_PX} y={lanes.length * LANE_PX + 18} class="axis-label">
          0 s
        </text>
        <text x={WIDTH_PX - 10} y={lanes.length * LANE_PX + 18} class="axis-label" text-anchor="end">
          {durationS.toFixed(3)} s
        </text>
      </svg>
    </section>
  );
}
