/** The KLV metadata of the file, per PID (the `analyze` stage's summary): carriage, standards, packets, checksum failures, time span and problems. */
import type { KlvPidSummary } from '@klvscope/core/browser';
import { formatTimestampMicros } from '../../viewer/klv-value-format.js';
import { routeHash } from '../dashboard-route.js';
import { useRef } from 'preact/hooks';
import { CsvExportButton } from './csv-export-button.js';
import { rowsOfTable } from './csv-text.js';
import { pidLabel } from './pid-label.js';

/** An ISO 8601 time stamp that may break between its date and its time (a narrow page keeps the table in its panel). */
function BreakableTimestamp({ text }: { text: string }) {
  const at = text.indexOf('T');
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at + 1)}
      <wbr />
      {text.slice(at + 1)}
    </>
  );
}

export function KlvSummaryPanel({ klv, filePath }: { klv: KlvPidSummary[]; filePath: string }) {
  const table = useRef<HTMLTableElement>(null);
  return (
    <section class="panel klv-summary">
      <h2>KLV metadata {klv.length > 0 && <CsvExportButton filePath={filePath} table="klv" rows={() => rowsOfTable(table.current!)} />}</h2>
      {klv.length === 0 ? (
        <p class="empty">No KLV metadata stream in this file.</p>
      ) : (
        <table class="data klv-pids" ref={table}>
          <thead>
            <tr>
              <th>PID</th>
              <th>Carriage</th>
              <th>Standards</th>
              <th>LS version</th>
              <th class="number">Packets</th>
              <th class="number">With PTS</th>
              <th class="number">Checksum failures</th>
              <th class="number">Items seen</th>
              <th>First time stamp</th>
              <th>Last time stamp</th>
              <th>Problems</th>
            </tr>
          </thead>
          <tbody>
            {klv.map((pid) => {
              const problems = Object.entries(pid.problems).filter(([, count]) => (count ?? 0) > 0);
              return (
                <tr class="klv-pid" data-pid={pid.pid}>
                  <td>{pidLabel(pid.pid)}</td>
                  <td>{pid.carriage}</td>
                  <td class="standards">{pid.standards.join(', ') || '—'}</td>
                  <td>{pid.versions.join(', ') || '—'}</td>
                  <td class="number packets">{pid.packets}</td>
                  <td class="number">{pid.packetsWithPts}</td>
                  <td class={`number checksum-failures ${pid.checksumFailures > 0 ? 'error' : ''}`}>{pid.checksumFailures}</td>
                  <td class="number" title={pid.itemsSeen.join(', ')}>
                    {pid.itemsSeen.length}
                  </td>
                  <td class="timestamp">
                    <BreakableTimestamp text={formatTimestampMicros(pid.firstTimestampMicros)} />
                  </td>
                  <td class="timestamp">
                    <BreakableTimestamp text={formatTimestampMicros(pid.lastTimestampMicros)} />
                  </td>
                  <td class={`problems ${problems.length > 0 ? 'error' : ''}`}>{problems.length === 0 ? 'none' : problems.map(([type, count]) => `${type} ${count}`).join(', ')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {klv.length > 0 && (
        <p class="klv-packets-link">
          <a href={routeHash({ page: 'klv', filePath })}>Every KLV packet, its items and its bytes in hex →</a>
        </p>
      )}
    </section>
  );
}
