/**
 * The check's violations below its plot: one row each, in stream time;
 * selecting one moves the video and the cursor to it. A violation without a
 * stream time (found before the first PCR, or about the whole file, such as
 * a PID the PMT declares and no packet carries) has no place on the plot but
 * is listed first all the same, so the list holds every violation the
 * summary counts.
 */
import type { CheckColumns } from './check-columns.js';
import type { DetailPoint } from './check-detail-wire.js';
import { pidLabel } from '../report/pid-label.js';
import { formatPointValue } from './point-value-format.js';

export interface ViolationListProps {
  points: readonly DetailPoint[];
  columns: CheckColumns;
  selectedRow: number | null;
  onSelect: (row: number) => void;
}

/** Rows shown at most; the plot has them all. */
const MAX_ROWS = 1_000;

export function ViolationList({ points, columns, selectedRow, onSelect }: ViolationListProps) {
  const rows = Array.from(columns.violationRows.subarray(0, MAX_ROWS));
  const unplaced = points.filter((point) => point.violation && point.t === null);
  const total = columns.violationRows.length + unplaced.length;
  return (
    <section class="panel violation-list">
      <h2>
        Violations <span class="count">({total})</span>
      </h2>
      {total === 0 ? (
        <p class="empty">No point of this check breaks a rule.</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th class="number">Stream time (s)</th>
              <th class="number">PID</th>
              <th class="number">Value</th>
              <th>Severity</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {unplaced.slice(0, MAX_ROWS).map((point, index) => (
              <tr key={`unplaced-${index}`} class="unplaced" data-t="">
                <td class="number" title="Found before the first PCR, or about the whole file: no stream time, so not on the plot">
                  no stream time
                </td>
                <td class="number">{pidLabel(point.pid)}</td>
                <td class="number">{formatPointValue(point.value, point.unit)}</td>
                <td class={`severity-${point.severity}`}>{point.severity}</td>
                <td class="message">{point.message}</td>
              </tr>
            ))}
            {rows.map((row) => {
              const point = points[columns.pointOfRow[row]];
              return (
                <tr
                  key={row}
                  class={`clickable${row === selectedRow ? ' selected' : ''}`}
                  data-row={row}
                  data-t={point.t ?? ''}
                  tabIndex={0}
                  aria-selected={row === selectedRow}
                  onClick={() => onSelect(row)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      onSelect(row);
                    }
                  }}
                >
                  <td class="number">{(point.t as number).toFixed(3)}</td>
                  <td class="number">{pidLabel(point.pid)}</td>
                  <td class="number">{formatPointValue(point.value, point.unit)}</td>
                  <td class={`severity-${point.severity}`}>{point.severity}</td>
                  <td class="message">{point.message}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {columns.violationRows.length > MAX_ROWS && <p class="more">The first {MAX_ROWS} of {columns.violationRows.length} are listed; zoom the plot to see the others.</p>}
      {unplaced.length > 0 && <p class="more">{unplaced.length} violation(s) have no stream time (before the first PCR, or about the whole file): listed first, not on the plot.</p>}
    </section>
  );
}
