/**
 * The live session's finding records, newest first, filtered by check and
 * severity: when (the arrival of the bytes that revealed it, and the stream
 * time), the check, the severity, the PID, how many findings the record
 * stands for, the message. Each row carries its check, severity and
 * sequence number for tests.
 */
import { formatClockTime } from './clock-time.js';
import { OTHER_PIDS, OTHER_PIDS_LABEL, pidLabel } from './pid-label.js';
import { filterFindings, SEVERITIES, type FindingFilter, type Severity } from './finding-filter.js';
import type { LiveFinding } from './live-records.js';

/** Rows drawn; the session keeps more (GET /sessions/{id}/findings). */
const MAX_ROWS = 300;

const SEVERITY_CHOICES: Record<Severity, string> = { info: 'every severity', warning: 'warnings and errors', error: 'errors' };

export interface LiveFindingsListProps {
  /** The records kept by the page, oldest first. */
  findings: readonly LiveFinding[];
  /** Findings (occurrences) in all, and by check. */
  total: number;
  byCheck: ReadonlyMap<string, number>;
  filter: FindingFilter;
  onFilter: (filter: FindingFilter) => void;
}

export function LiveFindingsList({ findings, total, byCheck, filter, onFilter }: LiveFindingsListProps) {
  const shown = filterFindings(findings, filter);
  const newestFirst = shown.slice(-MAX_ROWS).reverse();
  return (
    <section class="panel live-findings" aria-label="findings">
      <h2>
        Findings <span class="count" data-field="findingCount">{total}</span>{' '}
        <span class="count" data-field="recordCount">
          in {findings.length} records{shown.length !== findings.length && `, ${shown.length} shown`}
        </span>
      </h2>
      <div class="finding-filters">
        <label>
          check{' '}
          <select name="check" value={filter.checkId} onChange={(event) => onFilter({ ...filter, checkId: event.currentTarget.value })}>
            <option value="">every check</option>
            {[...byCheck].sort(([a], [b]) => a.localeCompare(b)).map(([checkId, count]) => (
              <option key={checkId} value={checkId}>{`${checkId} (${count})`}</option>
            ))}
          </select>
        </label>
        <label>
          severity{' '}
          <select name="severity" value={filter.minSeverity} onChange={(event) => onFilter({ ...filter, minSeverity: event.currentTarget.value as Severity })}>
            {SEVERITIES.map((severity) => (
              <option key={severity} value={severity}>
                {SEVERITY_CHOICES[severity]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {newestFirst.length === 0 ? (
        <p class="placeholder">{findings.length === 0 ? 'No finding yet.' : 'No finding matches the filter.'}</p>
      ) : (
        <div class="findings-scroll">
          <table class="data">
            <colgroup>
              <col class="received" />
              <col class="stream-time" />
              <col class="check" />
              <col class="severity" />
              <col class="pid" />
              <col class="times" />
              <col />
            </colgroup>
            <thead>
              <tr>
                <th>received</th>
                <th class="number">stream time</th>
                <th>check</th>
                <th>severity</th>
                <th class="number">PID</th>
                <th class="number" title="findings the row stands for: repeats of a kind within a second are one row">times</th>
                <th>message</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((finding) => (
                <tr key={rowKey(finding)} class="finding" data-severity={finding.severity} data-seq={finding.seq} data-check={finding.checkId} data-packet={finding.packetIndex}>
                  <td data-clock>{formatClockTime(finding.receivedAt ?? finding.emittedAt, { milliseconds: true })}</td>
                  <td class="number">{finding.t === null ? '—' : `${finding.t.toFixed(3)} s`}</td>
                  <td class="check">{finding.checkId}</td>
                  <td>{finding.severity}</td>
                  <td class="number" title={finding.pid === OTHER_PIDS ? OTHER_PIDS_LABEL : undefined}>
                    {pidLabel(finding.pid)}
                  </td>
                  <td class="number">{finding.count}</td>
                  <td class="message">{finding.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A probe's finding carries its catalog id: its `seq` starts again at 1 when a restarted probe resumes the session. */
function rowKey(finding: LiveFinding & { id?: number }): string {
  return finding.id === undefined ? `seq-${finding.seq}` : `id-${finding.id}`;
}
